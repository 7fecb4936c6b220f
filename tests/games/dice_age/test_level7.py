"""Level 7: Legions chosen in secret from the designed point values, reserves, the General."""

from __future__ import annotations

import pytest

from games.core.rng import ScriptedRng
from games.core.types import OrdersInvalid
from games.dice_age.dice import DICE
from games.dice_age.engine import ENGINE
from games.dice_age.rules.legion import cost, default_legion

from .helpers import answer, face, legion_table, places, play

FIRST = [("first-player/1/P1", 6), ("first-player/1/P2", 2)]


def _start(points=500):
    state, _ = ENGINE.setup(["P1", "P2"], {"level": 7, "points": points}, ScriptedRng([]))
    return state


def test_every_seat_chooses_at_once_before_the_game():
    state = _start()
    decision = ENGINE.decision(state)
    assert decision.phase == "legion" and decision.seats == ["P1", "P2"]
    for seat in ("P1", "P2"):  # every quick pick parses as shown
        for choice in decision.prompts[seat]["choices"]:
            ENGINE.parse_orders(state, seat, choice)


RULES = [
    ("LEGION SUN SUN SUN", "at most two of the same die"),
    ("LEGION " + " ".join(["SUN", "SUN", "STAR", "STAR", "COMET", "COMET", "HALO", "HALO",
                           "NITRO", "NITRO", "PYRAMID"]), "more than 300"),
    ("LEGION MINE MINE ROCKET ROCKET TANK TANK ZEPPELIN ZEPPELIN SUN SUN STAR",
     "holds at most 10"),
    ("LEGION TANK TANK ROCKET ROCKET MINE MINE HYDRA CASTLE", "more than 300"),
    ("LEGION TANK ROCKET\nGENERAL SUN", "not in your Legion"),
    ("LEGION TANK ROCKET\nRESERVE CASTLE", "the reserve costs 60 points: more than 60") ,
]


@pytest.mark.parametrize("text,message", RULES)
def test_legion_rules_are_checked_when_the_orders_arrive(text, message):
    state = _start(300)
    if message.startswith("the reserve costs 60"):
        ENGINE.parse_orders(state, "P1", text)  # exactly 20%: allowed
        text, message = "LEGION TANK ROCKET\nRESERVE CASTLE ROCKET", "more than 60"
    with pytest.raises(OrdersInvalid, match=message):
        ENGINE.parse_orders(state, "P1", text)


def test_each_extra_colour_costs_fifty_and_the_general_counts_twice():
    assert cost(["TANK", "ROCKET"], None) == DICE["TANK"].value + DICE["ROCKET"].value
    assert cost(["TANK", "CASTLE"], None) == DICE["TANK"].value + DICE["CASTLE"].value + 50
    assert cost(["TANK", "CASTLE"], "TANK") == 2 * DICE["TANK"].value + DICE["CASTLE"].value + 50


def _reveal():
    state = _start()
    orders = {"P1": ENGINE.parse_orders(state, "P1", "LEGION TANK TANK ROCKET\nGENERAL TANK\n"
                                                    "RESERVE MINE"),
              "P2": ENGINE.parse_orders(state, "P2", "LEGION TANK CASTLE SUN")}
    return ENGINE.resolve(state, orders, ScriptedRng(FIRST))


def test_legions_are_laid_out_copies_numbered_general_and_reserve_private():
    state, events = _reveal()
    assert places(state, "P1")["garden"] == ["TANK", "TANK2", "ROCKET"]
    assert sorted(places(state, "P2")["garden"]) == ["CASTLE", "SUN", "TANK3"]
    assert state["general"]["P1"] == "TANK" and state["reserve"]["P1"] == ["MINE"]
    assert state["pending"] == {"kind": "roll", "seat": "P1"}
    view = ENGINE.view(state, "P2")["players"]["P1"]
    assert "general" not in view and "reserve" not in view
    assert ENGINE.view(state, "P1")["players"]["P1"]["reserve"] == ["MINE"]
    assert "reserve: MINE" in ENGINE.report(events, "P1")
    assert "MINE" not in ENGINE.report(events, "P2")
    assert "MINE" not in ENGINE.report(events, None)


def test_a_seat_without_a_legion_gets_the_default():
    state = _start()
    new, events = ENGINE.resolve(state, {"P1": ENGINE.parse_orders(state, "P1", "LEGION SUN")},
                                 ScriptedRng(FIRST))
    mine = sorted(d.rstrip("0123456789") for d in places(new, "P2")["garden"])
    assert mine == sorted(default_legion(state)[0]["dice"])
    assert cost(default_legion(state)[0]["dice"], None) <= 500


def test_the_general_may_send_another_field_die_in_its_place():
    state = legion_table({"P1": {"garden": ["LILY", "SUN"]},
                          "P2": {"garden": ["OAK"], "field": ["TANK", "FERN"]}},
                         number=9, general={"P2": "TANK"})
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT TANK")
    assert state["pending"]["window"] == "instead"
    state, events = answer(state, "INSTEAD FERN")
    assert places(state, "P2")["wasteland"] == ["FERN"]
    assert "General Tank (orange) is saved" in ENGINE.report(events, None)


def test_a_player_whose_last_die_is_his_general_loses():
    state = legion_table({"P1": {"garden": ["LILY", "SUN"]},
                          "P2": {"garden": ["TANK"], "field": ["FERN"]},
                          "P3": {"garden": ["OAK"]}},
                         number=9, general={"P2": "TANK"})
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT FERN")
    assert "P2" in state["out"]


def test_the_legendary_rule_bites_with_copies():
    state = legion_table({"P1": {"garden": ["TANK", "SUN"]},
                          "P2": {"garden": ["OAK"], "field": ["TANK2"]}}, number=20)
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["ROLL SUN"]
