"""The game's tables, loaded once from data/*.toml: equipment, specialty dice, criticals,
spells.

Everything numeric lives in the data files so that a house rule is a data edit; this
module only gives the tables types and a forgiving name lookup for orders.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

SCORES = ("attack", "dodge", "damage", "armor", "initiative", "maneuver")
"""The six scores of a combat roll, in the order basic die faces 1..6 give them."""

KINDS = ("weapon", "armor", "shield", "charm")


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as fh:
        return tomllib.load(fh)


def name_key(text: str) -> str:
    """Fold spelling variants: case, British 'armour', '&' vs 'and', spaces and dashes."""
    text = text.upper().replace("ARMOUR", "ARMOR").replace("&", " AND ")
    text = re.sub(r"\bTWO\b", "2", text)
    text = re.sub(r"\bHANDED\b", "H", text)
    return re.sub(r"[^A-Z0-9]", "", text)


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    kind: str
    modifiers: dict[str, int]
    hands: int = 1
    ranged: bool = False
    entangle: bool = False
    aliases: tuple[str, ...] = field(default=())
    absent: bool = False  # one of the "no weapon/armour/shield" stand-ins

    @property
    def label(self) -> str:
        return self.name.upper()

    def describe(self) -> str:
        """`Flail (damage +2, initiative -1, attack -1)`: for prompts and reports."""
        mods = ", ".join(f"{k} {v:+d}" for k, v in self.modifiers.items() if v)
        extra = []
        if self.ranged:
            extra.append("opening exchange only")
        if self.hands == 2 and self.kind == "weapon":
            extra.append("two hands")
        if self.entangle:
            extra.append("entangles, no damage")
        if self.kind == "charm":
            extra.append("holds one spell, cast once")
        bits = ", ".join(x for x in [mods, *extra] if x)
        return f"{self.name} ({bits or 'standard'})"


def _item(raw: dict[str, Any], kind: str | None = None, absent: bool = False) -> Item:
    mods = {k: int(v) for k, v in raw.get("modifiers", {}).items()}
    unknown = set(mods) - set(SCORES)
    if unknown:
        raise ValueError(f"equipment {raw['id']}: unknown score {sorted(unknown)}")
    return Item(id=raw["id"], name=raw["name"], kind=kind or raw["kind"], modifiers=mods,
                hands=int(raw.get("hands", 1)), ranged=bool(raw.get("ranged", False)),
                entangle=bool(raw.get("entangle", False)),
                aliases=tuple(raw.get("aliases", ())), absent=absent)


_EQUIPMENT = _load("equipment.toml")
ITEMS: dict[str, Item] = {raw["id"]: _item(raw) for raw in _EQUIPMENT["item"]}
NONE: dict[str, Item] = {kind: _item(raw, kind, absent=True)
                         for kind, raw in _EQUIPMENT["none"].items()}
ALL_ITEMS: dict[str, Item] = {**ITEMS, **{i.id: i for i in NONE.values()}}

CHARM = "spell_charm"
"""The item id of the spell charm; its spell is kept beside the items (see state.py)."""

STANDARD_KIT = ("sword", "medium_shield", "light_armor")
"""What a basic combatant carries when nobody says otherwise."""

_SPECIALTY = _load("specialty.toml")
SPECIALTY: dict[str, str] = {raw["id"]: raw["score"] for raw in _SPECIALTY["die"]}
SPECIALTY_HELP: dict[str, str] = {raw["id"]: raw["help"] for raw in _SPECIALTY["die"]}
SPECIALTY_ORDER = tuple(SPECIALTY)

_CRITICALS = _load("criticals.toml")
CRITICAL_TABLE: dict[int, str] = {int(k): v for k, v in _CRITICALS["table"].items()}
CRITICAL_NAMES: dict[str, str] = {k: v["name"] for k, v in _CRITICALS["effect"].items()}
CRITICAL_LASTING: dict[str, str] = {k: v["lasting"] for k, v in _CRITICALS["effect"].items()}


def _index() -> dict[str, str]:
    index: dict[str, str] = {}
    for item in ALL_ITEMS.values():
        for spelling in (item.name, item.id.replace("_", " "), *item.aliases):
            key = name_key(spelling)
            if index.get(key, item.id) != item.id:
                raise ValueError(f"equipment name {spelling!r} is ambiguous")
            index[key] = item.id
    return index


_INDEX = _index()


def find_item(text: str) -> Item | None:
    """The item a player's words name, or None."""
    found = _INDEX.get(name_key(text))
    return ALL_ITEMS[found] if found else None


