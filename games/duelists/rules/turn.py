"""A game turn: preparation, planning, the attacks, and handing over to the other side.

The engine runs the next attacker's preparation and the reveal of their left-most card
as soon as the previous turn ends, so that both players write their orders for the
new turn knowing which card attacks (see README, "Turn structure").
"""

from __future__ import annotations

from games.core.rng import RngBase
from games.core.types import Event

from .. import cards
from ..state import HAND_SIZE, State, draw_to_hand, other, player
from . import attack, specials
from .orders_in_play import ask, empty, take
from .queue import discard_leftmost, place, reveal


def start_turn(state: State, seat: str, first: bool, rng: RngBase,
               events: list[Event]) -> None:
    state["number"] += 1
    p = player(state, seat)
    events.append(Event("turn", {"number": state["number"], "attacker": seat}))
    p["last_discard"] = None
    if not first:
        discard_leftmost(state, seat, events)
        missing = HAND_SIZE - len(p["hand"])
        if missing > 0:
            draw_to_hand(state, seat, missing, rng, events, "refill")
    reveal(state, seat, 0, rng, events, "lead")
    if cards.card(p["queue"][0]["card"]).special == "spirit_twin" and len(p["queue"]) > 1:
        reveal(state, seat, 1, rng, events, "spirit twin")
    attacks = specials.attacks_of(state, seat)
    state["turn"] = {"number": state["number"], "attacker": seat, "defender": other(state, seat),
                     "first": first, "planned": first, "attacks": attacks, "index": 0,
                     "cur": None, "orders": {seat: empty(), other(state, seat): empty()}}
    events.append(Event("attacks", {
        "seat": seat, "card": cards.name(p["queue"][0]["card"]),
        "borrowed": cards.name(attacks[0]["source"]) if attacks and attacks[0]["via"] else None,
        "attacks": [attack.label(a) for a in attacks]}))
    owing = {}
    if not first or attacks:
        owing[seat] = "turn"
    if attacks:
        owing[state["turn"]["defender"]] = "turn"
    state["awaiting"] = owing


def advance(state: State, rng: RngBase, events: list[Event]) -> None:
    """Run the turn on from where it stands until a choice is missing or it is over."""
    while True:
        turn = state["turn"]
        if state["awaiting"]:
            return
        if not turn["planned"]:
            seat = turn["attacker"]
            hand = player(state, seat)["hand"]
            order = take(state, seat, "plan", {}, lambda o, hand=hand: any(
                cards.name(c) == o["card"] for c in hand))
            if order is None:
                ask(state, seat, "plan", events)
                return
            place(state, seat, next(c for c in hand if cards.name(c) == order["card"]), events)
            turn["planned"] = True
        while turn["index"] < len(turn["attacks"]):
            if not attack.step(state, rng, events):
                return
        events.append(Event("turn_over", {"number": turn["number"]}))
        start_turn(state, turn["defender"], False, rng, events)
