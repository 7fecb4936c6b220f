"""Level 1: the lower-number rule, one rule per row."""

from __future__ import annotations

import pytest

from games.core.rng import ScriptedRng
from games.dice_age.dice import dice_for_level
from games.dice_age.engine import ENGINE

from .helpers import face, places, play, table

TWO = {"P1": {"garden": ["CASTLE", "TANK"]}, "P2": {"garden": ["SUN", "FERN"]}}


# (why, number before, order, rolled face, Number after, who plays next, P1 lost dice)
ROLLS = [
    ("no Number yet: any number stands", None, "ROLL TANK", 15, 15, "P2", []),
    ("a lower number becomes the Number", 9, "ROLL CASTLE", 3, 3, "P2", []),
    ("an equal number is no overshoot", 5, "ROLL CASTLE", 5, 5, "P2", []),
    ("a Roman numeral counts as its number", 8, "ROLL CASTLE", "VII", 7, "P2", []),
    ("a higher number loses the die rolled; the roller plays again, Number cleared",
     5, "ROLL TANK", 12, None, "P1", ["TANK"]),
    ("a higher Roman numeral loses too", 3, "ROLL CASTLE", "VII", None, "P1", ["CASTLE"]),
    ("an icon leaves the Number alone", 7, "ROLL TANK", "cannon", 7, "P2", []),
]


@pytest.mark.parametrize("why,before,text,shown,after,next_seat,lost", ROLLS,
                         ids=[r[0] for r in ROLLS])
def test_roll(why, before, text, shown, after, next_seat, lost):
    state = table(1, TWO, number=before)
    die = text.split()[1]
    new, events = play(state, text, [face(die, shown)])
    assert new["number"] == after
    assert new["pending"] == {"kind": "roll", "seat": next_seat}
    assert places(new, "P1").get("wasteland", []) == lost
    assert state["number"] == before, "resolve must not mutate its input"


def test_icon_skips_the_rollers_next_turn():
    state = table(1, TWO, number=7)
    state, _ = play(state, "ROLL TANK", [face("TANK", "cannon")])
    assert state["skips"]["P1"] == 1
    state, events = play(state, "ROLL FERN", [face("FERN", 6)])
    # P1 misses his turn, so P2 rolls again.
    assert state["pending"]["seat"] == "P2" and state["skips"]["P1"] == 0
    assert any(e.kind == "skipped" and e.data["seat"] == "P1" for e in events)


def test_losing_the_last_die_knocks_out_and_the_last_player_wins():
    state = table(1, {"P1": {"garden": ["TANK"], "wasteland": ["CASTLE"]},
                      "P2": {"garden": ["SUN"]}}, number=5)
    new, events = play(state, "ROLL TANK", [face("TANK", 9)])
    assert new["out"] == ["P1"] and new["winner"] == "P2"
    assert ENGINE.decision(new) is None
    assert ENGINE.result(new)["winners"] == ["P2"]
    assert "P2 wins" in ENGINE.report(events, None)


def test_knocked_out_seat_passes_the_new_round_to_the_next_player():
    state = table(1, {"P1": {"garden": ["TANK"]}, "P2": {"garden": ["SUN"]},
                      "P3": {"garden": ["FERN"]}}, number=5)
    new, _ = play(state, "ROLL TANK", [face("TANK", 9)])
    assert new["out"] == ["P1"] and new["winner"] is None
    assert new["pending"] == {"kind": "roll", "seat": "P2"} and new["number"] is None


def test_level_one_plays_with_its_named_dice_only():
    level1 = dice_for_level(1)
    assert {"BARREL", "CASTLE", "MINE", "ROCKET", "TANK"} <= set(level1)
    assert not {"UFO", "PYRAMID", "NITRO", "HYDRA"} & set(level1)
    assert {"FERN", "TURTLE", "OAK", "LILY", "MOSS"} <= set(level1)  # every green die


def test_setup_rolls_for_first_player_with_ties_rolled_again_then_drafts():
    rng = ScriptedRng([("first-player/1/P1", 6), ("first-player/1/P2", 6),
                       ("first-player/1/P3", 2), ("first-player/2/P1", 1),
                       ("first-player/2/P2", 4)])
    state, events = ENGINE.setup(["P1", "P2", "P3"], {"level": 1}, rng)
    assert state["first"] == "P2"
    assert state["pending"] == {"kind": "draft", "seat": "P2"}
    assert ENGINE.invariants(state) == []


def test_draft_goes_clockwise_and_the_first_player_rolls_first():
    state, _ = ENGINE.setup(["P1", "P2"], {"level": 1},
                            ScriptedRng([("first-player/1/P1", 2), ("first-player/1/P2", 5)]))
    picks = []
    while state["pending"]["kind"] == "draft":
        seat = state["pending"]["seat"]
        picks.append(seat)
        state, _ = play(state, ENGINE.default_orders(state, seat).text, [])
    assert picks[:4] == ["P2", "P1", "P2", "P1"]
    assert len(picks) == len(dice_for_level(1))
    assert state["pending"] == {"kind": "roll", "seat": "P2"}


def test_pick_takes_the_first_die_still_free():
    state, _ = ENGINE.setup(["P1", "P2"], {"level": 1},
                            ScriptedRng([("first-player/1/P1", 5), ("first-player/1/P2", 1)]))
    state, _ = play(state, "PICK TANK", [])
    state, _ = play(state, "PICK TANK MINE", [])
    assert places(state, "P2")["garden"] == ["MINE"]


def test_standing_pick_keeps_drafting_without_asking():
    state, _ = ENGINE.setup(["P1", "P2"], {"level": 1},
                            ScriptedRng([("first-player/1/P1", 5), ("first-player/1/P2", 1)]))
    state, events = play(state, "PICK CASTLE\nSTANDING PICK BARREL LILY", [])
    state, events = play(state, "PICK TANK", [])  # P2; then P1's standing order picks
    assert places(state, "P1")["garden"] == ["BARREL", "CASTLE"]
    assert state["standing"]["P1"] == [{"order": {"op": "pick", "dice": ["BARREL", "LILY"]}}]
    assert state["pending"]["seat"] == "P2"
    assert any(e.kind == "settled" for e in events)


def test_level_option_accepts_the_rulebook_levels_only():
    for level in ENGINE.options["level"].choices:
        assert ENGINE.validate_options({"level": level})["level"] == level
    with pytest.raises(ValueError, match="choose one of: 1, 2, 3, 4, 5"):
        ENGINE.validate_options({"level": 8})
