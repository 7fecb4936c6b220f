"""Building blocks for Dice Age scenarios: hand-laid tables and scripted dice."""

from __future__ import annotations

from typing import Any

from games.core.engine import REVISION
from games.core.rng import ScriptedRng
from games.core.types import Event
from games.dice_age.dice import DICE
from games.dice_age.engine import ENGINE
from games.dice_age.state import new_state


def table(level: int, layout: dict[str, dict[str, list[str]]], *, to_play: str = "P1",
          number: int | None = None, skips: dict[str, int] | None = None,
          out: list[str] | None = None, seats: list[str] | None = None,
          revision: int = ENGINE.revision) -> dict[str, Any]:
    """A state with dice laid out as {seat: {place: [dice]}}; the rest stays unowned.

    Dice not laid out go to Limbo (level 4's leftovers), so every die has a place. The
    table plays by the current rules revision unless `revision` says otherwise (1: a
    game recorded before revisions, whose state has no revision key).
    """
    seats = seats or sorted(layout)
    state = with_revision(new_state(seats, level), revision)
    for die in state["dice"]:
        state["dice"][die].update(owner=None, place="limbo")
    for seat, places in layout.items():
        for place, dice in places.items():
            for die in dice:
                state["dice"][die].update(owner=seat, place=place)
    state["number"] = number
    state["skips"].update(skips or {})
    state["out"] = list(out or [])
    state["first"] = seats[0]
    state["pending"] = {"kind": "roll", "seat": to_play}
    assert ENGINE.invariants(state) == [], ENGINE.invariants(state)
    return state


def with_revision(state: dict[str, Any], revision: int) -> dict[str, Any]:
    """The state of a game of that rules revision (1: recorded before revisions)."""
    if revision > 1:
        state[REVISION] = revision
    return state


def face(die: str, shown: Any) -> tuple[str, int]:
    """The scripted draw that makes `die` land on the side `shown`."""
    return (f"roll/{die}", DICE[die].faces.index(shown) + 1)


def play(state: dict[str, Any], text: str, script: list[Any], seat: str | None = None
         ) -> tuple[dict[str, Any], list[Event]]:
    seat = seat or state["pending"]["seat"]
    orders = {seat: ENGINE.parse_orders(state, seat, text)}
    rng = ScriptedRng(script)
    new, events = ENGINE.resolve(state, orders, rng)
    assert rng.remaining == 0, "a scripted die was not used"
    assert ENGINE.invariants(new) == [], ENGINE.invariants(new)
    return new, events


def places(state: dict[str, Any], seat: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for die, info in state["dice"].items():
        if info["owner"] == seat:
            out.setdefault(info["place"], []).append(die)
    return out


def drawn(label: str, die: str, shown: Any) -> tuple[str, int]:
    """A scripted draw for a die rolled by an effect: label "triangle", "chaos", "duel/1"."""
    return (f"{label}/{die}", DICE[die.rstrip("0123456789")].faces.index(shown) + 1)


def suspend(state: dict[str, Any], die: str, effect: str | None, uses: int = 1,
            d6: list[int] | None = None) -> dict[str, Any]:
    """Put a die of the table on its owner's Ledges with an effect to use."""
    info = state["dice"][die]
    info.update(place="field", susp={"effect": effect, "uses": uses, "d6": list(d6 or []),
                                     "roll": 0})
    if info["face"] is None:
        info["face"] = effect
    return state


def answer(state: dict[str, Any], text: str, script: list[Any] | None = None
           ) -> tuple[dict[str, Any], list[Event]]:
    """The seat that owes the pending decision answers it."""
    return play(state, text, script or [], state["pending"]["seat"])


def legion_table(layout: dict[str, dict[str, list[str]]], *, to_play: str = "P1",
                 number: int | None = None, general: dict[str, str] | None = None,
                 revision: int = ENGINE.revision) -> dict[str, Any]:
    """A level-7 table: each seat's own dice (copies named CASTLE2, ...) as laid out."""
    seats = sorted(layout)
    state = with_revision(new_state(seats, 7), revision)
    for seat, where in layout.items():
        for place, dice in where.items():
            for die in dice:
                state["dice"][die] = {"owner": seat, "place": place, "face": None,
                                      "pos": None, "susp": None}
    state["general"].update(general or {})
    state["number"] = number
    state["first"] = seats[0]
    state["pending"] = {"kind": "roll", "seat": to_play}
    assert ENGINE.invariants(state) == [], ENGINE.invariants(state)
    return state
