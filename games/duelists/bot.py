"""The seat bot: a plain, sensible duelist decided from the seat's view and prompt only.

(games/duelists/bots.py holds the engine's own order texts, which read the state: the
deadline defaults, the conformance suite's random orders and the balance bots.)

It queues maneuvers rather than armor; plans the maneuver whose attacks hit hardest;
sets the die anywhere in the attack's range (a bluff the defender cannot read, chosen with
`pick`); defends with whichever of its two front cards allows more guesses (the prompt
says how many), guessing in an order chosen with `pick`; soaks every hit with the armor
cards in its hand first, the rest off the deck.
"""

from __future__ import annotations

import re
from typing import Any

from games.core.engine import Pick

LABEL = re.compile(r"\((\d+)-(\d+)\)\+(\d+) (\w+)")
# "<2 number(s) from 1-5>"; a front card that is Armor shows no count (its replacement,
# drawn from the deck, decides): counted as one guess.
GUESS_FORM = re.compile(r"DEFEND (LEFT|SECOND) GUESS <(?:(\d+) number)?")


def _attack(text: str) -> dict[str, Any]:
    lo, hi, mod, kind = LABEL.match(text).groups()  # type: ignore[union-attr]
    return {"lo": int(lo), "hi": int(hi), "mod": int(mod), "type": kind.lower()}


def _strength(card: dict[str, Any]) -> float:
    """Mean damage of a card's attacks (0 for armor and cards without an attack)."""
    return sum((a["lo"] + a["hi"]) / 2 + a["mod"] for a in map(_attack, card.get("attacks", [])))


def seat_bot(view: dict[str, Any], prompt: dict[str, Any], seat: str, pick: Pick) -> str:
    kind = view["awaiting"][seat]
    choices: list[str] = prompt.get("choices", [])
    me = view["players"][seat]
    hand = me.get("hand", [])
    if kind == "champion":
        return pick([c for c in choices if c.startswith("CHAMPION ")])
    if kind == "queue":
        pool = sorted((c for c in hand if not c.get("armor")), key=lambda c: -_strength(c))
        names = [c["name"] for c in pool[:3]]
        armor = [c["name"] for c in hand if c.get("armor")]
        while len(names) < 3:
            names.append(armor.pop())
        return "QUEUE " + ", ".join(pick([names, names[::-1], names[1:] + names[:1]]))
    turn = view["turn"]
    attacks = [_attack(a) for a in turn["attacks"]]
    index = turn["attack_index"]
    current = turn.get("current")
    lines: list[str] = []
    if turn["attacker"] == seat:
        planable = [c[5:] for c in choices if c.startswith("PLAN ")]
        if planable:
            faces = {c["name"]: c for c in hand}
            best = max(_strength(faces[n]) for n in planable)
            lines.append("PLAN " + pick([n for n in planable if _strength(faces[n]) == best]))
        if any(c.startswith("SET ") for c in choices):
            start = index + (1 if current and current.get("die") is not None else 0)
            lines += [f"SET {pick(range(a['lo'], a['hi'] + 1))}" for a in attacks[start:]]
        return "\n".join(lines)
    forms = {m.group(1): int(m.group(2) or 1) for c in choices if (m := GUESS_FORM.match(c))}
    if forms:
        queue = me["queue"]
        for n, a in enumerate(attacks[index + (1 if current else 0):]):
            if n == 0:
                allowed = dict(forms)
            else:  # later attacks: the printed values of the two front cards
                allowed = {pos: (queue[i]["card"] or {}).get("defence", {}).get(a["type"], 1)
                           for pos, i in (("LEFT", 0), ("SECOND", 1))
                           if pos in forms and len(queue) > i}
            pos = max(sorted(allowed), key=lambda p: (allowed[p], p == "LEFT"))
            values = list(range(a["lo"], a["hi"] + 1))
            order = [values.pop(pick(range(len(values)))) for _ in range(len(values))]
            lines.append(f"DEFEND {pos} GUESS " + " ".join(map(str, order)))
    if any(c.startswith("ABSORB ") for c in choices):
        armor = [c["name"] for c in hand if c.get("armor")]
        line = ("ABSORB HAND " + ", ".join(armor)
                if armor and any(c.startswith("ABSORB HAND") for c in choices)
                else "ABSORB FROM DECK")
        lines += [line] * (len(attacks) - index)
    return "\n".join(lines)
