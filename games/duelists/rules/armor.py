"""Exhausting Armor from the hand to draw a card for each: the moments it is done.

The rulebook allows the exchange at any time; by post it happens at the moments where
it can change something, each chosen by an order (see README, "Exhausting armor"):

* the start of the turn's resolution: `EXHAUST ARMOR n|ALL` (or a standing one), before
  planning and defending, so the drawn cards are in hand for the rest of the turn;
* before a hit is absorbed: `EXHAUST ARMOR n|ALL BEFORE ABSORB`, one per hit like ABSORB,
  when the damage is known. Armor the hit's ABSORB HAND order will use is held back, and
  cards the exchange draws can absorb if ABSORB HAND names them;
* whenever the deck runs short: an exchange draws from the same pile a refill or damage
  would, so it can never save a duelist from surrendering; it can only hasten it. The
  exchange is therefore cut down to the cards left to draw (it is never an instruction
  to draw that could lose the duel), and `IF DECK > n THEN ...` lets a player stop
  exchanging when the deck runs low.
"""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from .. import cards
from ..state import State, cards_left, draw_to_hand, player
from .orders_in_play import take


def exhaust_armor(state: State, seat: str, count: int, keep: int, rng: RngBase,
                  events: list[Event], moment: str = "start") -> int:
    """Exhaust armor cards from the hand (count < 0 = all but `keep`), drawing one each.

    Never more than can be drawn: the exchange is the player's choice, not an
    instruction to draw, so it stops short instead of surrendering. Returns how many."""
    p = player(state, seat)
    armor = [c for c in p["hand"] if cards.is_armor(c)]
    usable = max(0, len(armor) - keep)
    wanted = usable if count < 0 else min(count, usable)
    n = min(wanted, cards_left(p))
    if wanted == 0:
        return 0
    for card_id in armor[:n]:
        p["hand"].remove(card_id)
        p["exhausted"].append(card_id)
    events.append(Event("armor_exhausted", {"seat": seat, "count": n, "moment": moment,
                                            "short": wanted - n}))
    if n:
        draw_to_hand(state, seat, n, rng, events, "armor exhausted")
    return n


def facts(state: State, seat: str) -> dict[str, Any]:
    """What an exchange's condition may test at any moment: DECK, the cards left to draw."""
    return {"deck": cards_left(player(state, seat))}


def at_start(state: State, seat: str, keep: int, rng: RngBase, events: list[Event], *,
             standing: bool) -> None:
    """The start-of-turn exchange: this turn's EXHAUST ARMOR line, else (once per game
    turn, `standing`) the first standing one that applies. `keep` armor cards are being
    planned and stay in the hand."""
    order = take(state, seat, "exhaust", facts(state, seat), standing=standing)
    if order is not None:
        exhaust_armor(state, seat, order["count"], keep, rng, events)


def before_absorb(state: State, seat: str, damage: int, reserved: int, rng: RngBase,
                  events: list[Event]) -> None:
    """The exchange once a hit of `damage` is known and before it is absorbed; `reserved`
    armor cards are named by the hit's ABSORB HAND order and stay in the hand."""
    order = take(state, seat, "before_absorb", {**facts(state, seat), "damage": damage})
    if order is not None:
        exhaust_armor(state, seat, order["count"], reserved, rng, events, "absorb")
