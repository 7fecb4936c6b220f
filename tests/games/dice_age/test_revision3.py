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

from .helpers import drawn, face, legion_table, play, suspend, table


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
    Row("a Roman numeral equalling the Number rests and may still capture", 6,
        {"P1": {"garden": ["CASTLE", "SUN"]}, "P2": {"garden": ["OAK"], "field": ["FERN"]}},
        [("ROLL CASTLE", [face("CASTLE", "VII")])],
        number=7, faces={"FERN": 7},
        revision_3={"owed": ("target", "P1", ["CAPTURE FERN", "PASS"]), "number": 7},
        revision_2={"owed": ("roll", "P2", ["ROLL FERN", "ROLL OAK"]), "number": 7}),
    Row("... and the captured die joins the roller's Valley", 6,
        {"P1": {"garden": ["CASTLE", "SUN"]}, "P2": {"garden": ["OAK"], "field": ["FERN"]}},
        [("ROLL CASTLE", [face("CASTLE", "VII")]), ("CAPTURE FERN", [])],
        number=7, faces={"FERN": 7},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]),
                    "where": {"CASTLE": ("P1", "field"), "SUN": ("P1", "garden"),
                              "FERN": ("P1", "field"), "OAK": ("P2", "garden")}},
        revision_2=None),
    Row("a Double arrow may double a Roman numeral's capture", 5,
        {"P1": {"garden": ["CASTLE"], "field": ["STAR"]},
         "P2": {"garden": ["OAK"], "field": ["FERN", "TURTLE"]}},
        [("ROLL CASTLE", [face("CASTLE", "VII")])],
        number=9, faces={"FERN": 7, "TURTLE": 7}, ledges={"STAR": ("double-arrow", 1)},
        revision_3={"owed": ("react", "P1", ["DOUBLE", "PASS"]), "number": 7},
        revision_2={"owed": ("target", "P1", ["CAPTURE FERN", "CAPTURE TURTLE", "PASS"])}),
    Row("... then it captures twice", 5,
        {"P1": {"garden": ["CASTLE"], "field": ["STAR"]},
         "P2": {"garden": ["OAK"], "field": ["FERN", "TURTLE"]}},
        [("ROLL CASTLE", [face("CASTLE", "VII")]), ("DOUBLE", []), ("CAPTURE FERN", []),
         ("CAPTURE TURTLE", [])],
        number=9, faces={"FERN": 7, "TURTLE": 7}, ledges={"STAR": ("double-arrow", 1)},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]),
                    "where": {"CASTLE": ("P1", "field"), "STAR": ("P1", "field"),
                              "FERN": ("P1", "field"), "TURTLE": ("P1", "field"),
                              "OAK": ("P2", "garden")}},
        revision_2=None),
    Row("with nothing showing its number, a Roman numeral opens no Double-arrow window", 5,
        {"P1": {"garden": ["CASTLE"], "field": ["STAR"]},
         "P2": {"garden": ["OAK"], "field": ["FERN"]}},
        [("ROLL CASTLE", [face("CASTLE", "VII")])],
        number=9, faces={"FERN": 6}, ledges={"STAR": ("double-arrow", 1)},
        revision_3={"owed": ("roll", "P2", ["ROLL FERN", "ROLL OAK"]), "number": 7},
        revision_2={"owed": ("roll", "P2", ["ROLL FERN", "ROLL OAK"]), "number": 7}),
    Row("a chaos's dice are main rolls: the roller may pair one of them (level 6)", 6,
        {"P1": {"garden": ["CASTLE", "SUN"], "wasteland": ["OAK"]},
         "P2": {"garden": ["TURTLE"]}},
        [("ROLL CASTLE", [face("CASTLE", "chaos"), drawn("chaos", "CASTLE", 5)])],
        number=9, faces={"OAK": 5},
        revision_3={"owed": ("react", "P1", ["PAIR OAK", "PASS"])},
        revision_2={"owed": ("roll", "P2", ["ROLL TURTLE"]), "number": 5}),
    Row("... the paired die comes back to the field; the chaos's number stands", 6,
        {"P1": {"garden": ["CASTLE", "SUN"], "wasteland": ["OAK"]},
         "P2": {"garden": ["TURTLE"]}},
        [("ROLL CASTLE", [face("CASTLE", "chaos"), drawn("chaos", "CASTLE", 5)]),
         ("PAIR OAK", [])],
        number=9, faces={"OAK": 5},
        revision_3={"owed": ("roll", "P2", ["ROLL TURTLE"]), "number": 5,
                    "where": {"CASTLE": ("P1", "field"), "SUN": ("P1", "garden"),
                              "OAK": ("P1", "field"), "TURTLE": ("P2", "garden")}},
        revision_2=None),
    Row("radiation with copies only other players hold: the roller chooses (level 7)", 7,
        {"P1": {"garden": ["TANK", "FERN"]}, "P2": {"garden": ["OAK"], "wasteland": ["MINE"]},
         "P3": {"garden": ["LILY"], "wasteland": ["MINE2"]}},
        [("ROLL TANK", [face("TANK", "radiation")]), ("RADIATION ORANGE", [])],
        revision_3={"owed": ("target", "P1", ["PICK MINE", "PICK MINE2"]),
                    "default": "PICK MINE"},  # the first clockwise, revision 2's choice
        revision_2={"owed": ("roll", "P2", ["ROLL MINE", "ROLL OAK"]),
                    "where": {"TANK": ("P1", "field"), "FERN": ("P1", "garden"),
                              "OAK": ("P2", "garden"), "MINE": ("P2", "field"),
                              "LILY": ("P3", "garden"), "MINE2": ("P3", "wasteland")}}),
    Row("... the chosen copy comes back, the other stays in its wasteland", 7,
        {"P1": {"garden": ["TANK", "FERN"]}, "P2": {"garden": ["OAK"], "wasteland": ["MINE"]},
         "P3": {"garden": ["LILY"], "wasteland": ["MINE2"]}},
        [("ROLL TANK", [face("TANK", "radiation")]), ("RADIATION ORANGE", []),
         ("PICK MINE2", [])],
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]),
                    "where": {"TANK": ("P1", "field"), "FERN": ("P1", "garden"),
                              "OAK": ("P2", "garden"), "MINE": ("P2", "wasteland"),
                              "LILY": ("P3", "garden"), "MINE2": ("P3", "field")}},
        revision_2=None),
    Row("... his own copy comes back first, with no choice", 7,
        {"P1": {"garden": ["TANK", "FERN"], "wasteland": ["MINE3"]},
         "P2": {"garden": ["OAK"], "wasteland": ["MINE"]},
         "P3": {"garden": ["LILY"], "wasteland": ["MINE2"]}},
        [("ROLL TANK", [face("TANK", "radiation")]), ("RADIATION ORANGE", [])],
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]),
                    "where": {"TANK": ("P1", "field"), "FERN": ("P1", "garden"),
                              "MINE3": ("P1", "field"), "OAK": ("P2", "garden"),
                              "MINE": ("P2", "wasteland"), "LILY": ("P3", "garden"),
                              "MINE2": ("P3", "wasteland")}},
        revision_2={"owed": ("roll", "P2", ["ROLL OAK"])}),
    Row("per un pugno di dadi: a turn begun with a standing Square counts once", 6,
        {"P1": {"field": ["ROCKET"]}, "P2": {"field": ["FERN"]}},
        [("ROLL ROCKET", [face("ROCKET", 10)])],
        faces={"ROCKET": 12}, ledges={"FERN": ("square", 1)},
        standing={"P2": "STANDING SQUARE P2 FERN"}, state={"pugno": 3},
        revision_3={"owed": ("roll", "P2", ["ROLL FERN"])},  # the fourth turn is played
        revision_2={"owed": None}),  # counted twice: decided before P2 could roll
]


def _lay(row: Row, revision: int) -> dict[str, Any]:
    if row.level == 7:
        state = legion_table(row.layout, number=row.number, revision=revision)
        state["skips"].update(row.skips)
    else:
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

