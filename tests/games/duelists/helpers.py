"""Build Duelists positions by hand and play orders into them."""

from __future__ import annotations

from typing import Any

from games.core.engine import REVISION
from games.core.rng import ScriptedRng
from games.duelists import cards
from games.duelists.engine import ENGINE
from games.duelists.rules.turn import start_turn
from games.duelists.state import new_state


def _take(pool: list[str], name: str) -> str:
    for card_id in pool:
        if cards.name(card_id) == name:
            pool.remove(card_id)
            return card_id
    raise AssertionError(f"no {name} left in this deck")


def seat(champion: str, *, hand: list[str] = (), queue: list[Any] = (), deck: list[str] = (),
         discard: list[str] = (), exhausted_rest: bool = True, tokens: dict[str, int] | None = None,
         starter: bool = False) -> dict[str, Any]:
    """One player's piles by card name. Queue entries are a name (face down) or a dict
    {"name", "up", "defended"}. Cards not named go to the exhausted pile."""
    pool = cards.champions()[champion].ids()
    if starter:
        pool = pool[:-2]
    p: dict[str, Any] = {"champion": champion, "hand": [], "deck": [], "discard": [],
                         "exhausted": [], "queue": [],
                         "tokens": {"power": 0, "disarmed": 0, "blinded": 0, **(tokens or {})},
                         "standing": [], "last_discard": None}
    for entry in queue:
        spec = {"name": entry} if isinstance(entry, str) else entry
        p["queue"].append({"card": _take(pool, spec["name"]), "up": spec.get("up", False),
                           "defended": spec.get("defended", False)})
    p["hand"] = sorted(_take(pool, n) for n in hand)
    p["deck"] = [_take(pool, n) for n in deck]
    p["discard"] = [_take(pool, n) for n in discard]
    p["exhausted"] = pool if exhausted_rest else []
    return p


def duel(p1: dict[str, Any], p2: dict[str, Any], *, attacker: str = "P1", first: bool = False,
         script: list[Any] = (), revision: int = ENGINE.revision) -> dict[str, Any]:
    """A state at the start of `attacker`'s turn (preparation and reveal done), of a
    game played by rules `revision` (1: recorded before revisions, no revision key)."""
    state = new_state(["P1", "P2"])
    if revision > 1:
        state[REVISION] = revision
    state.update(stage="turn", starter="P1", pickers=["P2", "P1"], rolls=[[6, 1]])
    state["players"] = {"P1": p1, "P2": p2}
    box = cards.champions()[p1["champion"]].ids()[-2:]  # the starter's two armor cards
    if all(c in p1["exhausted"] for c in box):
        p1["exhausted"] = [c for c in p1["exhausted"] if c not in box]
    start_turn(state, attacker, first, ScriptedRng(list(script)), [])
    assert ENGINE.invariants(state) == [], ENGINE.invariants(state)
    return state


def play(state: dict[str, Any], orders: dict[str, str], script: list[Any] = ()
         ) -> tuple[dict[str, Any], list[Any]]:
    parsed = {s: ENGINE.parse_orders(state, s, text) for s, text in orders.items()}
    rng = ScriptedRng(list(script))
    after, events = ENGINE.resolve(state, parsed, rng)
    assert rng.remaining == 0, "scripted draws left over"
    assert ENGINE.invariants(after) == [], ENGINE.invariants(after)
    return after, events


def names(ids: list[str]) -> list[str]:
    return [cards.name(i) for i in ids]


def queue_names(state: dict[str, Any], who: str) -> list[str]:
    return [cards.name(s["card"]) for s in state["players"][who]["queue"]]


def kinds(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


FILLER = ["Armor"] * 6
