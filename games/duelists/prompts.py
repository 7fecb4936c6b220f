"""The order-form prompt each owing seat gets: title, help, legal choices, an example."""

from __future__ import annotations

from typing import Any

from . import cards
from .bots import default_lines
from .orders import available_champions, cards_in_hand, left_locked, open_defends, open_sets
from .orders import plan_open as _plan_open
from .rules.attack import label
from .state import State, player, role


def prompt(state: State, seat: str) -> dict[str, Any]:
    kind = state["awaiting"][seat]
    example = "\n".join(default_lines(state, seat))
    if kind == "champion":
        return {"title": "Choose your champion",
                "help": "The other duelist attacks first; you pick before them.",
                "choices": [f"CHAMPION {cards.champions()[k].name}"
                            for k in available_champions(state)], "example": example}
    hand = sorted(set(cards_in_hand(state, seat)))
    if kind == "queue":
        return {"title": "Lay three cards face down in your queue",
                "help": "Name three hand cards, left-most first; the left-most acts first.",
                "choices": [f"QUEUE {c}" for c in hand], "example": example}
    turn = state["turn"]
    attacks = ", then ".join(label(a) for a in turn["attacks"]) or "no attack"
    choices: list[str] = []
    if role(state, seat) == "attacker":
        title = f"Turn {turn['number']}: you attack with {attacks}"
        if kind in ("turn", "plan") and _plan_open(state):
            choices += [f"PLAN {c}" for c in hand]
        if kind in ("turn", "set"):
            for a in open_sets(state):
                choices += [f"SET {n}" for n in range(a["lo"], a["hi"] + 1)]
            choices.append("IF DEFEND LEFT THEN SET <n> ELSE SET <n>")
        help_text = ("PLAN the card that goes face down on the right; one SET per attack, "
                     "in order, optionally IF DEFEND LEFT/SECOND or IF GUESSES <op> <n>.")
    else:
        title = f"Turn {turn['number']}: you are attacked ({attacks})"
        if kind in ("turn", "defend"):
            queue = player(state, seat)["queue"]
            for a in open_defends(state)[:1]:
                for pos, index in (("LEFT", 0), ("SECOND", 1)):
                    if pos == "LEFT" and left_locked(state, seat):
                        continue
                    n = cards.card(queue[index]["card"]).defence[a["type"]]
                    choices.append(f"DEFEND {pos} GUESS <{n} number(s) from "
                                   f"{a['lo']}-{a['hi']}>")
        if kind in ("turn", "defend", "absorb"):
            choices += ["ABSORB FROM DECK"] + [f"ABSORB HAND {c}" for c in hand]
            choices += ["EXHAUST ARMOR <n>|ALL BEFORE ABSORB",
                        "IF DAMAGE > <n> THEN EXHAUST ARMOR ALL BEFORE ABSORB"]
        help_text = ("One DEFEND per attack; list guesses best first (extra ones are "
                     "ignored). ABSORB says which hand cards soak damage; the rest comes "
                     "off the deck. STANDING ABSORB ... keeps an answer for every hit. "
                     "EXHAUST ARMOR ... BEFORE ABSORB trades armor for fresh cards once "
                     "the damage is known, keeping the armor ABSORB HAND names.")
    if kind in ("set", "defend", "absorb", "plan"):
        title = f"Decision arising: {title}"
        cur = turn.get("cur")
        if kind == "absorb" and cur:
            help_text = f"You take {cur['damage']} damage. " + help_text
        if kind == "set" and cur:
            help_text = (f"The defender chose {cur['pos']} ({cards.name(cur['card'])}, "
                         f"{cur['allowed']} guess(es)). " + help_text)
    choices += ["EXHAUST ARMOR <n>|ALL", "IF DECK > <n> THEN EXHAUST ARMOR ALL"]
    help_text += (" EXHAUST ARMOR draws a card for each armor card given up, at the start "
                  "of the turn; never more than are left to draw.")
    return {"title": title, "help": help_text, "choices": choices, "example": example}
