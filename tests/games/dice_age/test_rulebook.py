"""Rules the first scenario files left without a test of their own (found by reading the
rulebook level by level against README.md's inventory in this folder)."""

from __future__ import annotations

import pytest

from games.core.rng import Rng, ScriptedRng
from games.dice_age.dice import DICE
from games.dice_age.engine import ENGINE
from games.dice_age.levels import level_rules

from .helpers import answer, drawn, face, legion_table, places, play, suspend, table


def pend(state):
    p = state["pending"]
    return p["kind"], p["seat"], p.get("window") or p.get("effect")


# -- setting up ----------------------------------------------------------------------
@pytest.mark.parametrize("level", range(1, 7))
def test_the_dice_are_drafted_to_level_3_and_dealt_by_colour_from_level_4(level):
    state, events = ENGINE.setup(["P1", "P2"], {"level": level}, Rng(f"deal-{level}", "setup"))
    first = state["first"]
    if level_rules(level).draft:
        assert state["pending"] == {"kind": "draft", "seat": first}
        assert all(i["place"] == "pool" for i in state["dice"].values())
        return
    assert state["pending"] == {"kind": "roll", "seat": first}  # the dealer starts
    hands = {s: places(state, s)["garden"] for s in ("P1", "P2")}
    assert len(hands["P1"]) == len(hands["P2"])
    colours = {"yellow", "green", "red", "orange"} | ({"white"} if level >= 5 else set())
    for hand in hands.values():
        assert {DICE[d].colour for d in hand} == colours


@pytest.mark.parametrize("level", range(1, 8))
def test_at_most_four_players(level):
    with pytest.raises(ValueError, match="2 to 4 players"):
        ENGINE.setup(["P1", "P2", "P3", "P4", "P5"], {"level": level}, ScriptedRng([]))


# -- the colours (level 5) -----------------------------------------------------------
OWN = {"yellow": {"double-arrow", "smile", "radiation"},
       "green": {"square", "blank", "gear"},
       "red": {"chaos", "roman", "cannon", "gear"},
       "orange": {"cross", "cannon", "radiation"}}
UNCLAIMED = {"pit", "nut", "triangle"}  # effects the colour list gives to no colour


@pytest.mark.parametrize("colour", sorted(OWN))
def test_each_colour_bears_its_effects_and_no_other_colours(colour):
    from games.dice_age.dice import ROMAN, sides
    icons = {("roman" if side in ROMAN else side)
             for d in DICE.values() if d.colour == colour
             for f in d.faces for side in sides(f) if isinstance(side, str)}
    assert OWN[colour] <= icons
    assert icons <= OWN[colour] | UNCLAIMED


# -- effects: the finer points --------------------------------------------------------
def test_a_nut_does_not_answer_a_cross_which_targets_everyone():
    state = table(5, {"P1": {"garden": ["MINE", "SUN"]},
                      "P2": {"garden": ["OAK"], "field": ["TANK", "CONJURER"]}}, number=9)
    suspend(state, "CONJURER", "nut")
    state, _ = play(state, "ROLL MINE", [face("MINE", "cross")])
    assert pend(state) == ("roll", "P2", None)  # no Nut window was opened
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert state["dice"]["CONJURER"]["susp"]["effect"] == "nut"


def test_a_doubled_pit_needs_two_nuts():
    state = table(6, {"P1": {"garden": ["LILY", "SUN"], "field": ["STAR"]},
                      "P2": {"garden": ["OAK"], "field": ["TANK", "MINE", "CONJURER"]}},
                  number=9)
    suspend(state, "STAR", "double-arrow")
    suspend(state, "CONJURER", "nut")
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "DOUBLE")
    state, _ = answer(state, "PIT TANK")
    assert pend(state) == ("react", "P2", "nut")
    state, _ = answer(state, "NUT")
    state, _ = answer(state, "PIT MINE")  # no Nut left to answer the second pit
    assert places(state, "P2")["wasteland"] == ["MINE"]
    assert "TANK" in places(state, "P2")["field"]


