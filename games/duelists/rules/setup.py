"""Before the first attack: who starts, champion picks, decks, hands and the first queue."""

from __future__ import annotations

from games.core.rng import RngBase
from games.core.types import Event

from .. import cards
from ..state import HAND_SIZE, State, draw_to_hand, new_state, other, player, sort_hand

START_DIE = 6


def begin(seats: list[str], rng: RngBase) -> tuple[State, list[Event]]:
    """Roll for the start (ties roll again); the other player picks a champion first."""
    state = new_state(seats)
    events: list[Event] = []
    while True:
        rolls = [rng.die(f"setup/start-roll/{seat}", START_DIE) for seat in seats]
        state["rolls"].append(rolls)
        if rolls[0] != rolls[1]:
            break
    starter = seats[0] if rolls[0] > rolls[1] else seats[1]
    state["starter"] = starter
    state["pickers"] = [other(state, starter), starter]
    state["awaiting"] = {state["pickers"][0]: "champion"}
    events.append(Event("start_roll", {"rolls": state["rolls"], "seats": list(seats),
                                       "starter": starter}))
    return state, events


def pick(state: State, seat: str, champion: str, rng: RngBase, events: list[Event]) -> None:
    player(state, seat)["champion"] = champion
    events.append(Event("picked", {"seat": seat, "champion": cards.champions()[champion].name}))
    if seat == state["pickers"][0]:
        state["awaiting"] = {state["pickers"][1]: "champion"}
        return
    for s in state["seats"]:
        deal(state, s, rng, events)
    state["stage"] = "queue"
    state["awaiting"] = {s: "queue" for s in state["seats"]}


def deal(state: State, seat: str, rng: RngBase, events: list[Event]) -> None:
    """Build and shuffle the deck (the starter leaves two armor cards out), draw seven."""
    p = player(state, seat)
    ids = cards.champions()[p["champion"]].ids()
    if seat == state["starter"]:
        ids = ids[:-2]
        events.append(Event("armor_removed", {"seat": seat, "count": 2}))
    p["deck"] = rng.shuffle(f"deck/{seat}/setup", ids)
    draw_to_hand(state, seat, HAND_SIZE, rng, events, "opening hand")


def queue_up(state: State, seat: str, chosen: list[str], events: list[Event]) -> None:
    """The three opening queue cards, face down, left to right."""
    p = player(state, seat)
    for wanted in chosen:
        card_id = next(c for c in p["hand"] if cards.name(c) == wanted)
        p["hand"].remove(card_id)
        p["queue"].append({"card": card_id, "up": False, "defended": False})
    sort_hand(p)
    events.append(Event("queued", {"seat": seat}))
    events.append(Event("queued_cards", {"seat": seat, "cards": list(chosen)}, (seat,)))


def finish_queues(state: State, rng: RngBase, events: list[Event]) -> None:
    for seat in state["seats"]:
        draw_to_hand(state, seat, HAND_SIZE - len(player(state, seat)["hand"]), rng, events,
                     "refill")
    state["stage"] = "turn"
