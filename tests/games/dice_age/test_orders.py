"""The order language: what is accepted, how errors read, what defaults do."""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.dice_age.engine import ENGINE

from .helpers import face, play, table

TWO = {"P1": {"garden": ["CASTLE", "TANK"], "wasteland": ["MINE"]},
       "P2": {"garden": ["SUN", "FERN"]}}

# (text, line of the error, words in the message, words in the hint)
BAD = [
    ("ROLL", 1, "exactly one die", "ROLL CASTLE"),
    ("ROLL TANC", 1, "unknown die", "did you mean TANK?"),
    ("ROL TANK", 1, "unknown order", "did you mean ROLL?"),
    ("# my turn\nROLL SUN", 2, "not one of the dice you can roll", "ROLL CASTLE"),
    ("ROLL MINE", 1, "not one of the dice you can roll", "ROLL TANK"),
    ("PICK TANK", 1, "does not answer this decision", "ROLL CASTLE"),
    ("IF NUMBER < 5 THEN ROLL CASTLE ELSE ROLL SUN", 1, "not one of the dice", ""),
    ("IF SCORE < 5 THEN ROLL CASTLE", 1, "unknown condition", "NUMBER"),
    ("IF NUMBER < 5 ROLL CASTLE", 1, "IF <condition> THEN", "THEN"),
    ("SKIP", 1, "does not answer", ""),
]


@pytest.mark.parametrize("text,line,message,hint", BAD, ids=[b[0] for b in BAD])
def test_errors_name_the_line_and_hint(text, line, message, hint):
    state = table(1, TWO, number=8)
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", text)
    err = exc.value.errors[0]
    assert err.line == line
    assert message in err.message
    assert hint in err.hint


def test_every_error_is_reported_with_its_line():
    state = table(1, TWO, number=8)
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", "ROL TANK\nROLL\nROLL CASTLE\n\nROLL SUN")
    assert [e.line for e in exc.value.errors] == [1, 2, 5]
    assert exc.value.accepted == ["ROLL CASTLE"]


def test_canonical_text_and_case():
    state = table(1, TWO, number=8)
    orders = ENGINE.parse_orders(state, "P1", "  roll   castle  # safe\nEND\nROLL TANK")
    assert orders.text == "ROLL CASTLE"


# (Number, order, die expected to be rolled)
CONDITIONS = [
    (8, "IF NUMBER < 10 THEN ROLL CASTLE ELSE ROLL TANK", "CASTLE"),
    (None, "IF NUMBER < 10 THEN ROLL CASTLE ELSE ROLL TANK", "TANK"),  # no Number reads 99
    (8, "IF WASTELAND >= 1 THEN ROLL TANK ELSE ROLL CASTLE", "TANK"),
    (8, "IF DICE > 2 THEN ROLL TANK\nROLL CASTLE", "CASTLE"),  # falls through to line 2
]


@pytest.mark.parametrize("number,text,rolled", CONDITIONS)
def test_conditions_choose_the_die(number, text, rolled):
    state = table(1, TWO, number=number)
    new, events = play(state, text, [face(rolled, DICE_FACE[rolled])])
    assert next(e for e in events if e.kind == "roll").data["die"] == rolled


DICE_FACE = {"CASTLE": 1, "TANK": 9}


def test_default_rolls_the_lowest_average_die():
    state = table(1, TWO, number=8)
    orders = ENGINE.default_orders(state, "P1")
    assert orders.default and orders.text == "ROLL CASTLE"


def test_standing_roll_plays_for_the_seat_and_can_be_cancelled():
    state = table(1, TWO, number=12)
    state, _ = play(state, "ROLL CASTLE\nSTANDING ROLL TANK", [face("CASTLE", 5)])
    assert state["pending"]["seat"] == "P2"
    # P2 rolls; P1's standing order rolls the tank at once, without asking P1.
    state, events = play(state, "ROLL FERN", [face("FERN", 4), face("TANK", 9)])
    assert state["pending"] == {"kind": "roll", "seat": "P1"}  # lost the tank, plays again
    assert ENGINE.report(events, "P1").count("standing order") == 1
    assert "standing order" not in ENGINE.report(events, "P2")
    state, _ = play(state, "CANCEL STANDING\nROLL CASTLE", [face("CASTLE", 1)])
    assert state["standing"]["P1"] == []
