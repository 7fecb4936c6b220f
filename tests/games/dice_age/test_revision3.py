"""Rules revision 3, one scenario table: each row lays a table, sends orders with
scripted dice, and states what revision 3 gives and what revision 2 gave (stored games
of revision 2 replay by the old rule; test_stored_records.py replays three of them).

A row's outcome is read through the public contract only: the decision owed next (its
kind, seat and choices) and its default orders, the Number, and where the dice lie.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from games.dice_age.engine import ENGINE

from .helpers import play, suspend, table


@dataclass(frozen=True)
class Row:
    id: str
    level: int
    layout: dict[str, dict[str, list[str]]]
    turns: list[tuple[str, list[Any]]]
    revision_3: dict[str, Any]
    revision_2: dict[str, Any] | None
    number: int | None = None
    faces: dict[str, Any] = field(default_factory=dict)
    """Faces shown by dice already on the table."""
    ledges: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Dice on their owner's Ledges: die -> (effect, uses)."""
    skips: dict[str, int] = field(default_factory=dict)
    standing: dict[str, str] = field(default_factory=dict)
    """Standing orders each seat has sent before."""
    state: dict[str, Any] = field(default_factory=dict)
    """Other state keys as they stand (counters)."""


def outcome(state: dict[str, Any]) -> dict[str, Any]:
    decision = ENGINE.decision(state)
    owed = None
    if decision is not None:
        seat = decision.seats[0]
        owed = (decision.phase, seat, decision.prompts[seat]["choices"])
    where = {d: (i["owner"], i["place"]) for d, i in state["dice"].items()
             if i["place"] != "limbo"}
    default = None
    if decision is not None:
        default = ENGINE.default_orders(state, decision.seats[0]).text
    return {"owed": owed, "number": state["number"], "where": where, "default": default}


ROWS = [
    Row("the dice are walked in catalogue order: prompts, and ties (the default roll)", 5,
        {"P1": {"garden": ["STAR", "SUN"]}, "P2": {"garden": ["OAK"]}}, [],
        revision_3={"owed": ("roll", "P1", ["ROLL SUN", "ROLL STAR"]), "default": "ROLL SUN"},
        revision_2={"owed": ("roll", "P1", ["ROLL STAR", "ROLL SUN"]),
                    "default": "ROLL STAR"}),  # sorted by id: STAR before SUN
]


def _lay(row: Row, revision: int) -> dict[str, Any]:
    state = table(row.level, row.layout, number=row.number, skips=row.skips,
                  revision=revision)
    for die, shown in row.faces.items():
        state["dice"][die]["face"] = shown
    for die, (effect, uses) in row.ledges.items():
        suspend(state, die, effect, uses)
    for seat, text in row.standing.items():
        state["standing"][seat] = ENGINE.parse_orders(state, seat, text).items
    state.update(row.state)
    return state


def _play(row: Row, revision: int) -> dict[str, Any]:
    state = _lay(row, revision)
    for text, script in row.turns:
        state, _ = play(state, text, script)
    return state


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_revision_3(row: Row) -> None:
    got = outcome(_play(row, 3))
    assert {k: got[k] for k in row.revision_3} == row.revision_3


@pytest.mark.parametrize("row", [r for r in ROWS if r.revision_2 is not None],
                         ids=lambda r: r.id)
def test_revision_2_keeps_the_old_rule(row: Row) -> None:
    got = outcome(_play(row, 2))
    assert {k: got[k] for k in row.revision_2} == row.revision_2

