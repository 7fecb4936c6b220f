"""Views, reports, board and invariants."""

from __future__ import annotations

from games.core.rng import Rng
from games.dice_age.engine import ENGINE

from .helpers import face, play, table

TWO = {"P1": {"garden": ["CASTLE", "TANK"]}, "P2": {"garden": ["SUN", "FERN"]}}


def test_standing_orders_are_seen_only_by_their_seat_and_the_gm():
    state = table(1, TWO, number=12)
    state, events = play(state, "ROLL CASTLE\nSTANDING ROLL TANK", [face("CASTLE", 5)])
    assert ENGINE.view(state, "P1")["players"]["P1"]["standing"] == ["ROLL TANK"]
    assert ENGINE.view(state, "*")["players"]["P1"]["standing"] == ["ROLL TANK"]
    assert "standing" not in ENGINE.view(state, "P2")["players"]["P1"]
    assert "standing" not in ENGINE.view(state, None)["players"]["P1"]
    assert "ROLL TANK" in ENGINE.report(events, "P1")
    assert "ROLL TANK" not in ENGINE.report(events, "P2")


def test_the_table_is_open_to_everyone():
    state = table(1, TWO, number=6)
    view = ENGINE.view(state, None)
    assert view["number"] == 6
    assert [d["die"] for d in view["players"]["P2"]["garden"]] == ["SUN", "FERN"]
    assert view["dice"]["TANK"]["faces"][-2:] == ["RADIATION", "CANNON"]


def test_report_tells_the_roll_and_the_loss():
    state = table(1, TWO, number=6)
    _, events = play(state, "ROLL TANK", [face("TANK", 12)])
    text = ENGINE.report(events, None)
    assert "P1 rolls the Tank (orange) against a Number of 6: **12**." in text
    assert "12 is above 6: P1 loses the round; Tank (orange) set aside for good." in text


def test_board_is_html_with_the_number_and_escapes_its_text():
    """HTML that wraps on a phone (games/dice_age/board.py), built from the view only."""
    state = table(3, {"P1": {"garden": ["CASTLE"], "field": ["TANK"]},
                      "P2": {"garden": ["SUN"]}}, number=6)
    view = ENGINE.view(state, "P2")
    board = ENGINE.board(view)
    assert board.startswith('<div class="board-html"') and "Number: 6" in board
    assert "TANK" in board and "<script" not in board
    view["seats"] = ["<script>"]
    assert "&lt;script&gt;" in ENGINE.board(view) and "<script>" not in ENGINE.board(view)


def test_invariants_catch_a_broken_table():
    state = table(1, TWO, number=6)
    state["dice"]["TANK"]["place"] = "field"
    assert any("field before level 3" in p for p in ENGINE.invariants(state))
    state = table(1, TWO, number=6)
    state["out"] = ["P2"]
    assert ENGINE.invariants(state)


def test_setup_is_deterministic_for_a_secret():
    a = ENGINE.setup(["P1", "P2", "P3"], {"level": 4}, Rng("s", "setup"))[0]
    b = ENGINE.setup(["P1", "P2", "P3"], {"level": 4}, Rng("s", "setup"))[0]
    assert a == b
