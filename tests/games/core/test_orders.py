"""The shared order language, as a scenario table."""

from __future__ import annotations

import pytest

from games.core.orders import (
    Grammar,
    OrderSyntax,
    choose,
    expect_int,
    merge_standing,
    order_lines,
    parse_comparison,
    suggest,
)
from games.core.types import OrdersInvalid


def _move(tokens, ctx):
    if len(tokens) != 1:
        raise OrderSyntax("MOVE needs one direction", "e.g. MOVE NORTH")
    from games.core.orders import expect_word
    return {"op": "move", "dir": expect_word(tokens[0], ["NORTH", "SOUTH"], "direction")}


def _roll(tokens, ctx):
    return {"op": "reroll"}


GRAMMAR = Grammar({"MOVE": _move, "REROLL": _roll, "WAIT": lambda t, c: {"op": "wait"}},
                  condition=lambda toks, ctx: parse_comparison(toks, ["ATTACK", "LIFE"]))


@pytest.mark.parametrize("text,expected", [
    ("move north", ["MOVE NORTH"]),
    ("  MoVe   South  # go home\n\n", ["MOVE SOUTH"]),
    ("# only a comment", []),
    ("move north\nEND\nmove south", ["MOVE NORTH"]),
    ("move north\n-- \nJane", ["MOVE NORTH"]),
    ("move north\n\nOn Tue, 3 Jan 2026, GM wrote:\n> move south", ["MOVE NORTH"]),
    ("wait\n> quoted reply\nmove north", ["WAIT"]),
    ("IF attack < 2 THEN reroll", ["IF ATTACK < 2 THEN REROLL"]),
    ("if LIFE >= 5 then move north else wait", ["IF LIFE >= 5 THEN MOVE NORTH ELSE WAIT"]),
    ("standing if attack<2 then reroll", ["STANDING IF ATTACK < 2 THEN REROLL"]),
    ("cancel standing", ["CANCEL STANDING"]),
    ("CANCEL STANDING 2", ["CANCEL STANDING 2"]),
])
def test_parse_table(text, expected):
    _, lines = GRAMMAR.parse(text)
    assert lines == expected


@pytest.mark.parametrize("text,line,message,hint", [
    ("mvoe north", 1, "unknown order 'mvoe'", "did you mean MOVE?"),
    ("wait\nmove west", 2, "unknown direction 'west'", "expected one of: NORTH, SOUTH"),
    ("move", 1, "MOVE needs one direction", "e.g. MOVE NORTH"),
    ("if attack < 2 reroll", 1, "a conditional order reads IF <condition> THEN <order>",
     "add THEN and the order to carry out"),
    ("if atack < 2 then reroll", 1, "unknown condition 'atack'", "did you mean ATTACK?"),
    ("standing", 1, "STANDING needs an order after it", "e.g. STANDING MOVE"),
    ("cancel standing x", 1, "standing order number must be a number, not 'x'", ""),
])
def test_error_table(text, line, message, hint):
    with pytest.raises(OrdersInvalid) as exc:
        GRAMMAR.parse(text)
    err = exc.value.errors[0]
    assert (err.line, err.message, err.hint) == (line, message, hint)


def test_every_error_is_reported_and_the_good_lines_kept():
    with pytest.raises(OrdersInvalid) as exc:
        GRAMMAR.parse("move north\nfly\nwait\nmove up")
    assert [e.line for e in exc.value.errors] == [2, 4]
    assert exc.value.accepted == ["MOVE NORTH", "WAIT"]


def test_choose_and_standing():
    items, _ = GRAMMAR.parse("IF ATTACK < 2 THEN REROLL ELSE WAIT")
    test = lambda cond: cond["value"] > 1  # noqa: E731
    assert choose(items[0], test) == {"op": "reroll"}
    assert choose(items[0], lambda c: False) == {"op": "wait"}
    standing, turn = merge_standing([], GRAMMAR.parse("standing wait\nmove north")[0])
    assert standing == [{"order": {"op": "wait"}}]
    assert turn == [{"order": {"op": "move", "dir": "NORTH"}}, {"order": {"op": "wait"}}]
    standing, turn = merge_standing(standing, GRAMMAR.parse("cancel standing")[0])
    assert standing == [] and turn == []


def test_helpers():
    assert [ln.number for ln in order_lines("a\n\n# x\nb")] == [1, 4]
    assert suggest("nroth", ["north", "south"]) == "did you mean NORTH?"
    assert expect_int("3", "n", 1, 6) == 3
    with pytest.raises(OrderSyntax, match="out of range"):
        expect_int("9", "n", 1, 6)


@pytest.mark.parametrize("names, hint", [
    (["LIFE", "TREASURE"], "write e.g. LIFE < 2"),
    (["ATTACK", "LIFE"], "write e.g. ATTACK < 2"),
    ([], "write <NAME> <op> <number>"),
])
def test_a_comparison_hint_names_only_the_games_own_words(names, hint):
    """A game's hint must never name another game's order (issue 12)."""
    with pytest.raises(OrderSyntax) as err:
        parse_comparison(["LIFE", "<", "5", "AND", "MONSTER"], names)
    assert err.value.hint == hint
