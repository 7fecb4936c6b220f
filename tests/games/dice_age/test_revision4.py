"""Rules revision 4, one scenario table: each row lays a table, sends orders with
scripted dice, and states what revision 4 gives and what revision 3 gave (games of
revisions 1-3 replay by the old rules: test_stored_records.py).

The rows are the readings the rules audit left open, each decided against the rulebook
(the game's README, "Our readings", says why):

* the never-twice bar after a triangle and after a chaos: every die used in a main roll
  is barred from the roller's next main roll, the kept triangle result and each die whose
  result a chaos counted as well as the die he rolled (revision 3 barred that die only);
* a triangle thrown within a chaos is no main roll of its own: its kept result joins the
  chaos's (revision 3 settled it as a main roll, then the chaos's own number against it);
* a Pair after a triangle (level 6): any die of each triangle throw may be matched
  (revision 3: only the kept result);
* doubling a played Square: playing it is an effect, which a Double arrow may double
  (revision 3: only a Square doubled when rolled had two uses);
* rows where both revisions agree pin readings checked unchanged: a die resting between
  two sides in a triangle throw or a chaos is read before the result is used, and a
  General lost in an overshoot cannot send another die in its place.

A row's outcome is read through the public contract: the decision owed next (kind, seat,
choices), its default orders, the Number, where the dice lie and what the Ledges hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from games.core.types import OrdersInvalid
from games.dice_age.engine import ENGINE

from .helpers import drawn, face, legion_table, play, suspend, table


@dataclass(frozen=True)
class Row:
    id: str
    level: int
    layout: dict[str, dict[str, list[str]]]
    turns: list[tuple[str, list[Any]]]
    revision_4: dict[str, Any]
    revision_3: dict[str, Any] | None
    """What revision 3 gave (None: the row plays on from a revision-4 outcome only)."""
    number: int | None = None
    faces: dict[str, Any] = field(default_factory=dict)
    ledges: dict[str, tuple[str, int]] = field(default_factory=dict)
    skips: dict[str, int] = field(default_factory=dict)
    general: dict[str, str] = field(default_factory=dict)


def outcome(state: dict[str, Any]) -> dict[str, Any]:
    decision = ENGINE.decision(state)
    owed = default = None
    if decision is not None:
        seat = decision.seats[0]
        owed = (decision.phase, seat, decision.prompts[seat]["choices"])
        default = ENGINE.default_orders(state, seat).text
    where = {d: (i["owner"], i["place"]) for d, i in state["dice"].items()
             if i["place"] != "limbo"}
    ledges = {d: (i["susp"]["effect"], i["susp"]["uses"]) for d, i in state["dice"].items()
              if i.get("susp")}
    return {"owed": owed, "default": default, "number": state["number"], "where": where,
            "ledges": ledges, "winner": state["winner"]}


TRIANGLE = [("ROLL PYRAMID", [face("PYRAMID", "triangle")]),
            ("TRIANGLE MOSS", [drawn("triangle", "PYRAMID", 10), drawn("triangle", "MOSS", 3)])]
"""P1 rolls the Pyramid's triangle and adds the Moss: Pyramid 10, Moss 3."""
CHAOS_TRIANGLE = [("ROLL CASTLE", [face("CASTLE", "chaos"), drawn("chaos", "SUN", 7),
                                   drawn("chaos", "PYRAMID", "triangle"),
                                   drawn("chaos", "CASTLE", 5)]),
                  ("TRIANGLE MOSS", [drawn("triangle", "PYRAMID", 10),
                                     drawn("triangle", "MOSS", 3)])]
"""P1's chaos throws Sun 7, Pyramid triangle, Castle 5; the triangle adds the Moss:
Pyramid 10, Moss 3."""

