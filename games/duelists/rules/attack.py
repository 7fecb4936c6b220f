"""One attack: the defence choice, the secret die, the guesses, damage and absorbing it.

`step` runs as far as the stored orders allow and returns False when a choice is
missing; the turn then waits for it (the "decision arising" of the next report).
Hidden until the strike: the defender's guesses (kept in turn["cur"]) and the
attacker's SET orders (kept in turn["orders"]). Before a hit is absorbed the defender
may exchange armor (rules/armor.py), once the hit's ABSORB order is known.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from .. import cards
from ..state import State, cards_left, player, take_top
from . import armor, specials
from .orders_in_play import ask, take
from .queue import reveal


def label(attack: dict[str, Any]) -> str:
    return f"({attack['lo']}-{attack['hi']})+{attack['mod']} {attack['type'].title()}"


def step(state: State, rng: RngBase, events: list[Event]) -> bool:
    turn = state["turn"]
    attack = turn["attacks"][turn["index"]]
    if turn["cur"] is None:
        order = take(state, turn["defender"], "defend", {})
        if order is None:
            ask(state, turn["defender"], "defend", events)
            return False
        choose_defence(state, attack, order, rng, events)
    cur = turn["cur"]
    if cur["die"] is None:
        facts = {"pos": cur["pos"], "guesses": cur["allowed"]}
        order = take(state, turn["attacker"], "set", facts,
                     lambda o: attack["lo"] <= o["value"] <= attack["hi"])
        if order is None:
            ask(state, turn["attacker"], "set", events)
            return False
        strike(state, attack, order["value"], rng, events)
    if cur["damage"] and not cur["absorbed"]:
        if specials.hand_absorb_allowed(attack):
            seat = turn["defender"]
            order = take(state, seat, "absorb", {"damage": cur["damage"],
                                                 "deck": cards_left(player(state, seat))})
            if order is None:
                ask(state, seat, "absorb", events)
                return False
            chosen = order["cards"]
            hand = player(state, seat)["hand"]
            reserved = sum(1 for c in from_hand(hand, chosen, cur["damage"])
                           if cards.is_armor(c))
            armor.before_absorb(state, seat, cur["damage"], reserved, rng, events)
            absorb(state, cur["damage"], chosen, rng, events)
        else:
            absorb(state, cur["damage"], [], rng, events, hand_allowed=False)
        cur["absorbed"] = True
        specials.on_hit_absorbed(state, attack, rng, events)
    specials.after_attack(state, attack, events)
    turn["index"] += 1
    turn["cur"] = None
    return True


def choose_defence(state: State, attack: dict[str, Any], order: dict[str, Any],
                   rng: RngBase, events: list[Event]) -> None:
    turn = state["turn"]
    seat = turn["defender"]
    queue = player(state, seat)["queue"]
    pos = order["pos"]
    # A left-most card that began the turn holding the Defended! token stays barred for
    # the whole turn, also after the token moved on (README, "Rulings").
    barred = queue[0]["defended"] or bool(turn.get("left_barred"))
    if barred and revision_of(state) >= 2:
        turn["left_barred"] = True
    # (Rules revision 1, games recorded before it: barred only while holding the token,
    # so a standing DEFEND LEFT could defend with it on a double attack's second hit.)
    forced = pos == "LEFT" and barred
    if forced:
        pos = "SECOND"
    index = 0 if pos == "LEFT" else 1
    reveal(state, seat, index, rng, events, "defence")
    if index == 1:
        for slot in queue:
            slot["defended"] = False
        queue[1]["defended"] = True
    card_id = queue[index]["card"]
    base = cards.card(card_id).defence[attack["type"]]
    cuts = specials.guess_reductions(state, attack, turn["index"] == 0)
    allowed = max(0, base - sum(n for _, n in cuts))
    if any(reason == "Blinded!" for reason, _ in cuts):
        specials.spend_blinded(state, events)
    turn["cur"] = {"pos": pos, "card": card_id, "allowed": allowed,
                   "guesses": list(order["guesses"]), "die": None, "damage": 0,
                   "absorbed": False}
    events.append(Event("defence", {
        "seat": seat, "pos": pos, "forced": forced, "card": cards.name(card_id),
        "type": attack["type"], "base": base, "allowed": allowed,
        "cuts": [[reason, n] for reason, n in cuts]}))


def used_guesses(listed: list[int], allowed: int, attack: dict[str, Any]) -> list[int]:
    """The guesses that count: the first `allowed` listed, topped up with the lowest
    unguessed numbers of the attack's range when fewer were listed."""
    used = list(listed[:allowed])
    for value in range(attack["lo"], attack["hi"] + 1):
        if len(used) >= allowed:
            break
        if value not in used:
            used.append(value)
    return used