def item_hint(text: str) -> str:
    """A did-you-mean for an unknown item, else the list of what can be carried."""
    names = {i.label: i for i in ALL_ITEMS.values()}
    spellings = {name_key(s): i.label for i in ALL_ITEMS.values()
                 for s in (i.name, *i.aliases)}
    close = difflib.get_close_matches(name_key(text), list(spellings), n=1, cutoff=0.7)
    if close:
        return f"did you mean {spellings[close[0]]}?"
    return "choose from: " + ", ".join(sorted(n for n, i in names.items() if not i.absent))


# -- spells -------------------------------------------------------------------
SPELL_KINDS = ("heal", "boost", "dazzle", "cleanse")
CURABLE = ("stunned", "netted", "disarmed", "knocked_down", "bleeding", "hurt_arm",
           "hurt_leg", "broken_armor", "blinded")
"""What a cleanse may end (its data lists which): any lasting effect of the damage dice."""


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    kind: str
    help: str
    dice: int = 0
    bonus: int = 0
    turns: int = 1
    modifiers: dict[str, int] = field(default_factory=dict)
    ends: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.name.upper()

    def describe(self) -> str:
        """`Heal (2d6+2 hit points back, ...)`: for prompts and reports."""
        return f"{self.name} ({self.help})"


def _spell(raw: dict[str, Any]) -> Spell:
    spell = Spell(id=raw["id"], name=raw["name"], kind=raw["kind"], help=raw["help"],
                  dice=int(raw.get("dice", 0)), bonus=int(raw.get("bonus", 0)),
                  turns=int(raw.get("turns", 1)),
                  modifiers={k: int(v) for k, v in raw.get("modifiers", {}).items()},
                  ends=tuple(raw.get("ends", ())), aliases=tuple(raw.get("aliases", ())))
    if spell.kind not in SPELL_KINDS:
        raise ValueError(f"spell {spell.id}: unknown kind {spell.kind!r}")
    if set(spell.modifiers) - set(SCORES):
        raise ValueError(f"spell {spell.id}: unknown score in {sorted(spell.modifiers)}")
    if spell.turns < 1:
        raise ValueError(f"spell {spell.id}: lasts at least the turn it is cast")
    if set(spell.ends) - set(CURABLE):
        raise ValueError(f"spell {spell.id}: cannot end {sorted(spell.ends)}")
    return spell


SPELLS: dict[str, Spell] = {raw["id"]: _spell(raw) for raw in _load("spells.toml")["spell"]}


def _spell_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for spell in SPELLS.values():
        for spelling in (spell.name, spell.id, *spell.aliases):
            key = name_key(spelling)
            if index.get(key, spell.id) != spell.id:
                raise ValueError(f"spell name {spelling!r} is ambiguous")
            index[key] = spell.id
    return index


_SPELL_INDEX = _spell_index()


def find_spell(text: str) -> Spell | None:
    """The spell a player's words name, or None."""
    found = _SPELL_INDEX.get(name_key(text))
    return SPELLS[found] if found else None


def spell_hint(text: str) -> str:
    """A did-you-mean for an unknown spell, else the list of spells."""
    close = difflib.get_close_matches(name_key(text), list(_SPELL_INDEX), n=1, cutoff=0.6)
    if close:
        return f"did you mean {SPELLS[_SPELL_INDEX[close[0]]].label}?"
    return "the spells: " + ", ".join(s.label for s in SPELLS.values())
