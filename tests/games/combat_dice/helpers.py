"""Building blocks for Combat Dice scenario tests: armed states and scripted turns."""

from __future__ import annotations

from typing import Any

from games.combat_dice.engine import ENGINE
from games.core.engine import REVISION
from games.core.rng import ScriptedRng
from games.core.types import Event

STANDARD = "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR"


def basic(seat: str, *faces: int, tag: str = "roll") -> list[tuple[str, int]]:
    """Scripted basic dice for `seat`, each checked against its draw label."""
    return [(f"{tag}/{seat}/basic", f) for f in faces]


def special(seat: str, kind: str, face: int, tag: str = "roll") -> list[tuple[str, int]]:
    return [(f"{tag}/{seat}/{kind}", face)]


def crit(attacker: str, a: int, b: int) -> list[tuple[str, int]]:
    return [(f"critical/{attacker}/damage-dice", a), (f"critical/{attacker}/damage-dice", b)]


def armed(p1: str = STANDARD, p2: str = STANDARD, *, options: dict[str, Any] | None = None,
          setup_dice: list[int] | None = None, revision: int = ENGINE.revision
          ) -> dict[str, Any]:
    """A state ready for combat turn 1, armed through the engine's own orders, of a game
    played by rules `revision` (1: recorded before revisions, no revision key)."""
    options = ENGINE.validate_options(
        {**(options or {}), **({REVISION: revision} if revision > 1 else {})})
    state, _ = ENGINE.setup(["P1", "P2"], options, ScriptedRng(setup_dice or []))
    orders = {"P1": ENGINE.parse_orders(state, "P1", p1),
              "P2": ENGINE.parse_orders(state, "P2", p2)}
    state, _ = ENGINE.resolve(state, orders, ScriptedRng([]))
    assert ENGINE.invariants(state) == []
    return state


def turn(state: dict[str, Any], script: list[Any], p1: str = "", p2: str = ""
         ) -> tuple[dict[str, Any], list[Event]]:
    """Resolve one decision with scripted dice; every scripted die must be used."""
    decision = ENGINE.decision(state)
    assert decision is not None
    texts = {"P1": p1, "P2": p2}
    orders = {seat: ENGINE.parse_orders(state, seat, texts[seat]) for seat in decision.seats}
    rng = ScriptedRng(script)
    new, events = ENGINE.resolve(state, orders, rng)
    assert rng.remaining == 0, f"{rng.remaining} scripted dice were not used"
    assert ENGINE.invariants(new) == [], ENGINE.invariants(new)
    return new, events


def kinds(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def scores_of(events: list[Event], seat: str) -> dict[str, int]:
    return next(e.data["scores"] for e in events if e.kind == "roll" and e.data["seat"] == seat)


def fx(state: dict[str, Any], seat: str) -> dict[str, Any]:
    return state["fighters"][seat]["effects"]
