"""The shape of a Duelists state and the small moves on card piles every rule uses.

State (plain JSON):

    seats, stage ("pick" | "queue" | "turn" | "over"), awaiting {seat: what is owed},
    rolls [[roll per seat]...], starter, pickers [first picker, second picker],
    players {seat: player}, turn (the game turn in progress or None), number (game
    turns begun), winner, reason.

    player: champion, hand (ids, kept sorted), deck (ids, top = index 0), discard,
    exhausted, queue [{card, up, defended}] (left-most first), tokens {power, disarmed,
    blinded}, standing (standing order items), last_discard (id this turn or None).

Hidden: every hand, the face-down queue cards, deck order, discard contents, standing
orders and the orders stored for the turn in progress (see engine.perturb_hidden).
"""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from . import cards

HAND_SIZE = 7
QUEUE_SIZE = 3
TOKENS = ("power", "disarmed", "blinded")
# Kinds of choice kept per turn; "exhaust" is the start-of-turn armor exchange,
# "before_absorb" the exchange made once a hit is known, before absorbing it.
ORDER_KINDS = ("plan", "set", "defend", "absorb", "exhaust", "before_absorb")

State = dict[str, Any]


class Surrender(Exception):
    """A player had to draw and could not: the duel ends at once."""

    def __init__(self, seat: str, why: str) -> None:
        super().__init__(f"{seat} cannot draw ({why})")
        self.seat = seat
        self.why = why


def new_player() -> dict[str, Any]:
    return {"champion": None, "hand": [], "deck": [], "discard": [], "exhausted": [],
            "queue": [], "tokens": {t: 0 for t in TOKENS}, "standing": [],
            "last_discard": None}


def new_state(seats: list[str]) -> State:
    return {"seats": list(seats), "stage": "pick", "awaiting": {}, "rolls": [],
            "starter": None, "pickers": [], "players": {s: new_player() for s in seats},
            "turn": None, "number": 0, "winner": None, "reason": ""}


def other(state: State, seat: str) -> str:
    a, b = state["seats"]
    return b if seat == a else a


def player(state: State, seat: str) -> dict[str, Any]:
    return state["players"][seat]


def role(state: State, seat: str) -> str | None:
    turn = state.get("turn")
    if not turn:
        return None
    return "attacker" if turn["attacker"] == seat else "defender"


def sort_hand(p: dict[str, Any]) -> None:
    p["hand"].sort()


def refresh_deck(state: State, seat: str, rng: RngBase, events: list[Event]) -> None:
    """An empty draw deck is rebuilt from the shuffled discard pile straight away."""
    p = player(state, seat)
    if p["deck"] or not p["discard"]:
        return
    p["deck"] = rng.shuffle(f"deck/{seat}/reshuffle", sorted(p["discard"]))
    p["discard"] = []
    events.append(Event("reshuffle", {"seat": seat, "count": len(p["deck"])}))


def take_top(state: State, seat: str, rng: RngBase, events: list[Event], why: str) -> str:
    """The top card of the deck (reshuffling first if needed); Surrender when none is left."""
    p = player(state, seat)
    refresh_deck(state, seat, rng, events)
    if not p["deck"]:
        raise Surrender(seat, why)
    card_id = p["deck"].pop(0)
    refresh_deck(state, seat, rng, events)
    return card_id


def cards_left(p: dict[str, Any]) -> int:
    """How many cards the player could still draw: the deck and the discard pile."""
    return len(p["deck"]) + len(p["discard"])


def draw_to_hand(state: State, seat: str, count: int, rng: RngBase, events: list[Event],
                 why: str) -> list[str]:
    """Draw `count` cards into the hand: a public count, the names for the owner only."""
    p = player(state, seat)
    drawn: list[str] = []
    try:
        for _ in range(count):
            drawn.append(take_top(state, seat, rng, events, why))
            p["hand"].append(drawn[-1])
    finally:
        sort_hand(p)
        if drawn:
            events.append(Event("drew", {"seat": seat, "count": len(drawn), "why": why}))
            events.append(Event("drew_cards", {"seat": seat, "cards": names(drawn),
                                               "why": why}, (seat,)))
    return drawn


def names(ids: list[str]) -> list[str]:
    return [cards.name(i) for i in ids]


def all_cards(p: dict[str, Any]) -> list[str]:
    return (p["hand"] + p["deck"] + p["discard"] + p["exhausted"]
            + [slot["card"] for slot in p["queue"]])


def face_up_specials(p: dict[str, Any], special: str) -> int:
    return sum(1 for slot in p["queue"]
               if slot["up"] and cards.card(slot["card"]).special == special)