ROWS = [
    # -- (a) the never-twice bar after a triangle or a chaos ---------------------------
    Row("the bar after a triangle: the kept result is barred as well as the die rolled", 5,
        {"P1": {"garden": ["PYRAMID", "MOSS", "SUN"]}, "P2": {"garden": ["OAK"]}},
        [*TRIANGLE, ("KEEP MOSS", [])],
        number=12, skips={"P2": 1},  # P2 misses his turn: P1 rolls again at once
        revision_4={"owed": ("roll", "P1", ["ROLL SUN"]), "number": 3},
        revision_3={"owed": ("roll", "P1", ["ROLL SUN", "ROLL MOSS"]), "number": 3}),
    Row("the bar after a chaos: the die showing its number and each die whose effect took "
        "place are barred", 5,
        {"P1": {"garden": ["CASTLE", "MOSS"], "field": ["SUN", "TURTLE"]},
         "P2": {"garden": ["OAK"]}},
        [("ROLL CASTLE", [face("CASTLE", "chaos"), drawn("chaos", "SUN", 7),
                          drawn("chaos", "TURTLE", "blank"), drawn("chaos", "CASTLE", 5)]),
         ("SKIP P2", [])],  # the chaos's blank: P2 misses his turn, P1 rolls again
        number=12,
        revision_4={"owed": ("roll", "P1", ["ROLL SUN", "ROLL MOSS"]), "number": 5},
        revision_3={"owed": ("roll", "P1", ["ROLL SUN", "ROLL TURTLE", "ROLL MOSS"]),
                    "number": 5}),
    # -- a triangle within a chaos ------------------------------------------------------
    Row("a triangle within a chaos: its kept number joins the chaos's, the lowest counts", 5,
        {"P1": {"garden": ["CASTLE", "MOSS"], "field": ["PYRAMID", "SUN"]},
         "P2": {"garden": ["OAK"]}},
        [*CHAOS_TRIANGLE, ("KEEP MOSS", [])],
        number=12,
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 3, "winner": None},
        # revision 3: the Moss's 3 became the Number, then the chaos's 5 overshot it and
        # P1, his whole field lost, could not play
        revision_3={"owed": None, "winner": "P2"}),
    Row("... a kept number above the chaos's lowest is discarded", 5,
        {"P1": {"garden": ["CASTLE", "MOSS"], "field": ["PYRAMID", "SUN"]},
         "P2": {"garden": ["OAK"]}},
        [*CHAOS_TRIANGLE, ("KEEP PYRAMID", [])],
        number=12,
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 5},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 5}),  # 10, then 5
    # -- (b) a Pair after a triangle (level 6) -------------------------------------------
    Row("a Pair after a triangle throw: any die it threw may be matched", 6,
        {"P1": {"garden": ["PYRAMID", "MOSS", "SUN"], "wasteland": ["TURTLE"]},
         "P2": {"garden": ["OAK"]}},
        TRIANGLE, number=12, faces={"TURTLE": 3},
        revision_4={"owed": ("react", "P1", ["PAIR TURTLE", "PASS"])},
        revision_3={"owed": ("triangle", "P1", ["KEEP PYRAMID", "KEEP MOSS"])}),
    Row("... the paired die comes back before the result is kept", 6,
        {"P1": {"garden": ["PYRAMID", "MOSS", "SUN"], "wasteland": ["TURTLE"]},
         "P2": {"garden": ["OAK"]}},
        [*TRIANGLE, ("PAIR TURTLE", []), ("KEEP PYRAMID", [])],
        number=12, faces={"TURTLE": 3},
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 10,
                    "where": {"PYRAMID": ("P1", "field"), "MOSS": ("P1", "field"),
                              "SUN": ("P1", "garden"), "TURTLE": ("P1", "field"),
                              "OAK": ("P2", "garden")}},
        revision_3=None),
    Row("... let pass, the kept result is not offered again", 6,
        {"P1": {"garden": ["PYRAMID", "MOSS", "SUN"], "wasteland": ["TURTLE"]},
         "P2": {"garden": ["OAK"]}},
        [*TRIANGLE, ("PASS", []), ("KEEP MOSS", [])],
        number=12, faces={"TURTLE": 3},
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 3},
        revision_3=None),
    Row("... a kept result the Pair could always match (revision 3 asked only then)", 6,
        {"P1": {"garden": ["PYRAMID", "MOSS", "SUN"], "wasteland": ["TURTLE"]},
         "P2": {"garden": ["OAK"]}},
        [*TRIANGLE[:1], ("TRIANGLE MOSS", [drawn("triangle", "PYRAMID", 10),
                                           drawn("triangle", "MOSS", 3)])],
        number=12, faces={"TURTLE": 10},
        revision_4={"owed": ("react", "P1", ["PAIR TURTLE", "PASS"])},
        revision_3={"owed": ("triangle", "P1", ["KEEP PYRAMID", "KEEP MOSS"])}),
    # -- (c) doubling a played Square -----------------------------------------------------
    Row("a Square played is an effect: a Double arrow may double it", 5,
        {"P1": {"garden": ["SUN"], "field": ["FERN", "STAR"]},
         "P2": {"garden": ["OAK", "TURTLE"]}},
        [("ROLL SUN\nSQUARE P2 OAK", [face("SUN", 7)])],
        number=12, ledges={"FERN": ("square", 1), "STAR": ("double-arrow", 1)},
        revision_4={"owed": ("react", "P1", ["DOUBLE", "PASS"])},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]),
                    "ledges": {"STAR": ("double-arrow", 1)}}),
    Row("... doubled, the Square names P2's die and keeps a second use", 5,
        {"P1": {"garden": ["SUN"], "field": ["FERN", "STAR"]},
         "P2": {"garden": ["OAK", "TURTLE"]}},
        [("ROLL SUN\nSQUARE P2 OAK", [face("SUN", 7)]), ("DOUBLE", [])],
        number=12, ledges={"FERN": ("square", 1), "STAR": ("double-arrow", 1)},
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "ledges": {"FERN": ("square", 1)}},
        revision_3=None),
    Row("... an opponent's Double arrow may double it too", 5,
        {"P1": {"garden": ["SUN"], "field": ["FERN"]},
         "P2": {"garden": ["OAK", "TURTLE"], "field": ["STAR"]}},
        [("ROLL SUN\nSQUARE P2 OAK", [face("SUN", 7)])],
        number=12, ledges={"FERN": ("square", 1), "STAR": ("double-arrow", 1)},
        revision_4={"owed": ("react", "P2", ["DOUBLE", "PASS"])},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]), "ledges": {"STAR": ("double-arrow", 1)}}),
    Row("... let pass, the Square is spent", 5,
        {"P1": {"garden": ["SUN"], "field": ["FERN", "STAR"]},
         "P2": {"garden": ["OAK", "TURTLE"]}},
        [("ROLL SUN\nSQUARE P2 OAK", [face("SUN", 7)]), ("PASS", [])],
        number=12, ledges={"FERN": ("square", 1), "STAR": ("double-arrow", 1)},
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]),
                    "ledges": {"STAR": ("double-arrow", 1)}},
        revision_3=None),
    Row("a window set aside while a Square plays is asked again as it stands: the Double "
        "arrow spent on the Square leaves none for the effect", 5,
        {"P1": {"garden": ["STAR"], "field": ["FERN"]}, "P2": {"garden": ["OAK", "TURTLE"]}},
        [("ROLL STAR\nSQUARE P2 OAK", [face("STAR", "double-arrow")])],
        number=12, ledges={"FERN": ("square", 1)},
        revision_4={"owed": ("react", "P1", ["DOUBLE", "PASS"])},  # for the Square
        revision_3={"owed": ("react", "P1", ["DOUBLE", "PASS"]),  # for its own roll
                    "ledges": {"STAR": ("double-arrow", 1)}}),
    Row("... doubled, the Square keeps a use, and the Double arrow's own window is closed", 5,
        {"P1": {"garden": ["STAR"], "field": ["FERN"]}, "P2": {"garden": ["OAK", "TURTLE"]}},
        [("ROLL STAR\nSQUARE P2 OAK", [face("STAR", "double-arrow")]), ("DOUBLE", [])],
        number=12, ledges={"FERN": ("square", 1)},
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "ledges": {"FERN": ("square", 1)}},
        revision_3=None),
    Row("a Nut spent on the Square leaves none for the pit it was first asked about", 5,
        {"P1": {"garden": ["LILY"], "field": ["MOSS"]},
         "P2": {"garden": ["OAK"], "field": ["FERN", "CONJURER"]}},
        [("ROLL LILY", [face("LILY", "pit")]), ("PIT FERN\nSQUARE P2 OAK", []), ("NUT", [])],
        number=12, ledges={"MOSS": ("square", 1), "CONJURER": ("nut", 1)},
        revision_4={"owed": ("roll", "P2", ["ROLL OAK", "ROLL CONJURER"]),
                    "where": {"LILY": ("P1", "field"), "MOSS": ("P1", "field"),
                              "OAK": ("P2", "garden"), "FERN": ("P2", "wasteland"),
                              "CONJURER": ("P2", "field")}},
        revision_3={"owed": ("react", "P2", ["NUT", "PASS"])}),  # asked with no Nut left
    # -- readings checked, unchanged ------------------------------------------------------
    Row("a die resting between two sides in a triangle throw is read before the keep", 5,
        {"P1": {"garden": ["PYRAMID", "UFO"]}, "P2": {"garden": ["OAK"]}},
        [("ROLL PYRAMID", [face("PYRAMID", "triangle")]),
         ("TRIANGLE UFO", [drawn("triangle", "PYRAMID", 8),
                           drawn("triangle", "UFO", "10|double-arrow")])],
        number=12,
        revision_4={"owed": ("read", "P1", ["READ 10", "READ DOUBLE-ARROW"])},
        revision_3={"owed": ("read", "P1", ["READ 10", "READ DOUBLE-ARROW"])}),
    Row("... read as an effect and kept, it takes effect as the main roll", 5,
        {"P1": {"garden": ["PYRAMID", "UFO"]}, "P2": {"garden": ["OAK"]}},
        [("ROLL PYRAMID", [face("PYRAMID", "triangle")]),
         ("TRIANGLE UFO", [drawn("triangle", "PYRAMID", 8),
                           drawn("triangle", "UFO", "10|double-arrow")]),
         ("READ DOUBLE-ARROW", []), ("KEEP UFO", []), ("PASS", [])],
        number=12,
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 12,
                    "ledges": {"UFO": ("double-arrow", 1)}},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 12,
                    "ledges": {"UFO": ("double-arrow", 1)}}),
    Row("a die resting between two sides in a chaos is read before the lowest is taken", 5,
        {"P1": {"garden": ["CASTLE"], "field": ["SUN", "HYDRA"]}, "P2": {"garden": ["OAK"]}},
        [("ROLL CASTLE", [face("CASTLE", "chaos"), drawn("chaos", "SUN", 7),
                          drawn("chaos", "CASTLE", 5), drawn("chaos", "HYDRA", "2|3")]),
         ("READ 2", [])],
        number=12,
        revision_4={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 2},
        revision_3={"owed": ("roll", "P2", ["ROLL OAK"]), "number": 2}),
    Row("(d) a General in an overshooting field goes with it: nothing can go in its place", 7,
        {"P1": {"garden": ["ROCKET", "BARREL"], "field": ["TANK", "MINE"]},
         "P2": {"garden": ["OAK"]}},
        [("ROLL ROCKET", [face("ROCKET", 10)])],
        number=5, general={"P1": "TANK"},
        revision_4={"owed": ("roll", "P1", ["ROLL BARREL"]), "number": None,
                    "where": {"ROCKET": ("P1", "wasteland"), "BARREL": ("P1", "garden"),
                              "TANK": ("P1", "wasteland"), "MINE": ("P1", "wasteland"),
                              "OAK": ("P2", "garden")}},
        revision_3={"owed": ("roll", "P1", ["ROLL BARREL"]), "number": None}),
    Row("... the same when the General itself overshoots", 7,
        {"P1": {"garden": ["TANK", "BARREL"], "field": ["MINE"]}, "P2": {"garden": ["OAK"]}},
        [("ROLL TANK", [face("TANK", 12)])],
        number=5, general={"P1": "TANK"},
        revision_4={"owed": ("roll", "P1", ["ROLL BARREL"]),
                    "where": {"TANK": ("P1", "wasteland"), "BARREL": ("P1", "garden"),
                              "MINE": ("P1", "wasteland"), "OAK": ("P2", "garden")}},
        revision_3={"owed": ("roll", "P1", ["ROLL BARREL"])}),
]


