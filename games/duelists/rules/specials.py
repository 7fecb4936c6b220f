"""Every special card effect and token, in one place.

Tokens live in player["tokens"]: `power` (+3 each to the next hit, stacks), `disarmed`
(-3 to the next hit, at most one) and `blinded` (-2 guesses against the first attack
of the next turn the holder is attacked in, at most one).
"""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from .. import cards
from ..state import State, face_up_specials, player
from .queue import flip_all, trip


def guess_reductions(state: State, attack: dict[str, Any], first: bool
                     ) -> list[tuple[str, int]]:
    """Why the defender gets fewer guesses against this attack: [(reason, amount)]."""
    turn = state["turn"]
    attacker, defender = player(state, turn["attacker"]), player(state, turn["defender"])
    out: list[tuple[str, int]] = []
    last = attacker["last_discard"]
    if attack["special"] == "follow_up" and last and cards.card(last).has_stab():
        out.append(("Follow Up Attack after a Stab card", 1))
    if attack["special"] == "feint" and last and not cards.card(last).has_stab():
        out.append(("Feint after a card without Stab", 1))
    if first and defender["tokens"]["blinded"]:
        out.append(("Blinded!", 2))
    return out


def spend_blinded(state: State, events: list[Event]) -> None:
    defender = state["turn"]["defender"]
    tokens = player(state, defender)["tokens"]
    if tokens["blinded"]:
        tokens["blinded"] = 0
        events.append(Event("token", {"seat": defender, "token": "blinded", "change": "spent"}))


def damage_parts(state: State, attack: dict[str, Any], die: int) -> list[tuple[str, int]]:
    """The damage of a hit, as signed parts; the total is at least 1."""
    turn = state["turn"]
    attacker, defender = player(state, turn["attacker"]), player(state, turn["defender"])
    parts = [("die", die), ("modifier", attack["mod"])]
    if attacker["tokens"]["power"]:
        parts.append(("+3 token" + ("s" if attacker["tokens"]["power"] > 1 else ""),
                      3 * attacker["tokens"]["power"]))
    if attacker["tokens"]["disarmed"]:
        parts.append(("Disarmed!", -3))
    guardians = face_up_specials(defender, "spiritual_guardian")
    if guardians:
        parts.append(("Spiritual Guardian" + (" x2" if guardians > 1 else ""), -2 * guardians))
    return parts


def spend_on_hit(state: State, events: list[Event]) -> None:
    """A hit uses up the attacker's +3 tokens and removes their Disarmed! token."""
    seat = state["turn"]["attacker"]
    tokens = player(state, seat)["tokens"]
    for name in ("power", "disarmed"):
        if tokens[name]:
            tokens[name] = 0
            events.append(Event("token", {"seat": seat, "token": name, "change": "spent"}))


def on_block(state: State, defence_card: str, rng: RngBase, events: list[Event]) -> None:
    """Effects of the defending card when its guess was right."""
    special = cards.card(defence_card).special
    attacker = state["turn"]["attacker"]
    tokens = player(state, attacker)["tokens"]
    if special == "disarming" and not tokens["disarmed"]:
        tokens["disarmed"] = 1
        events.append(Event("token", {"seat": attacker, "token": "disarmed", "change": "gained"}))
    elif special == "blinding_light" and not tokens["blinded"]:
        tokens["blinded"] = 1
        events.append(Event("token", {"seat": attacker, "token": "blinded", "change": "gained"}))
    elif special == "second_sight":
        flip_all(state, attacker, rng, events)


def hand_absorb_allowed(attack: dict[str, Any]) -> bool:
    return attack["special"] != "spear_charge"


def on_hit_absorbed(state: State, attack: dict[str, Any], rng: RngBase,
                    events: list[Event]) -> None:
    if attack["special"] == "tripping":
        trip(state, state["turn"]["defender"], rng, events)


def after_attack(state: State, attack: dict[str, Any], events: list[Event]) -> None:
    if attack["special"] == "power_up" and attack["last"]:
        seat = state["turn"]["attacker"]
        player(state, seat)["tokens"]["power"] += 1
        events.append(Event("token", {"seat": seat, "token": "power", "change": "gained"}))


def attacks_of(state: State, seat: str) -> list[dict[str, Any]]:
    """The attacks the left-most card makes (Spirit Twin borrows the next card's)."""
    queue = player(state, seat)["queue"]
    lead = queue[0]["card"]
    source, via = lead, None
    if cards.card(lead).special == "spirit_twin":
        if len(queue) < 2:
            return []
        source, via = queue[1]["card"], lead
    printed = cards.card(source).attacks
    return [{"source": source, "via": via, "lo": a.lo, "hi": a.hi, "mod": a.mod,
             "type": a.kind, "special": cards.card(source).special,
             "last": i == len(printed) - 1} for i, a in enumerate(printed)]
