"""Order texts the engine writes itself: deadline defaults, random legal orders for the
conformance suite, and the simulation bots used to measure balance.

Documented defaults (README, "Missed deadlines"): pick the first free champion in
the order Isdra, Nathrax, Harys; queue the first three hand cards as listed; plan the
first maneuver in the hand; set the die to the top of each attack's range; defend with
the left-most card (the second when the left-most holds the Defended! token) guessing
the lowest numbers; absorb with every Armor card in the hand, the rest from the deck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import cards
from .orders import available_champions, cards_in_hand, left_locked, open_defends, open_sets
from .orders import plan_open as _plan_open
from .state import State, player, role

Pick = Callable[[Sequence[Any]], Any]


def _wants(state: State, seat: str) -> tuple[str, str | None]:
    return state["awaiting"][seat], role(state, seat)


def _hits_left(state: State) -> int:
    turn = state["turn"]
    return len(turn["attacks"]) - turn["index"]


def _armor_line(hand: list[str]) -> str:
    armor = [c for c in hand if c == cards.ARMOR]
    return "ABSORB HAND " + ", ".join(armor) if armor else "ABSORB FROM DECK"


def default_lines(state: State, seat: str) -> list[str]:
    kind, my_role = _wants(state, seat)
    hand = cards_in_hand(state, seat)
    if kind == "champion":
        return [f"CHAMPION {cards.champions()[available_champions(state)[0]].name}"]
    if kind == "queue":
        return ["QUEUE " + ", ".join(hand[:3])]
    lines: list[str] = []
    if my_role == "attacker":
        if kind in ("turn", "plan") and _plan_open(state):
            maneuvers = [c for c in hand if c != cards.ARMOR] or hand
            lines.append(f"PLAN {maneuvers[0]}")
        if kind in ("turn", "set"):
            lines += [f"SET {a['hi']}" for a in open_sets(state)]
        return lines
    if kind in ("turn", "defend"):
        pos = "SECOND" if left_locked(state, seat) else "LEFT"
        for a in open_defends(state):
            guesses = " ".join(str(n) for n in range(a["lo"], a["hi"] + 1))
            lines.append(f"DEFEND {pos} GUESS {guesses}")
    if kind in ("turn", "defend", "absorb"):
        lines += [_armor_line(hand)] * _hits_left(state)
    return lines


def random_lines(state: State, seat: str, pick: Pick) -> list[str]:
    """Legal orders chosen at random; some deliberately leave choices open."""
    kind, my_role = _wants(state, seat)
    hand = cards_in_hand(state, seat)
    if kind == "champion":
        champ = pick(available_champions(state))
        return [f"CHAMPION {cards.champions()[champ].name}"]
    if kind == "queue":
        pool = list(hand)
        chosen = []
        for _ in range(3):
            chosen.append(pool.pop(pick(range(len(pool)))))
        return ["QUEUE " + ", ".join(chosen)]
    lines: list[str] = []
    planned_armor = 0
    if my_role == "attacker":
        if _plan_open(state) and (kind == "plan" or (kind == "turn" and pick(range(10)) > 0)):
            card = pick(hand)
            planned_armor = int(card == cards.ARMOR)
            lines.append(f"PLAN {card}")
        if kind in ("turn", "set"):
            for i, a in enumerate(open_sets(state)):
                values = list(range(a["lo"], a["hi"] + 1))
                style = "plain" if kind == "set" and i == 0 else pick(
                    ["plain", "plain", "defend", "guesses", "omit"])
                if style == "omit":
                    break
                if style == "plain":
                    lines.append(f"SET {pick(values)}")
                elif style == "defend":
                    lines.append(f"IF DEFEND {pick(['LEFT', 'SECOND'])} THEN SET {pick(values)}"
                                 + (f" ELSE SET {pick(values)}" if pick([0, 1]) else ""))
                else:
                    lines.append(f"IF GUESSES {pick(['<', '>=', '='])} {pick(range(4))} THEN "
                                 f"SET {pick(values)} ELSE SET {pick(values)}")
    else:
        if kind in ("turn", "defend"):
            for _attack in open_defends(state):
                if kind == "turn" and pick(range(8)) == 0:
                    break
                pos = "SECOND" if left_locked(state, seat) else pick(["LEFT", "SECOND"])
                values = list(range(1, cards.DIE_SIDES + 1))
                guesses = [values.pop(pick(range(len(values)))) for _ in range(pick(range(4)))]
                lines.append(f"DEFEND {pos}" + (" GUESS " + " ".join(map(str, guesses))
                                                if guesses else ""))
        if kind in ("turn", "defend", "absorb"):
            for i in range(_hits_left(state)):
                style = "deck" if kind == "absorb" and i == 0 else pick(
                    ["hand", "deck", "cond", "omit"])
                if kind == "absorb" and i == 0:
                    style = pick(["hand", "deck"])
                if style == "omit":
                    break
                deck_names = cards.champions()[player(state, seat)["champion"]].names()
                names = [pick(deck_names) for _ in range(pick([1, 2]))]
                hand_line = "ABSORB HAND " + ", ".join(names) if names else "ABSORB FROM DECK"
                if style == "hand":
                    lines.append(hand_line)
                elif style == "deck":
                    lines.append("ABSORB FROM DECK")
                else:
                    lines.append(f"IF DAMAGE > {pick(range(1, 6))} THEN {hand_line} "
                                 "ELSE ABSORB FROM DECK")
    armor = sum(1 for c in hand if c == cards.ARMOR) - planned_armor
    if armor > 0:
        lines += _random_exchange(pick(range(12)), armor, my_role, pick)
    extra = pick(range(16))
    if extra < len(RANDOM_STANDING):
        lines.append(RANDOM_STANDING[extra])
    return lines


RANDOM_STANDING = ("STANDING ABSORB FROM DECK", "STANDING DEFEND LEFT GUESS 1 2",
                   "STANDING IF DEFEND LEFT THEN SET 2 ELSE SET 1", "CANCEL STANDING",
                   "STANDING EXHAUST ARMOR ALL BEFORE ABSORB",
                   "STANDING IF DECK > 8 THEN EXHAUST ARMOR 1",
                   "STANDING IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB")


def _random_exchange(roll: int, armor: int, my_role: str | None, pick: Pick) -> list[str]:
    """An armor exchange at one of its moments, for `roll` in 0..11 (most rolls: none)."""
    if roll == 0:
        return [f"EXHAUST ARMOR {pick(range(1, armor + 1))}"]
    if roll == 1:
        return [f"IF DECK > {pick(range(10))} THEN EXHAUST ARMOR ALL"]
    if roll == 2 and my_role == "defender":
        count = pick(["ALL", *range(1, armor + 1)])
        if pick([0, 1]):
            return [f"EXHAUST ARMOR {count} BEFORE ABSORB"]
        return [f"IF DAMAGE > {pick(range(1, 6))} THEN EXHAUST ARMOR ALL BEFORE ABSORB"
                + (f" ELSE EXHAUST ARMOR {count} BEFORE ABSORB" if pick([0, 1]) else "")]
    return []


def bot_lines(state: State, seat: str, pick: Pick) -> list[str]:
    """A plain sensible player: random bluffs, best defence, armor soaks damage."""
    kind, my_role = _wants(state, seat)
    p = player(state, seat)
    hand = cards_in_hand(state, seat)
    if kind == "champion":
        champ = pick(available_champions(state))
        return [f"CHAMPION {cards.champions()[champ].name}"]
    if kind == "queue":
        pool = [c for c in hand if c != cards.ARMOR]
        while len(pool) < 3:
            pool.append(cards.ARMOR)
        chosen = [pool.pop(pick(range(len(pool)))) for _ in range(3)]
        return ["QUEUE " + ", ".join(chosen)]
    lines: list[str] = []
    if my_role == "attacker":
        if kind in ("turn", "plan") and _plan_open(state):
            maneuvers = [c for c in hand if c != cards.ARMOR] or hand
            lines.append(f"PLAN {pick(maneuvers)}")
        if kind in ("turn", "set"):
            lines += [f"SET {pick(range(a['lo'], a['hi'] + 1))}" for a in open_sets(state)]
        return lines
    if kind in ("turn", "defend"):
        queue = p["queue"]
        locked = queue[0]["defended"]
        for a in open_defends(state):
            left = -1 if locked else cards.card(queue[0]["card"]).defence[a["type"]]
            second = cards.card(queue[1]["card"]).defence[a["type"]]
            pos = "LEFT" if left >= second else "SECOND"
            values = list(range(a["lo"], a["hi"] + 1))
            order = [values.pop(pick(range(len(values)))) for _ in range(len(values))]
            lines.append(f"DEFEND {pos} GUESS " + " ".join(map(str, order)))
    if kind in ("turn", "defend", "absorb"):
        lines += [_armor_line(hand)] * _hits_left(state)
    return lines
