"""Building Dungeonquest scenarios: a real setup, then squares, heroes and deck tops
arranged by hand (cards and tiles are moved, never invented, so invariants hold)."""

from __future__ import annotations

from typing import Any

from games.core.rng import Rng, ScriptedRng
from games.core.types import Event
from games.dungeonquest import content
from games.dungeonquest.board import lay_tile
from games.dungeonquest.engine import ENGINE
from games.dungeonquest.state import active, new_state


def make_state(players: int = 1, first_hero: str = "knight", *,
               revision: int = ENGINE.revision) -> dict[str, Any]:
    """A new game of the current rules revision (or of `revision`, with its content)."""
    return new_state(ENGINE.seat_names(players), first_hero, Rng("scenario", "setup"),
                     revision=revision)


def place(state: dict[str, Any], sq: str, tile_id: str, moving: str) -> None:
    """Lay `tile_id` on `sq` as if a hero had entered it moving `moving`."""
    state["bag"].remove(tile_id)
    state["board"][sq] = lay_tile(content.of(state).tiles, tile_id, moving)


def put(state: dict[str, Any], seat: str, sq: str, entry: str | None = None,
        prev: str | None = None, via: str = "open", **extra: Any) -> None:
    state["chars"][seat].update(pos=sq, entry=entry, prev=prev, via=via, **extra)


def stack(state: dict[str, Any], deck: str, *cards: str) -> None:
    """Put `cards` on top of `deck`, first card drawn first."""
    pile = state["decks"][deck]
    for card in cards:
        if card in pile["draw"]:
            pile["draw"].remove(card)
        else:
            pile["discard"].remove(card)
    pile["draw"] = list(cards) + pile["draw"]


def stack_tiles(state: dict[str, Any], *tiles: str) -> None:
    for tile in tiles:
        state["bag"].remove(tile)
    state["bag"] = list(tiles) + state["bag"]


def run(state: dict[str, Any], orders: dict[str, str], script: list[Any],
        missed: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[Event]]:
    """Resolve one turn with scripted dice; every scripted die must be used."""
    parsed = {}
    for seat in active(state):
        if seat in missed:
            parsed[seat] = ENGINE.default_orders(state, seat)
        else:
            parsed[seat] = ENGINE.parse_orders(state, seat, orders.get(seat, "STAY"))
    rng = ScriptedRng(script)
    new, events = ENGINE.resolve(state, parsed, rng)
    assert rng.remaining == 0, f"{rng.remaining} scripted dice unused"
    assert ENGINE.invariants(new) == []
    return new, events


def lines(events: list[Event], seat: str | None = None) -> str:
    return "\n".join(e.data["text"] for e in events
                     if e.kind not in ("status", "map", "turn", "result")
                     and (seat is None or e.data.get("seat") == seat))
