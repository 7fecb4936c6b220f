"""The three champions' decks, loaded once from data/*.toml.

A card in play is an id string "<champion>:<nn>" (nn = its position in the expanded
30-card list, zero-padded so that string order is deck-list order). Everything about
a card (name, defence values, attacks, special) is looked up here from the id, so the
state holds nothing but ids.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
ATTACK_TYPES = ("slash", "stab", "blunt")
DIE_SIDES = 6
ARMOR = "Armor"
CHAMPION_ORDER = ("isdra", "nathrax", "harys")

# Our own one-line summaries of each special, for views, prompts and reports.
SPECIALS = {
    "follow_up": "guesses -1 if the card you discarded this turn had a Stab attack",
    "feint": ("guesses -1 if the card you discarded this turn had no Stab attack"
              " (nothing discarded: no effect)"),
    "power_up": "after it attacks you gain a +3 token for your next hit",
    "spear_charge": ("a hit must be absorbed from the deck, not the hand; damage beyond "
                     "deck and discard pile wins the duel"),
    "disarming": "a block with this card gives the attacker a Disarmed! token (-3 damage)",
    "tripping": "a hit makes the defender swap their right-most card for a deck card",
    "second_sight": "a block with this card turns the attacker's whole queue face up",
    "blinding_light": ("a block with this card Blinds the attacker (-2 guesses against "
                       "the first attack of your next attack on them)"),
    "spiritual_guardian": "while face up in your queue, damage to you is 2 lower",
    "spirit_twin": "attacks with the next card in your queue instead",
}

_ATTACK = re.compile(r"^(\d)-(\d)\+(\d) (slash|stab|blunt)$")


@dataclass(frozen=True)
class Attack:
    lo: int
    hi: int
    mod: int
    kind: str

    def label(self) -> str:
        return f"({self.lo}-{self.hi})+{self.mod} {self.kind.title()}"

    def to_json(self) -> dict[str, int | str]:
        return {"lo": self.lo, "hi": self.hi, "mod": self.mod, "type": self.kind}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    armor: bool
    defence: dict[str, int]
    attacks: tuple[Attack, ...]
    special: str = ""

    def face(self) -> dict[str, object]:
        """What a player sees printed on the card (used by views)."""
        data: dict[str, object] = {"name": self.name}
        if self.armor:
            data["armor"] = True
            return data
        data["defence"] = dict(self.defence)
        data["attacks"] = [a.label() for a in self.attacks]
        if self.special:
            data["special"] = SPECIALS[self.special]
        return data

    def has_stab(self) -> bool:
        return any(a.kind == "stab" for a in self.attacks)


@dataclass(frozen=True)
class Champion:
    key: str
    name: str
    epithet: str
    cards: tuple[Card, ...]

    def ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def names(self) -> list[str]:
        return sorted({c.name for c in self.cards})


def _parse_attack(text: str) -> Attack:
    match = _ATTACK.match(text)
    if not match:
        raise ValueError(f"bad attack formula {text!r}")
    lo, hi, mod = int(match.group(1)), int(match.group(2)), int(match.group(3))
    if not 1 <= lo <= hi <= DIE_SIDES:
        raise ValueError(f"attack range {text!r} is not on the die")
    return Attack(lo, hi, mod, match.group(4))


def _load(key: str) -> Champion:
    raw = tomllib.loads((DATA / f"{key}.toml").read_text(encoding="utf-8"))
    cards: list[Card] = []
    for entry in raw["cards"]:
        defence = {t: int(entry["defence"][t]) for t in ATTACK_TYPES}
        if any(not 0 <= v <= 4 for v in defence.values()):
            raise ValueError(f"{entry['name']}: defence values run 0-4")
        special = entry.get("special", "")
        if special and special not in SPECIALS:
            raise ValueError(f"{entry['name']}: unknown special {special!r}")
        attacks = tuple(_parse_attack(a) for a in entry.get("attacks", []))
        for _ in range(int(entry["count"])):
            cards.append(Card(f"{key}:{len(cards):02d}", entry["name"], False, defence,
                              attacks, special))
    if len(cards) != 20:
        raise ValueError(f"{key}: {len(cards)} maneuver cards, want 20")
    for _ in range(int(raw["armor"])):
        cards.append(Card(f"{key}:{len(cards):02d}", ARMOR, True,
                          {t: 0 for t in ATTACK_TYPES}, ()))
    return Champion(raw["key"], raw["name"], raw["epithet"], tuple(cards))


@cache
def champions() -> dict[str, Champion]:
    return {key: _load(key) for key in CHAMPION_ORDER}


@cache
def _by_id() -> dict[str, Card]:
    return {c.id: c for champ in champions().values() for c in champ.cards}


def card(card_id: str) -> Card:
    return _by_id()[card_id]


def name(card_id: str) -> str:
    return card(card_id).name


def champion_of(card_id: str) -> Champion:
    return champions()[card_id.split(":", 1)[0]]


def is_armor(card_id: str) -> bool:
    return card(card_id).armor


def match_name(text: str, names: list[str]) -> str | None:
    """The canonical card name for `text` (case and spacing ignored), or None."""
    wanted = " ".join(text.split()).lower()
    for candidate in names:
        if candidate.lower() == wanted:
            return candidate
    return None