def test_a_double_arrow_can_be_doubled():
    state = table(6, {"P1": {"garden": ["HALO", "SUN"], "field": ["STAR"]},
                      "P2": {"garden": ["OAK"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL HALO", [face("HALO", "double-arrow")])
    assert pend(state) == ("react", "P1", "double")
    state, events = answer(state, "DOUBLE")
    assert state["dice"]["STAR"]["susp"] is None
    assert state["dice"]["HALO"]["susp"]["uses"] == 2  # the new arrow may act twice


def test_a_smile_answers_only_its_holders_own_roll():
    state = table(5, {"P1": {"garden": ["CASTLE", "TANK"]},
                      "P2": {"garden": ["OAK"], "field": ["SUN"]}}, number=9)
    suspend(state, "SUN", "smile", d6=[3])
    state, _ = play(state, "ROLL TANK", [face("TANK", 12)])  # P2 may not save P1
    assert places(state, "P1")["wasteland"] == ["TANK"]
    assert state["dice"]["SUN"]["susp"]["d6"] == [3]


def test_triangle_all_rethrows_every_die_once_none_is_left_to_add():
    state = table(5, {"P1": {"garden": ["PYRAMID", "SUN"]}, "P2": {"garden": ["OAK"]}},
                  number=9)
    state, _ = play(state, "ROLL PYRAMID", [face("PYRAMID", "triangle")])
    state, _ = answer(state, "TRIANGLE SUN", [drawn("triangle", "PYRAMID", "triangle"),
                                              drawn("triangle", "SUN", 10)])
    assert state["pending"]["legal"] == ["KEEP SUN", "TRIANGLE ALL"]
    state, events = answer(state, "TRIANGLE ALL", [drawn("triangle", "PYRAMID", 6),
                                                   drawn("triangle", "SUN", 8)])
    state, _ = answer(state, "KEEP PYRAMID")
    assert state["number"] == 6
    assert "throws all his triangle dice once more" in ENGINE.report(events, None)


def test_the_roller_orders_the_effects_a_chaos_rolled():
    state = table(5, {"P1": {"garden": ["CASTLE"], "field": ["TURTLE", "LILY"]},
                      "P2": {"garden": ["OAK"], "field": ["TANK"]},
                      "P3": {"garden": ["FERN"]}}, number=9)
    state, _ = play(state, "ROLL CASTLE", [
        face("CASTLE", "chaos"), drawn("chaos", "TURTLE", "blank"),
        drawn("chaos", "LILY", "pit"), drawn("chaos", "CASTLE", 3)])
    assert state["pending"]["kind"] == "chaos"
    assert state["pending"]["legal"] == ["APPLY BLANK", "APPLY PIT"]
    state, _ = answer(state, "APPLY PIT")
    state, _ = answer(state, "PIT TANK")
    assert pend(state) == ("target", "P1", "blank")  # the other effect comes next
    state, events = answer(state, "SKIP P2")
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert state["number"] == 3 and pend(state) == ("roll", "P3", None)


def test_a_roman_numeral_is_a_number_a_pair_can_match():
    state = table(6, {"P1": {"garden": ["CASTLE"], "wasteland": ["FERN"]},
                      "P2": {"garden": ["OAK"]}}, number=9)
    state["dice"]["FERN"]["face"] = 7
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", "VII")])
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["PAIR FERN", "PASS"]
    state, _ = answer(state, "PAIR FERN")
    assert state["number"] == 7 and "FERN" in places(state, "P1")["field"]


def test_a_white_die_on_the_ledges_of_a_losing_field_goes_to_limbo():
    state = table(5, {"P1": {"garden": ["TANK", "SUN"], "field": ["WCUBE"]},
                      "P2": {"garden": ["OAK"]}}, number=5)
    suspend(state, "WCUBE", "nut")
    state, events = play(state, "ROLL TANK", [face("TANK", 12)])
    assert state["dice"]["WCUBE"]["place"] == "limbo"
    assert places(state, "P1")["wasteland"] == ["TANK"]
    assert "White Cube (white) to Limbo (white)" in ENGINE.report(events, None)


# -- who is out (level 5) -------------------------------------------------------------
def test_a_player_who_cannot_play_is_out_his_dice_to_limbo_and_the_round_ends():
    state = table(5, {"P1": {"garden": ["SUN", "MOSS"]},
                      "P2": {"field": ["CASTLE"], "wasteland": ["FERN"]},
                      "P3": {"garden": ["OAK"]}}, number=9)
    state["last"]["P2"] = "CASTLE"  # his only die made his last main roll
    state, events = play(state, "ROLL SUN", [face("SUN", 7)])
    assert state["out"] == ["P2"]
    assert state["dice"]["CASTLE"]["place"] == "limbo" and state["dice"]["FERN"]["place"] == "limbo"
    assert state["number"] is None  # the round ended ...
    assert places(state, "P1")["garden"] == ["SUN", "MOSS"]  # ... and the Valley went home
    assert state["pending"] == {"kind": "roll", "seat": "P3"}  # the next player starts
    assert "Next! The round ends." in ENGINE.report(events, None)


# -- per un pugno di dadi (level 6) ---------------------------------------------------
def test_fistful_with_equal_values_plays_four_more_turns():
    state = table(6, {"P1": {"field": ["SUN"]}, "P2": {"field": ["STAR"]}}, number=12)
    assert DICE["SUN"].value == DICE["STAR"].value
    turns = [("P1", "SUN", 9), ("P2", "STAR", 8), ("P1", "SUN", 7), ("P2", "STAR", 6),
             ("P1", "SUN", 6)]
    events = []
    for seat, die, shown in turns:
        state, new = play(state, f"ROLL {die}", [face(die, shown)], seat)
        events += new
    assert state["winner"] is None
    assert "four more turns" in ENGINE.report(events, None)


# -- the General (level 7) ------------------------------------------------------------
def test_the_general_cannot_be_saved_without_another_die_in_the_field():
    state = legion_table({"P1": {"garden": ["LILY", "SUN"]},
                          "P2": {"garden": ["OAK"], "field": ["TANK"]}},
                         number=9, general={"P2": "TANK"})
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT TANK")
    assert places(state, "P2")["wasteland"] == ["TANK"]  # no General window was opened
    assert pend(state) == ("roll", "P2", None)
