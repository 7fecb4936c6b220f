"""The order language: canonical text, every error with its line and a hint."""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.dungeonquest.engine import ENGINE

from .helpers import make_state


@pytest.mark.parametrize("text, canonical", [
    ("move north", "MOVE NORTH"),
    ("MOVE E S", "MOVE EAST SOUTH"),
    ("move to f7", "MOVE TO F7"),
    ("SEARCH THEN EAST", "SEARCH THEN EAST"),
    ("search crypt", "SEARCH CRYPT"),
    ("search then g7", "SEARCH THEN G7"),
    ("search corpse", "SEARCH BODY"),
    ("loot", "STAY"),
    ("retreat", "RETREAT"),
    ("destination g7", "DESTINATION G7"),
    ("drink potion", "DRINK POTION"),
    ("use ring of healing", "USE RING OF HEALING"),
    ("if monster troll then escape else attack", "IF MONSTER TROLL THEN ESCAPE ELSE ATTACK"),
    ("IF MONSTER DEATH WARRIOR THEN ESCAPE", "IF MONSTER DEATH-WARRIOR THEN ESCAPE"),
    ("if life < 5 then use ring of healing", "IF LIFE < 5 THEN USE RING OF HEALING"),
    ("if trap then use ring of healing", "IF TRAP THEN USE RING OF HEALING"),
    ("if tile pit then search then north", "IF TILE PIT THEN SEARCH THEN NORTH"),
    ("standing if monster then attack", "STANDING IF MONSTER THEN ATTACK"),
    ("cancel standing 2", "CANCEL STANDING 2"),
])
def test_orders_read_back_canonically(text, canonical):
    st = make_state()
    orders = ENGINE.parse_orders(st, "P1", text)
    assert orders.text == canonical
    again = ENGINE.parse_orders(st, "P1", orders.text)
    assert again.items == orders.items


def test_every_error_is_reported_with_its_line_and_a_hint():
    st = make_state()
    text = "MOVE NORHT\nATTACK\nMOVE TO Z9\nSHOOT\nUSE RING OF BLINDING\nIF DRAGON THEN ATTACK\nFOO"
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(st, "P1", text)
    errors = {e.line: e for e in exc.value.errors}
    assert set(errors) == {1, 3, 4, 5, 6, 7}
    assert "NORTH" in errors[1].hint
    assert "ranger" in errors[4].message
    assert "Ring of Healing" in errors[5].hint
    assert "did you mean" in errors[7].hint or "expected" in errors[7].hint
    assert exc.value.accepted == ["ATTACK"]


def test_standing_orders_are_kept_until_cancelled():
    from .helpers import run, stack, stack_tiles
    st = make_state()
    stack_tiles(st, "room-cross")
    stack(st, "room", "monster:orc")
    new, _ = run(st, {"P1": "STANDING IF MONSTER THEN ATTACK\nMOVE EAST"},
                 [("reaction/P1", 6)])
    assert new["chars"]["P1"]["standing"] == [
        {"if": {"test": "event", "on": "monster", "text": "MONSTER"},
         "then": {"op": "attack"}, "else": None}]
    assert new["chars"]["P1"]["pending"] is None
    cancelled, _ = run(new, {"P1": "CANCEL STANDING"}, [])
    assert cancelled["chars"]["P1"]["standing"] == []


def test_conditional_destination_by_turn():
    from .helpers import run
    st = make_state()
    st["turn"] = 20
    new, _ = run(st, {"P1": "IF TURN > 18 THEN DESTINATION A1 ELSE DESTINATION E7\nSTAY"}, [])
    assert new["chars"]["P1"]["destination"] == "A1"


def test_default_orders_are_marked_and_parse_back():
    st = make_state()
    st["chars"]["P1"]["destination"] = "E7"
    orders = ENGINE.default_orders(st, "P1")
    assert orders.default and orders.text == "MOVE TO E7"
    assert ENGINE.parse_orders(st, "P1", orders.text).items == orders.items
