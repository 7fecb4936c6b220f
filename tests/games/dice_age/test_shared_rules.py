"""The rules every level shares, checked at every level they apply to.

One turn engine runs levels 1-7 (rules/flow.py, switches in levels.py), so each of these
rules exists once in the code; these scenarios pin that it holds at each level alike,
and that the levels differ only where the rulebook adds something.
"""

from __future__ import annotations

import pytest

from games.core.engine import REVISION
from games.dice_age.engine import ENGINE
from games.dice_age.levels import level_rules

from .helpers import face, legion_table, places, play, table

ALL = range(1, 8)


def lay(level, layout, **kw):
    """A hand-laid table at any level (level 7: the seats' own dice)."""
    if level == 7:
        skips, out = kw.pop("skips", None), kw.pop("out", None)
        state = legion_table(layout, **kw)
        state["skips"].update(skips or {})
        state["out"] = list(out or [])
        return state
    return table(level, layout, **kw)


TWO = {"P1": {"garden": ["CASTLE", "TANK"]}, "P2": {"garden": ["SUN", "FERN"]}}


# -- the Number ----------------------------------------------------------------------
@pytest.mark.parametrize("level", ALL)
@pytest.mark.parametrize("before,shown,after", [(None, 15, 15), (9, 3, 3), (8, "VII", 7)],
                         ids=["no Number yet", "lower", "Roman numeral"])
def test_a_number_no_higher_than_the_number_becomes_the_number(level, before, shown, after):
    state = lay(level, TWO, number=before)
    die = "TANK" if shown == 15 else "CASTLE"
    state, events = play(state, f"ROLL {die}", [face(die, shown)])
    assert state["number"] == after
    assert state["pending"] == {"kind": "roll", "seat": "P2"}
    assert f"The Number is now **{after}**" in ENGINE.report(events, None)


@pytest.mark.parametrize("level", ALL)
def test_equalling_the_number_is_no_overshoot(level):
    state = lay(level, TWO, number=5)
    state, events = play(state, "ROLL CASTLE", [face("CASTLE", 5)])
    assert state["number"] == 5 and state["pending"] == {"kind": "roll", "seat": "P2"}
    assert "wasteland" not in places(state, "P1")
    resting = level_rules(level).resting  # level 6 adds: the die rests on the Ledges
    assert ("rests on the Ledges" in ENGINE.report(events, None)) == resting


# -- the overshoot -------------------------------------------------------------------
@pytest.mark.parametrize("level", ALL)
def test_an_overshoot_loses_and_the_roller_starts_the_new_round(level):
    layout = {"P1": {"garden": ["CASTLE", "TANK"], "field": ["FERN"]},
              "P2": {"garden": ["SUN"], "field": ["MOSS"]}}
    if not level_rules(level).field:  # levels 1-2: no field yet
        layout = {"P1": {"garden": ["CASTLE", "TANK", "FERN"]},
                  "P2": {"garden": ["SUN", "MOSS"]}}
    state = lay(level, layout, number=9)
    state, events = play(state, "ROLL TANK", [face("TANK", 12)])
    assert state["number"] is None and state["pending"] == {"kind": "roll", "seat": "P1"}
    if level_rules(level).field:  # the whole field goes, the others' field dice go home
        assert places(state, "P1")["garden"] == ["CASTLE"]
        assert sorted(places(state, "P1")["wasteland"]) == ["FERN", "TANK"]
        assert sorted(places(state, "P2")["garden"]) == ["MOSS", "SUN"]
    else:  # only the die just rolled
        assert places(state, "P1")["wasteland"] == ["TANK"]
        assert places(state, "P2") == {"garden": ["SUN", "MOSS"]}
    assert "12 is above 9: P1 loses the round" in ENGINE.report(events, None)


# -- skipped turns, the next roller, knock-outs, the winner ---------------------------
@pytest.mark.parametrize("level", ALL)
def test_a_seat_owing_a_skipped_turn_is_passed_once(level):
    three = {"P1": {"garden": ["CASTLE", "TANK"]}, "P2": {"garden": ["SUN", "FERN"]},
             "P3": {"garden": ["OAK", "LILY"]}}
    state = lay(level, three, number=9, skips={"P2": 2})
    state, events = play(state, "ROLL CASTLE", [face("CASTLE", 3)])
    assert state["pending"] == {"kind": "roll", "seat": "P3"} and state["skips"]["P2"] == 1
    assert "P2 misses this turn." in ENGINE.report(events, None)


