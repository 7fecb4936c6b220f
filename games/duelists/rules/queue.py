"""Moves on a player's maneuver queue: reveal, plan, discard, trip, flip.

Revealing is the one place armor in the queue is handled: a revealed armor card is
exhausted and the slot is refilled face up from the deck, again and again until a
maneuver shows. Every other rule that turns a card face up goes through `reveal`.
"""

from __future__ import annotations

from games.core.rng import RngBase
from games.core.types import Event

from .. import cards
from ..state import State, Surrender, names, player, take_top


def reveal(state: State, seat: str, pos: int, rng: RngBase, events: list[Event],
           why: str) -> None:
    p = player(state, seat)
    slot = p["queue"][pos]
    if slot["up"]:
        return
    while True:
        card_id = slot["card"]
        if not cards.is_armor(card_id):
            slot["up"] = True
            events.append(Event("revealed", {"seat": seat, "pos": pos, "card": cards.name(card_id),
                                             "why": why}))
            return
        p["exhausted"].append(card_id)
        events.append(Event("armor_revealed", {"seat": seat, "pos": pos, "why": why}))
        try:
            slot["card"] = take_top(state, seat, rng, events, "replacing revealed armor")
        except Surrender:
            p["queue"].pop(pos)  # the slot stays empty: the duel is over anyway
            raise


def place(state: State, seat: str, card_id: str, events: list[Event]) -> None:
    """Plan a card from the hand face down at the right of the queue."""
    p = player(state, seat)
    p["hand"].remove(card_id)
    p["queue"].append({"card": card_id, "up": False, "defended": False})
    events.append(Event("planned", {"seat": seat}))
    events.append(Event("planned_card", {"seat": seat, "card": cards.name(card_id)}, (seat,)))


def discard_leftmost(state: State, seat: str, events: list[Event]) -> None:
    """Preparation: the left-most card goes to the discard pile, its token with it."""
    p = player(state, seat)
    slot = p["queue"].pop(0)
    p["discard"].append(slot["card"])
    p["last_discard"] = slot["card"]
    events.append(Event("discarded", {"seat": seat, "card": cards.name(slot["card"]),
                                      "token": slot["defended"]}))


def trip(state: State, seat: str, rng: RngBase, events: list[Event]) -> None:
    """Tripping Attack: the right-most card is discarded and replaced from the deck."""
    p = player(state, seat)
    slot = p["queue"].pop()
    old = slot["card"]
    p["discard"].append(old)
    events.append(Event("tripped", {"seat": seat, "card": cards.name(old) if slot["up"] else None}))
    new = take_top(state, seat, rng, events, "replacing a tripped card")
    p["queue"].append({"card": new, "up": False, "defended": False})
    events.append(Event("tripped_cards", {"seat": seat, "old": cards.name(old),
                                          "new": cards.name(new)}, (seat,)))


def flip_all(state: State, seat: str, rng: RngBase, events: list[Event]) -> None:
    """Second Sight: every face-down card in the queue is revealed."""
    p = player(state, seat)
    hidden = [i for i, slot in enumerate(p["queue"]) if not slot["up"]]
    events.append(Event("flipped", {"seat": seat, "count": len(hidden)}))
    for pos in hidden:
        reveal(state, seat, pos, rng, events, "second sight")


def queue_names(state: State, seat: str) -> list[str]:
    return names([slot["card"] for slot in player(state, seat)["queue"]])
