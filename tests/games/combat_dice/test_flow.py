"""The game's course: arming, advanced combatants, standing orders, the paused reroll,
and what each seat may see."""

from __future__ import annotations

import pytest

from games.combat_dice.engine import ENGINE
from games.core.canonical import canonical_json
from games.core.rng import ScriptedRng

from .helpers import STANDARD, armed, basic, kinds, scores_of, special, turn

# P1 wins the initiative with the better maneuver: it may reroll.
P1_MAY_REROLL = basic("P1", 5, 6, 2, 2, 2, 2) + basic("P2", 2, 4, 4, 4, 4, 4)


def advanced_setup(p1=(3, 2), p2=(5, 1)):
    options = ENGINE.validate_options({"combatants": "advanced"})
    script = [("setup/P1/hit-points", p1[0]), ("setup/P1/specialty-dice", p1[1]),
              ("setup/P2/hit-points", p2[0]), ("setup/P2/specialty-dice", p2[1])]
    return ENGINE.setup(["P1", "P2"], options, ScriptedRng(script))


def test_setup_opens_with_the_arming_decision_for_both_seats():
    state, events = ENGINE.setup(["P1", "P2"], ENGINE.validate_options({}), ScriptedRng([]))
    decision = ENGINE.decision(state)
    assert decision.phase == "arm" and decision.seats == ["P1", "P2"]
    assert state["fighters"]["P1"]["hp"] == 10 and state["fighters"]["P1"]["specialty_count"] == 0
    assert [e.kind for e in events] == ["setup"]


def test_advanced_combatants_roll_hit_points_and_specialty_dice():
    state, events = advanced_setup()
    assert (state["fighters"]["P1"]["hp"], state["fighters"]["P1"]["specialty_count"]) == (13, 2)
    assert (state["fighters"]["P2"]["hp"], state["fighters"]["P2"]["specialty_count"]) == (15, 1)
    private = [e for e in events if e.kind == "advanced-roll"]
    assert [(e.data["seat"], e.audience) for e in private] == [("P1", ("P1",)), ("P2", ("P2",))]


def test_advanced_rolls_are_secret_until_both_have_armed():
    state, events = advanced_setup()
    mine, theirs = ENGINE.view(state, "P1")["fighters"]["P1"], \
        ENGINE.view(state, "P1")["fighters"]["P2"]
    assert mine["specialty_count"] == 2 and mine["hp"] == 13
    assert "specialty_count" not in theirs and "hp" not in theirs
    assert "15" not in ENGINE.report(events, "P1")
    assert "15" in ENGINE.report(events, "P2")
    # P2's rolls changed: P1 sees nothing different
    other = ENGINE.perturb_hidden(state, "P1", lambda seq: list(seq)[0])
    assert canonical_json(ENGINE.view(other, "P1")) == canonical_json(ENGINE.view(state, "P1"))
    # after arming everything is on the table
    orders = {"P1": ENGINE.parse_orders(state, "P1", STANDARD + "\nSPECIALTY 2 STRENGTH"),
              "P2": ENGINE.parse_orders(state, "P2", "EQUIP FLAIL\nSPECIALTY EVASION")}
    state, events = ENGINE.resolve(state, orders, ScriptedRng([]))
    assert ENGINE.view(state, "P1")["fighters"]["P2"]["hp"] == 15
    assert ENGINE.view(state, None)["fighters"]["P2"]["specialty"] == ["evasion"]
    assert "| P2 | Flail | evasion | 15 |" in ENGINE.report(events, None)


def test_specialty_dice_are_thrown_after_the_basic_dice_and_count_on_a_one():
    state, _ = advanced_setup()
    orders = {"P1": ENGINE.parse_orders(state, "P1", STANDARD + "\nSPECIALTY STRENGTH PROWESS"),
              "P2": ENGINE.parse_orders(state, "P2", STANDARD + "\nSPECIALTY EVASION")}
    state, _ = ENGINE.resolve(state, orders, ScriptedRng([]))
    script = basic("P1", 2, 2, 2, 2, 2, 2) + special("P1", "strength", 1) \
        + special("P1", "prowess", 4) + basic("P2", 2, 2, 2, 2, 2, 2) \
        + special("P2", "evasion", 1)
    state, events = turn(state, script)
    assert scores_of(events, "P1")["damage"] == 1 and scores_of(events, "P1")["attack"] == 0
    assert scores_of(events, "P2")["dodge"] == 7


