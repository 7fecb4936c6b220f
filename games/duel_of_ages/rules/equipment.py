"""Carrying cards: the four-card limit (raised by packs and the carry ability), the
player's choice of what to discard over it, and cards destroyed on receiving."""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from .. import catalog
from ..state import State
from . import abilities
from .combat import Events, lose_card

LIMIT = 4


def best_pack(state: State, char: str) -> str | None:
    packs = [e["card"] for e in state["chars"][char]["cards"]
             if catalog.card(e["card"])["kind"] == "pack" and catalog.can_use(char, e["card"])]
    return max(packs, key=lambda k: catalog.card(k)["carry"], default=None)


def capacity(state: State, char: str) -> int:
    pack = best_pack(state, char)
    extra = catalog.card(pack)["carry"] if pack else 0
    return LIMIT + extra + abilities.value(state, char, "carry")


def receive(state: State, events: Events, char: str) -> list[str]:
    """After a character gains cards: cards his team ordered destroyed on receipt go
    first, then the limit applies; returns the cards discarded over it.

    Over the limit the cards named in his team's DISCARD orders go first (in the order
    written), then the newest; a pack is shown as soon as it lets him carry more than
    four."""
    c = state["chars"][char]
    pending = state.get("turn_orders", {}).get("destroy", {}).get(char, [])
    for card in list(pending):
        if any(e["card"] == card for e in c["cards"]):
            pending.remove(card)
            lose_card(state, events, char, card, "destroyed")
    dropped: list[str] = []
    while len(c["cards"]) > capacity(state, char):
        wanted = state.get("turn_orders", {}).get("discard", {}).get(char, [])
        carried = [e["card"] for e in c["cards"]]
        choice = next((k for k in wanted if k in carried), carried[-1])
        lose_card(state, events, char, choice, "over the limit")
        dropped.append(choice)
    if len(c["cards"]) > LIMIT:
        pack = best_pack(state, char)
        for entry in c["cards"]:
            if entry["card"] == pack and not entry["revealed"]:
                entry["revealed"] = True
                events.append(Event("reveal", {"char": char, "card": pack}))
    return dropped


def set_turn_orders(state: State, orders: list[dict[str, Any]]) -> None:
    """DISCARD and (not yet carried out) DESTROY orders of this turn, for receive(), and
    the waiting team's CHOOSE answers to the towers' questions (rules/domes.py)."""
    table: dict[str, Any] = {"discard": {}, "destroy": {}, "choose": {}}
    for order in orders:
        if order["op"] == "choose":
            for word in ("show", "giver", "receiver", "dome"):
                if word in order:
                    table["choose"].setdefault(word, order[word])
        elif order["op"] == "discard":
            table["discard"].setdefault(order["char"], []).extend(order["cards"])
        elif order["op"] == "destroy":
            table["destroy"].setdefault(order["char"], []).append(order["card"])
    state["turn_orders"] = table
