"""Levels 2-4: each row one rule, on a hand-laid table with scripted dice."""

from __future__ import annotations

import pytest

from games.core.rng import ScriptedRng
from games.core.types import OrdersInvalid
from games.dice_age.dice import DICE, dice_for_level
from games.dice_age.engine import ENGINE

from .helpers import face, places, play, table

# -- level 2: every die, and dice resting between two sides ---------------------------


def test_level_two_plays_every_die():
    assert dice_for_level(2) == [d for d in DICE if DICE[d].colour != "white"]
    assert dice_for_level(5) == list(DICE)  # the white dice join at level 5
    assert {"UFO", "PYRAMID", "NITRO", "HYDRA", "VOLCANO", "CONJURER"} <= set(dice_for_level(2))


# (Number, side read, Number after, die lost)
EDGES = [
    (5, "READ 4", 4, False),
    (4, "READ 5", None, True),  # the roller may read the side that loses; it counts
    (None, "READ 5", 5, False),
]


@pytest.mark.parametrize("number,text,after,lost", EDGES)
def test_a_die_resting_between_two_sides_asks_the_roller(number, text, after, lost):
    state = table(2, {"P1": {"garden": ["VOLCANO", "CASTLE"]}, "P2": {"garden": ["SUN"]}},
                  number=number)
    state, events = play(state, "ROLL VOLCANO", [face("VOLCANO", "4|5")])
    assert state["pending"] == {"kind": "read", "seat": "P1", "die": "VOLCANO",
                                "sides": [4, 5]}
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["READ 4", "READ 5"]
    state, _ = play(state, text, [])
    assert state["number"] == after
    assert ("VOLCANO" in places(state, "P1").get("wasteland", [])) == lost


def test_reading_a_side_the_die_does_not_show_is_refused():
    state = table(2, {"P1": {"garden": ["UFO"]}, "P2": {"garden": ["SUN"]}}, number=9)
    state, _ = play(state, "ROLL UFO", [face("UFO", "10|double-arrow")])
    with pytest.raises(OrdersInvalid, match="does not rest on 7"):
        ENGINE.parse_orders(state, "P1", "READ 7")
    state, _ = play(state, "READ double-arrow", [])  # an icon side: P1 misses a turn
    assert state["skips"]["P1"] == 1 and state["number"] == 9


def test_default_reading_prefers_a_safe_number():
    state = table(2, {"P1": {"garden": ["ZEPPELIN"]}, "P2": {"garden": ["SUN"]}}, number=13)
    state, _ = play(state, "ROLL ZEPPELIN", [face("ZEPPELIN", "12|14")])
    assert ENGINE.default_orders(state, "P1").text == "READ 12"


def test_tetrahedral_and_two_sided_dice_read_plainly():
    state = table(2, {"P1": {"garden": ["NITRO", "PYRAMID"]}, "P2": {"garden": ["SUN"]}},
                  number=9)
    state, _ = play(state, "ROLL NITRO", [face("NITRO", 2)])
    assert state["number"] == 2
    assert DICE["NITRO"].faces == (2, 14)


# -- level 3: garden, field, wasteland -----------------------------------------------

L3 = {"P1": {"garden": ["CASTLE", "TANK"], "field": ["FERN"]},
      "P2": {"garden": ["SUN"], "field": ["MOSS"]},
      "P3": {"garden": ["OAK"], "field": ["LILY"]}}


def test_rolled_die_stays_in_the_field():
    state = table(3, L3, number=9)
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", 3)])
    assert places(state, "P1")["field"] == ["FERN", "CASTLE"]
    assert state["number"] == 3


def test_overshoot_loses_the_whole_field_and_returns_the_others():
    state = table(3, L3, number=9)
    state, events = play(state, "ROLL TANK", [face("TANK", 12)])
    assert places(state, "P1") == {"garden": ["CASTLE"], "wasteland": ["FERN", "TANK"]}
    assert places(state, "P2") == {"garden": ["SUN", "MOSS"]}
    assert places(state, "P3") == {"garden": ["OAK", "LILY"]}
    assert state["pending"] == {"kind": "roll", "seat": "P1"} and state["number"] is None
    assert "sent to the wasteland" in ENGINE.report(events, None)


def test_field_dice_may_be_rolled_again():
    state = table(3, L3, number=9)
    orders = ENGINE.parse_orders(state, "P1", "ROLL FERN")
    assert orders.text == "ROLL FERN"


def test_icon_keeps_the_die_in_the_field_and_skips():
    state = table(3, L3, number=9)
    state, _ = play(state, "ROLL TANK", [face("TANK", "radiation")])
    assert "TANK" in places(state, "P1")["field"] and state["skips"]["P1"] == 1