def _lay(row: Row, revision: int) -> dict[str, Any]:
    if row.level == 7:
        state = legion_table(row.layout, number=row.number, general=row.general,
                             revision=revision)
        state["skips"].update(row.skips)
    else:
        state = table(row.level, row.layout, number=row.number, skips=row.skips,
                      revision=revision)
    for die, shown in row.faces.items():
        state["dice"][die]["face"] = shown
    for die, (effect, uses) in row.ledges.items():
        suspend(state, die, effect, uses)
    return state


def _play(row: Row, revision: int) -> dict[str, Any]:
    state = _lay(row, revision)
    for text, script in row.turns:
        state, _ = play(state, text, script)
    return state


def test_revision_4_is_current() -> None:
    assert ENGINE.revision == 4 and 4 in ENGINE.revisions


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_revision_4(row: Row) -> None:
    got = outcome(_play(row, 4))
    assert {k: got[k] for k in row.revision_4} == row.revision_4


@pytest.mark.parametrize("row", [r for r in ROWS if r.revision_3 is not None],
                         ids=lambda r: r.id)
def test_revision_3_keeps_the_old_rule(row: Row) -> None:
    got = outcome(_play(row, 3))
    assert {k: got[k] for k in row.revision_3} == row.revision_3


@pytest.mark.parametrize("revision", [3, 4])
def test_a_square_may_not_name_a_die_the_chaos_barred(revision: int) -> None:
    """A Square may not name a die barred for its target: from revision 4 every die his
    last turn used in a main roll, here the die whose blank the chaos applied (Turtle)."""
    state = _lay(Row("", 5, {"P1": {"garden": ["CASTLE", "MOSS"], "field": ["SUN", "TURTLE"]},
                             "P2": {"garden": ["OAK"]}}, [], {}, None, number=12,
                     ledges={"FERN": ("square", 1)}), revision)
    state["dice"]["FERN"]["owner"] = "P1"
    state, _ = play(state, "ROLL CASTLE", [
        face("CASTLE", "chaos"), drawn("chaos", "SUN", 7), drawn("chaos", "TURTLE", "blank"),
        drawn("chaos", "CASTLE", 5)])
    if revision == 3:
        ENGINE.parse_orders(state, "P1", "SKIP P2\nSQUARE P1 TURTLE")
        return
    with pytest.raises(OrdersInvalid, match="P1 just played TURTLE"):
        ENGINE.parse_orders(state, "P1", "SKIP P2\nSQUARE P1 TURTLE")


def test_a_stale_window_of_revision_3_answered_with_a_spent_die_is_no_reaction() -> None:
    """Revision 3 asks a window set aside by a Square as it was, so it may offer a Nut
    the Square's own window spent; answering NUT crashed (an IndexError), so no stored
    game went past it: it now counts as no reaction, and the pit hits."""
    row = next(r for r in ROWS if r.id.startswith("a Nut spent on the Square"))
    state = _play(row, 3)
    state, events = play(state, "NUT", [])
    assert [e.kind for e in events][:2] == ["no-reaction", "pit"]
    assert state["dice"]["FERN"]["place"] == "wasteland"