@pytest.mark.parametrize("level", ALL)
def test_a_knocked_out_seat_passes_the_new_round_to_the_next_roller(level):
    """The next roller after a knock-out is found as after any turn: a seat owing a
    skipped turn is passed. (Levels 5-7 used to hand the new round to the next seat even
    when it owed a skip: a drift between the two former turn engines, fixed.)"""
    layout = {"P1": {"garden": ["TANK"], "wasteland": ["MINE"]},
              "P2": {"garden": ["SUN", "FERN"]}, "P3": {"garden": ["OAK", "LILY"]}}
    state = lay(level, layout, number=5, skips={"P2": 1})
    state, events = play(state, "ROLL TANK", [face("TANK", 9)])
    assert state["out"] == ["P1"] and state["winner"] is None
    assert state["pending"] == {"kind": "roll", "seat": "P3"} and state["skips"]["P2"] == 0
    assert state["number"] is None
    text = ENGINE.report(events, None)
    assert "P2 misses this turn." in text
    if level_rules(level).out_to_limbo:  # level 5 adds: his dice go to Limbo
        assert state["dice"]["MINE"]["place"] == "limbo" and "Next!" in text
    else:
        assert state["dice"]["MINE"]["place"] == "wasteland" and "is out" in text


@pytest.mark.parametrize("level", ALL)
def test_a_game_of_rules_revision_1_keeps_the_old_knock_out(level):
    """Games recorded before rules revision 2 replay as they were played: at levels 5-7
    the new round went to the next seat even when it owed a skip (taken later)."""
    layout = {"P1": {"garden": ["TANK"], "wasteland": ["MINE"]},
              "P2": {"garden": ["SUN", "FERN"]}, "P3": {"garden": ["OAK", "LILY"]}}
    state = lay(level, layout, number=5, skips={"P2": 1}, revision=1)
    state, events = play(state, "ROLL TANK", [face("TANK", 9)])
    assert state["out"] == ["P1"] and REVISION not in state
    if level_rules(level).out_to_limbo:
        assert state["pending"] == {"kind": "roll", "seat": "P2"} and state["skips"]["P2"] == 1
    else:  # levels 1-4 always passed the seat owing a skip
        assert state["pending"] == {"kind": "roll", "seat": "P3"} and state["skips"]["P2"] == 0


@pytest.mark.parametrize("level", ALL)
def test_the_last_seat_with_dice_wins(level):
    layout = {"P1": {"garden": ["TANK"], "wasteland": ["CASTLE"]}, "P2": {"garden": ["SUN"]}}
    state = lay(level, layout, number=5)
    state, events = play(state, "ROLL TANK", [face("TANK", 9)])
    assert state["out"] == ["P1"] and state["winner"] == "P2"
    assert ENGINE.decision(state) is None and ENGINE.result(state)["winners"] == ["P2"]
    assert "**P2 wins**" in ENGINE.report(events, None)


# -- reading the dice ------------------------------------------------------------------
@pytest.mark.parametrize("level", range(2, 8))
def test_a_die_resting_between_two_sides_lets_the_roller_choose(level):
    state = lay(level, {"P1": {"garden": ["VOLCANO", "CASTLE"]},
                        "P2": {"garden": ["SUN", "FERN"]}}, number=9)
    state, _ = play(state, "ROLL VOLCANO", [face("VOLCANO", "4|5")])
    assert state["pending"] == {"kind": "read", "seat": "P1", "die": "VOLCANO",
                                "sides": [4, 5]}
    state, _ = play(state, "READ 4", [])
    assert state["number"] == 4 and state["pending"] == {"kind": "roll", "seat": "P2"}


# -- what a level changes about an icon --------------------------------------------------
@pytest.mark.parametrize("level", ALL)
def test_an_icon_costs_a_turn_until_effects_replace_it(level):
    state = lay(level, {"P1": {"garden": ["TURTLE", "CASTLE"]},
                        "P2": {"garden": ["SUN", "FERN"]}}, number=9)
    state, _ = play(state, "ROLL TURTLE", [face("TURTLE", "blank")])
    if level_rules(level).effects:  # the blank side: choose who skips
        assert state["pending"]["kind"] == "target" and state["skips"]["P1"] == 0
    else:
        assert state["skips"]["P1"] == 1 and state["pending"] == {"kind": "roll",
                                                                  "seat": "P2"}


# -- what each level adds ----------------------------------------------------------------
ADDS = {  # switches each level turns on (+) or off (-) against the level before
    2: {"+all_dice"},
    3: {"+field"},
    4: {"-draft", "+icon_recall", "+limbo"},
    5: {"-icon_skips", "-icon_recall", "+effects", "+white_dice", "+never_twice",
        "+out_to_limbo"},
    6: {"+legendary", "+survival", "+pair", "+fistful", "+resting"},
    7: {"+legions", "+general"},
}


@pytest.mark.parametrize("level", range(2, 8))
def test_each_level_changes_only_what_the_rulebook_adds(level):
    from dataclasses import asdict
    before, now = asdict(level_rules(level - 1)), asdict(level_rules(level))
    changed = {("+" if now[k] else "-") + k for k in now
               if k != "number" and now[k] != before[k]}
    assert changed == ADDS[level]