def strike(state: State, attack: dict[str, Any], die: int, rng: RngBase,
           events: list[Event]) -> None:
    turn = state["turn"]
    cur = turn["cur"]
    cur["die"] = die
    guesses = used_guesses(cur["guesses"], cur["allowed"], attack)
    cur["guesses"] = guesses
    blocked = die in guesses
    data: dict[str, Any] = {"attacker": turn["attacker"], "defender": turn["defender"],
                            "attack": label(attack), "card": cards.name(attack["source"]),
                            "die": die, "guesses": guesses, "blocked": blocked}
    if blocked:
        events.append(Event("strike", data))
        specials.on_block(state, cur["card"], rng, events)
        return
    parts = specials.damage_parts(state, attack, die)
    total = max(1, sum(n for _, n in parts))
    cur["damage"] = total
    data.update(parts=[[what, n] for what, n in parts], damage=total)
    events.append(Event("strike", data))
    specials.spend_on_hit(state, events)


def from_hand(hand: list[str], chosen: list[str], damage: int) -> list[str]:
    """The hand cards an ABSORB HAND list takes: named cards in the order listed, each
    only if still in the hand, until the damage is covered."""
    pool = list(hand)
    out: list[str] = []
    for wanted in chosen:
        if len(out) >= damage:
            break
        match = next((c for c in pool if cards.name(c) == wanted), None)
        if match is not None:
            pool.remove(match)
            out.append(match)
    return out


def absorb(state: State, damage: int, chosen: list[str], rng: RngBase,
           events: list[Event], *, hand_allowed: bool = True) -> None:
    """Exhaust the chosen hand cards (as far as they go), then the top of the deck.

    Exhausting is not drawing: when the deck and the discard pile are both gone, the rest
    of the damage is exhausted from the hand (Armor first, then the hand in card order;
    an ABSORB HAND list names the cards to go first), and what not even the hand can
    cover is lost. The duelist surrenders only when next told to draw (README, "Rulings").
    A Spear Charge hit (`hand_allowed` False) may not touch the hand: damage beyond the
    deck and discard pile wins the duel, as the card says."""
    seat = state["turn"]["defender"]
    p = player(state, seat)
    taken = from_hand(p["hand"], chosen, damage) if hand_allowed else []
    for card_id in taken:
        p["hand"].remove(card_id)
        p["exhausted"].append(card_id)
    hand_names = [cards.name(c) for c in taken]
    from_deck: list[str] = []
    short: list[str] = []
    try:
        while len(hand_names) + len(from_deck) < damage:
            if not hand_allowed:
                card_id = take_top(state, seat, rng, events,
                                   "Spear Charge damage beyond the deck and discard pile")
            elif cards_left(p):
                card_id = take_top(state, seat, rng, events, "absorbing damage")
            else:
                break
            p["exhausted"].append(card_id)
            from_deck.append(cards.name(card_id))
        rest = damage - len(hand_names) - len(from_deck)
        for card_id in sorted(p["hand"], key=lambda c: not cards.is_armor(c))[:rest]:
            p["hand"].remove(card_id)
            p["exhausted"].append(card_id)
            short.append(cards.name(card_id))
    finally:
        data: dict[str, Any] = {"seat": seat, "damage": damage, "hand": hand_names,
                                "deck": from_deck}
        if short or len(hand_names) + len(from_deck) < damage:
            data["short"] = short
            data["lost"] = damage - len(hand_names) - len(from_deck) - len(short)
        events.append(Event("absorbed", data))
