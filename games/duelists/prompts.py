"""The order-form prompt each owing seat gets: title, help, legal choices, an example.

Choices are complete orders (one-click picks) or forms written
"FORM — what it does (e.g. EXAMPLE)" (gm/web/prompts.py reads that shape); every form's
example is an order the seat could send now (tests/games/duelists/test_prompts.py).
Guess counts are the ones that will count: the defending card's printed value less
what Feint, Follow Up Attack and Blinded! take away.
"""

from __future__ import annotations

from typing import Any

from . import cards
from .bots import default_lines
from .orders import available_champions, cards_in_hand, left_locked, open_defends, open_sets
from .orders import plan_open as _plan_open
from .rules.attack import label
from .rules.specials import guess_reductions, hand_absorb_allowed
from .state import State, player, role

EXCHANGE_FORMS = [
    "EXHAUST ARMOR <n>|ALL — at the start of the turn, exhaust armor cards from your hand "
    "and draw one card for each; never more than are left to draw (e.g. EXHAUST ARMOR ALL)",
    "IF DECK > <n> THEN EXHAUST ARMOR ALL — the same, only while more than n cards are "
    "left to draw in deck and discard pile (e.g. IF DECK > 6 THEN EXHAUST ARMOR ALL)",
]
STANDING_FORMS = [
    "STANDING <order> — SET, DEFEND, ABSORB or EXHAUST ARMOR kept for every later turn, "
    "after that turn's own lines (e.g. STANDING ABSORB FROM DECK)",
    "CANCEL STANDING <n>|ALL — drop one standing order (numbered as in your view) or all "
    "(e.g. CANCEL STANDING ALL)",
]