def test_standing_reroll_order_applies_every_turn_until_cancelled():
    state = armed(p1=STANDARD + "\nSTANDING IF ATTACK < 2 THEN REROLL")
    assert ENGINE.view(state, "P1")["fighters"]["P1"]["standing"] == [
        "IF ATTACK < 2 THEN REROLL"]
    again = basic("P1", *[2] * 6, tag="reroll")
    state, events = turn(state, P1_MAY_REROLL + again)
    assert kinds(events, "maneuver")[0]["choice"] == "reroll"
    state, events = turn(state, P1_MAY_REROLL + again)
    assert kinds(events, "maneuver")[0]["choice"] == "reroll"
    # a turn's own order comes before the standing one
    state, events = turn(state, P1_MAY_REROLL, p1="KEEP")
    assert kinds(events, "maneuver")[0]["choice"] == "keep"
    state, events = turn(state, P1_MAY_REROLL, p1="CANCEL STANDING")
    assert kinds(events, "maneuver")[0]["choice"] == "keep"
    assert state["fighters"]["P1"]["standing"] == []
    assert kinds(events, "standing") == [{"seat": "P1", "orders": []}]


def test_standing_orders_are_private():
    state = armed(p1=STANDARD + "\nSTANDING REROLL")
    assert "standing" not in ENGINE.view(state, "P2")["fighters"]["P1"]
    assert "standing" not in ENGINE.view(state, None)["fighters"]["P1"]
    assert ENGINE.view(state, "*")["fighters"]["P1"]["standing"] == ["REROLL"]


@pytest.mark.parametrize(("answer", "script", "attack"), [
    ("REROLL", basic("P1", 1, 1, 1, 1, 1, 1, tag="reroll"), 6),
    ("KEEP", [], 0),
])
def test_ask_mode_pauses_for_the_initiative_winner(answer, script, attack):
    state = armed(options={"reroll": "ask"})
    state, events = turn(state, P1_MAY_REROLL)
    assert state["phase"] == "reroll"
    assert ENGINE.decision(state).seats == ["P1"]
    assert kinds(events, "maneuver")[0]["choice"] == "asked"
    assert kinds(events, "strike") == []
    state, events = turn(state, script, p1=answer)
    assert state["phase"] == "fight" and state["pending"] is None
    assert state["last"]["scores"]["P1"]["attack"] == attack
    assert len(kinds(events, "strike")) == 2


def test_ask_mode_does_not_pause_when_orders_settle_it():
    state = armed(options={"reroll": "ask"})
    state, _ = turn(state, P1_MAY_REROLL, p1="IF ATTACK > 3 THEN REROLL ELSE KEEP")
    assert state["phase"] == "fight"


def test_a_missed_answer_keeps_the_roll():
    state = armed(options={"reroll": "ask"})
    state, _ = turn(state, P1_MAY_REROLL)
    orders = {"P1": ENGINE.default_orders(state, "P1")}
    state, events = ENGINE.resolve(state, orders, ScriptedRng([]))
    assert kinds(events, "maneuver")[0]["choice"] == "keep"


def test_the_game_ends_with_a_result_and_no_decision():
    state = armed()
    state, _ = turn(state, [], p1="YIELD")
    assert ENGINE.decision(state) is None
    assert ENGINE.result(state) == {"winners": ["P2"], "summary": "P2 wins: P1 yielded"}


def test_no_orders_after_the_end():
    from games.core.types import OrdersInvalid
    state, _ = turn(armed(), [], p1="YIELD", p2="YIELD")
    assert ENGINE.result(state)["summary"] == "both yield: a draw"
    with pytest.raises(OrdersInvalid, match="the fight is over"):
        ENGINE.parse_orders(state, "P1", "KEEP")
