"""The order language: canonical text, errors with line numbers and hints."""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.duelists.engine import ENGINE

from .test_turn import standard


@pytest.mark.parametrize("seat, text, canonical", [
    ("P1", "plan flurry\nset 2", "PLAN Flurry\nSET 2"),
    ("P1", "PLAN  quick stab # comment\nif defend left then set 3 else set 1",
     "IF DEFEND LEFT THEN SET 3 ELSE SET 1"),
    ("P1", "IF GUESSES < 2 THEN SET 3 ELSE SET 1", "IF GUESSES < 2 THEN SET 3 ELSE SET 1"),
    ("P2", "defend second guess 2, 4\nabsorb hand armor,armor",
     "DEFEND SECOND GUESS 2 4\nABSORB HAND Armor, Armor"),
    ("P2", "STANDING ABSORB DECK\nEXHAUST ARMOR", "STANDING ABSORB FROM DECK\nEXHAUST ARMOR ALL"),
    ("P2", "IF DAMAGE >= 3 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK\nEND\nDEFEND LEFT",
     "IF DAMAGE >= 3 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK"),
])
def test_orders_read_into_canonical_text(seat, text, canonical):
    state = standard()
    if seat == "P1" and "PLAN" in text.upper() and "quick stab" in text:
        with pytest.raises(OrdersInvalid):  # Quick Stab is queued, not in the hand
            ENGINE.parse_orders(state, seat, text)
        text = text.replace("quick stab", "Lunge")
        canonical = "PLAN Lunge\n" + canonical
    orders = ENGINE.parse_orders(state, seat, text)
    assert orders.text == canonical
    assert ENGINE.parse_orders(state, seat, orders.text).items == orders.items


@pytest.mark.parametrize("seat, text, line, message", [
    ("P1", "PLAN Flury", 1, "no card called"),
    ("P1", "SET 5", 1, "outside this attack's range"),
    ("P1", "SET 2\nSET 3", 2, "only 1 attack"),
    ("P1", "PLAN Lunge\nPLAN Flurry", 2, "only one PLAN"),
    ("P1", "PLAN Lunge\nPLAN Lunge", 2, "PLAN Lunge repeats an earlier line"),
    ("P1", "DEFEND LEFT", 1, "not yours"),
    ("P2", "PLAN Armor", 1, "not yours"),
    ("P2", "DEFEND MIDDLE", 1, "unknown position"),
    ("P2", "DEFEND LEFT GUESS 2 2", 1, "guessed twice"),
    ("P2", "DEFEND LEFT GUESS 7", 1, "out of range"),
    ("P2", "IF DEFEND LEFT THEN ABSORB FROM DECK", 1, "only decides SET"),
    ("P2", "IF DAMAGE > 2 THEN SET 1", 1, "only decides ABSORB"),
    ("P1", "STANDING PLAN Lunge", 1, "cannot be a standing order"),
    ("P2", "EXHAUST ARMOR 3", 1, "only 2 armor"),
    ("P2", "ABSORB", 1, "ABSORB reads"),
    ("P2", "DEFNED LEFT", 1, "unknown order"),
])
def test_bad_orders_are_refused_with_line_and_reason(seat, text, line, message):
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(standard(), seat, text)
    first = exc.value.errors[0]
    assert first.line == line and message in first.message


def test_every_error_is_reported_at_once_with_hints():
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(standard(), "P2", "DEFNED LEFT\nABSORB HAND Armr\nDEFEND LEFT")
    errors = exc.value.errors
    assert [e.line for e in errors] == [1, 2]
    assert "did you mean DEFEND" in errors[0].hint
    assert "did you mean ARMOR" in errors[1].hint


def test_a_refused_line_is_not_also_listed_as_understood():
    """The page and the mail show "lines understood" beside the errors: a line the rules
    refuse (one card queued, a card not in hand) is an error, never understood too."""
    state = standard()
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", "PLAN Lunge\nSET 5")
    assert [e.line for e in exc.value.errors] == [2]
    assert exc.value.accepted == ["PLAN Lunge"]


def test_a_seat_that_owes_nothing_is_told_so():
    state = standard()
    state["awaiting"] = {"P1": "turn"}
    with pytest.raises(OrdersInvalid, match="owes no orders"):
        ENGINE.parse_orders(state, "P2", "DEFEND LEFT")


def test_prompts_offer_the_legal_choices():
    decision = ENGINE.decision(standard())
    assert decision.phase == "turn" and decision.seats == ["P1", "P2"]
    attacker, defender = decision.prompts["P1"], decision.prompts["P2"]
    assert "PLAN Flurry" in attacker["choices"] and "SET 4" in attacker["choices"]
    assert "SET 5" not in attacker["choices"]  # Quick Stab (1-4)+3
    assert any(c.startswith("DEFEND SECOND GUESS <2") for c in defender["choices"])
    assert ENGINE.parse_orders(standard(), "P1", attacker["example"]).items
    assert ENGINE.parse_orders(standard(), "P2", defender["example"]).items