def champion_line(champ: cards.Champion) -> str:
    """One line on what a champion's deck is like, from its data: the choice offered only
    names ("CHAMPION Isdra"), and a new player had to leave for the README to choose.
    Public: every champion's deck list is printed in the README."""
    maneuvers = [c for c in champ.cards if not c.armor]
    armor = len(champ.cards) - len(maneuvers)
    kinds: dict[str, int] = {}
    for c in maneuvers:
        for a in c.attacks:
            kinds[a.kind] = kinds.get(a.kind, 0) + 1
    attacks = ", ".join(f"{n} {k.title()}" for k, n in
                        sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    guard = {t: sum(c.defence[t] for c in maneuvers) for t in cards.ATTACK_TYPES}
    best = " and ".join(t.title() for t in cards.ATTACK_TYPES
                        if guard[t] == max(guard.values()))
    worst = " and ".join(t.title() for t in cards.ATTACK_TYPES
                         if guard[t] == min(guard.values()))
    counts: dict[str, int] = {}
    for c in maneuvers:
        counts[c.name] = counts.get(c.name, 0) + 1
    deck = ", ".join(f"{n} x{k}" if k > 1 else n for n, k in counts.items())
    return (f"CHAMPION {champ.name}, {champ.epithet}: {len(maneuvers)} maneuver cards and "
            f"{armor} armor; attacks {attacks}; defends best against {best}, "
            f"worst against {worst}. Cards: {deck}.")


def prompt(state: State, seat: str) -> dict[str, Any]:
    kind = state["awaiting"][seat]
    example = "\n".join(default_lines(state, seat))
    if kind == "champion":
        return {"title": "Choose your champion",
                "help": "\n".join(["The other duelist attacks first; you pick before them."]
                                  + [champion_line(cards.champions()[k])
                                     for k in available_champions(state)]),
                "choices": [f"CHAMPION {cards.champions()[k].name}"
                            for k in available_champions(state)], "example": example}
    hand = sorted(set(cards_in_hand(state, seat)))
    if kind == "queue":
        return {"title": "Lay three cards face down in your queue",
                "help": ("Name three hand cards, left-most first; the left-most acts first. "
                         "One line (QUEUE a, b, c) or one QUEUE line per card."),
                "choices": [f"QUEUE {c}" for c in hand] + [
                    f"QUEUE <card>, <card>, <card> — left-most first (e.g. {example})"],
                "example": example}
    turn = state["turn"]
    attacks = ", then ".join(label(a) for a in turn["attacks"])
    choices: list[str] = []
    if role(state, seat) == "attacker":
        title = (f"Round {turn['number']}: you attack with {attacks}" if attacks else
                 f"Round {turn['number']}: your left-most card has no attack")
        help_text, choices = _attacker(state, kind, hand)
    else:
        title = f"Round {turn['number']}: you are attacked ({attacks})"
        help_text, choices = _defender(state, seat, kind, hand)
    if kind in ("set", "defend", "absorb", "plan"):
        title = f"Decision arising: {title}"
        cur = turn.get("cur")
        if kind == "absorb" and cur:
            help_text = f"You take {cur['damage']} damage. " + help_text
        if kind == "set" and cur:
            help_text = (f"The defender chose {cur['pos']} ({cards.name(cur['card'])}, "
                         f"{cur['allowed']} {'guess' if cur['allowed'] == 1 else 'guesses'}). " + help_text)
        help_text += (f" This answer needs a {kind.upper()} order; other lines may come "
                      "with it.")
    choices += EXCHANGE_FORMS + STANDING_FORMS
    return {"title": title, "help": help_text, "choices": choices, "example": example}


def _attacker(state: State, kind: str, hand: list[str]) -> tuple[str, list[str]]:
    turn = state["turn"]
    choices: list[str] = []
    parts: list[str] = []
    if kind in ("turn", "plan") and _plan_open(state):
        choices += [f"PLAN {c}" for c in hand]
        parts.append("PLAN the card that goes face down on the right of your queue.")
    elif turn["first"]:
        parts.append("Your first turn skips preparation and planning: nothing to PLAN.")
    sets = open_sets(state) if kind in ("turn", "set") else []
    if sets:
        for a in sets:
            choices += [f"SET {n}" for n in range(a["lo"], a["hi"] + 1)]
        a = sets[0]
        lo, hi = a["lo"], a["hi"]
        choices += [
            f"IF DEFEND LEFT THEN SET <n> ELSE SET <n> — the die depends on the card the "
            f"defender picks (e.g. IF DEFEND LEFT THEN SET {hi} ELSE SET {lo})",
            f"IF GUESSES < <n> THEN SET <n> ELSE SET <n> — ... or on how many guesses they "
            f"get (e.g. IF GUESSES < 2 THEN SET {hi} ELSE SET {lo})",
        ]
        parts.append(f"SET the die {lo}-{hi} for each attack, one line per attack in order"
                     + (" (this card attacks twice)" if len(sets) > 1 else "")
                     + "; the defender picks the defending card before the die is set, so "
                     "SET may depend on DEFEND LEFT/SECOND or on GUESSES.")
    elif not turn["attacks"]:
        parts.append("Your left-most card has no attack formula: no attack this turn.")
    return " ".join(parts), choices


def _guess_form(state: State, seat: str, attack: dict[str, Any], pos: str, index: int
                ) -> str:
    slot = player(state, seat)["queue"][index]
    card = cards.card(slot["card"])
    first = state["turn"]["index"] == 0 and not state["turn"].get("cur")
    cuts = guess_reductions(state, attack, first)
    kind = attack["type"].title()
    if card.armor:
        return (f"DEFEND {pos} GUESS <numbers from {attack['lo']}-{attack['hi']}> — your "
                f"{pos.lower()} card is Armor: revealed, it is exhausted and replaced from "
                f"your deck, and the new card's {kind} value counts "
                f"(e.g. DEFEND {pos} GUESS {attack['lo']})")
    base = card.defence[attack["type"]]
    allowed = max(0, base - sum(n for _, n in cuts))
    why = f"{card.name}, {kind} {base}" + "".join(f", -{n} {reason}" for reason, n in cuts)
    guesses = " ".join(str(n) for n in range(attack["lo"], attack["lo"] + allowed))
    example = f"DEFEND {pos} GUESS {guesses}" if guesses else f"DEFEND {pos}"
    token = ", puts the Defended! token on it" if pos == "SECOND" else ""
    return (f"DEFEND {pos} GUESS <{allowed} number(s) from {attack['lo']}-{attack['hi']}> — "
            f"{why}: {allowed} {'guess' if allowed == 1 else 'guesses'}{token} (e.g. {example})")


def _defender(state: State, seat: str, kind: str, hand: list[str]) -> tuple[str, list[str]]:
    turn = state["turn"]
    choices: list[str] = []
    parts: list[str] = []
    defends = open_defends(state) if kind in ("turn", "defend") else []
    if defends:
        a = defends[0]
        for pos, index in (("LEFT", 0), ("SECOND", 1)):
            if pos == "LEFT" and left_locked(state, seat):
                continue
            choices.append(_guess_form(state, seat, a, pos, index))
        parts.append("DEFEND with your LEFT or SECOND card, one line per attack in order; "
                     "list guesses best first (extra ones are ignored, missing ones are "
                     "the lowest numbers left)."
                     + (" Your left-most card holds the Defended! token: defend SECOND."
                        if left_locked(state, seat) else ""))
    hits = turn["attacks"][turn["index"]:]
    if kind in ("turn", "defend", "absorb") and hits:
        if hand_absorb_allowed(hits[0]):
            choices += ["ABSORB FROM DECK"] + [f"ABSORB HAND {c}" for c in hand]
            # The examples name cards this seat holds (armor first), never a stock one.
            held = sorted(hand, key=lambda c: c != cards.ARMOR)[:2]
            if held:
                choices += [
                    "ABSORB HAND <card>, <card> — these hand cards are exhausted first, in "
                    "the order named, the rest of the damage off the deck (e.g. ABSORB HAND "
                    f"{', '.join(held)})",
                    "IF DAMAGE > <n> THEN ABSORB HAND <cards> ELSE ABSORB FROM DECK — "
                    "decided by the hit's damage (e.g. IF DAMAGE > 4 THEN ABSORB HAND "
                    f"{held[0]} ELSE ABSORB FROM DECK)",
                ]
            choices += [
                "EXHAUST ARMOR <n>|ALL BEFORE ABSORB — once the hit's damage is known, trade "
                "armor for fresh cards, keeping the armor named by ABSORB HAND <cards> (e.g. "
                "EXHAUST ARMOR ALL BEFORE ABSORB)",
                "IF DAMAGE > <n> THEN EXHAUST ARMOR ALL BEFORE ABSORB — the same, decided by "
                "the damage (e.g. IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB)",
            ]
            parts.append("ABSORB says which hand cards soak a hit's damage (one line per "
                         "hit); the rest comes off the deck. STANDING ABSORB ... keeps an "
                         "answer for every hit. EXHAUST ARMOR ... BEFORE ABSORB trades armor "
                         "for fresh cards once the damage is known, keeping the armor "
                         "named by ABSORB HAND <cards>.")
        else:
            choices.append("ABSORB FROM DECK")
            parts.append("A Spear Charge hit comes off your deck, never your hand; damage "
                         "beyond your deck and discard pile loses the duel.")
    return " ".join(parts), choices