def test_out_when_everything_is_in_the_wasteland():
    state = table(3, {"P1": {"field": ["TANK"], "wasteland": ["CASTLE"]},
                      "P2": {"garden": ["SUN"]}, "P3": {"garden": ["OAK"]}}, number=5)
    state, _ = play(state, "ROLL TANK", [face("TANK", 9)])
    assert state["out"] == ["P1"] and state["pending"]["seat"] == "P2"


# -- level 4: the deal by colour, and the icon choice ---------------------------------


def _identity(n: int) -> list[int]:
    return list(range(n))


def test_deal_by_colour_gives_even_hands_and_leftovers_go_to_limbo():
    colours = {c: [d for d in DICE if DICE[d].colour == c]
               for c in ("yellow", "green", "red", "orange")}
    script = [("first-player/1/P1", 3), ("first-player/1/P2", 6), ("first-player/1/P3", 1),
              *[(f"deal/{c}", _identity(len(v))) for c, v in colours.items()],
              ("deal/set-aside", _identity(6))]
    state, events = ENGINE.setup(["P1", "P2", "P3"], {"level": 4}, ScriptedRng(script))
    assert state["first"] == "P2" and state["pending"] == {"kind": "roll", "seat": "P2"}
    hands = {s: places(state, s)["garden"] for s in ("P2", "P3", "P1")}
    assert all(len(h) == 7 for h in hands.values())
    # Unshuffled: each colour dealt P2, P3, P1, ...; the odd yellow, two greens, two reds
    # and one orange are set aside and dealt last.
    assert hands["P2"] == ["SUN", "HALO", "UFO", "FERN", "BARREL", "VOLCANO", "MINE"]
    for seat, hand in hands.items():
        assert {DICE[d].colour for d in hand} == {"yellow", "green", "red", "orange"}, seat
    limbo = [d for d, i in state["dice"].items() if i["place"] == "limbo"]
    assert limbo == []  # 21 dice, 3 players: 21 = 7 x 3
    assert ENGINE.invariants(state) == []


def test_deal_for_four_puts_the_odd_die_in_limbo():
    state, events = ENGINE.setup(["P1", "P2", "P3", "P4"], {"level": 4},
                                 ScriptedRng([("first-player/1/P1", 6),
                                              ("first-player/1/P2", 1),
                                              ("first-player/1/P3", 1),
                                              ("first-player/1/P4", 1),
                                              ("deal/yellow", _identity(7)),
                                              ("deal/green", _identity(5)),
                                              ("deal/red", _identity(5)),
                                              ("deal/orange", _identity(4)),
                                              ("deal/set-aside", _identity(5))]))
    assert [len(places(state, s)["garden"]) for s in state["seats"]] == [5, 5, 5, 5]
    limbo = [d for d, i in state["dice"].items() if i["place"] == "limbo"]
    assert len(limbo) == 1
    assert "Limbo" in ENGINE.report(events, None)


L4 = {"P1": {"garden": ["CASTLE", "TANK"], "wasteland": ["MINE", "FERN"]},
      "P2": {"garden": ["SUN"]}}


# (order after the icon, P1 skips, where the recalled die goes)
ICON = [
    ("SKIP", 1, None),
    ("RECALL MINE", 0, "MINE"),
    ("RECALL FERN", 0, "FERN"),
]


@pytest.mark.parametrize("text,skips,recalled", ICON)
def test_icon_choice(text, skips, recalled):
    state = table(4, L4, number=9)
    state, _ = play(state, "ROLL TANK", [face("TANK", "cannon")])
    assert state["pending"] == {"kind": "icon", "seat": "P1", "die": "TANK"}
    state, _ = play(state, text, [])
    assert state["skips"]["P1"] == skips
    if recalled:
        assert recalled in places(state, "P1")["field"]
    assert state["pending"] == {"kind": "roll", "seat": "P2"}


def test_icon_with_an_empty_wasteland_just_skips():
    state = table(4, {"P1": {"garden": ["CASTLE", "TANK"]}, "P2": {"garden": ["SUN"]}},
                  number=9)
    state, _ = play(state, "ROLL TANK", [face("TANK", "cannon")])
    assert state["skips"]["P1"] == 1 and state["pending"]["seat"] == "P2"


def test_recall_needs_a_wasteland_die_and_standing_recall_settles_it():
    state = table(4, L4, number=9)
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "P1", "RECALL MINE")  # no icon yet
    state, events = play(state, "ROLL TANK\nSTANDING RECALL FERN", [face("TANK", "cannon")])
    assert "FERN" in places(state, "P1")["field"]
    assert state["pending"]["seat"] == "P2"


def test_icon_choice_is_level_four_only():
    state = table(3, L4 | {"P1": {"garden": ["CASTLE", "TANK"], "wasteland": ["MINE"]}},
                  number=9)
    state, _ = play(state, "ROLL TANK", [face("TANK", "cannon")])
    assert state["pending"]["kind"] == "roll" and state["skips"]["P1"] == 1
