"""Bonus abilities: a character's own (characters.toml) and those a shown gadget grants
while carried (equipment.toml). One place answers "how much of ability X does he have"."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of

from .. import catalog
from ..state import State

KINDS = ("first_strike", "move_cost", "hit_bonus", "dread", "dodge", "guardian_bonus",
         "tower_bonus", "opfire_bonus", "medic", "regenerate", "carry", "slippery",
         "tunnel_rat", "marksman")
"""Every ability the data may name; each is a rule implemented where it applies."""


def sources(state: State, char: str) -> list[dict[str, Any]]:
    """His own abilities, then those of every shown, usable gadget he carries."""
    out = [catalog.character(char).get("abilities", {})]
    for entry in state["chars"][char]["cards"]:
        card = catalog.card(entry["card"])
        if card["kind"] == "gadget" and entry["revealed"] and catalog.can_use(char, entry["card"]):
            out.append(card["ability"])
    return out


def value(state: State, char: str, name: str) -> int:
    """A numeric ability (0 when he lacks it); several sources add up."""
    return sum(int(s.get(name, 0)) for s in sources(state, char))


def has(state: State, char: str, name: str) -> bool:
    return value(state, char, name) > 0


def moves_by(state: State, char: str, name: str) -> bool:
    """A special movement ability (slippery, tunnel_rat): like special move costs, it is
    not used while riding a mount (rules revision 3; before, only move costs were)."""
    if state["chars"][char].get("mount") and revision_of(state) >= 3:
        return False
    return has(state, char, name)


def move_costs(state: State, char: str) -> dict[str, int]:
    """Special movement: terrain -> cost, the cheapest source winning. Lost while
    riding a mount (the rulebook's Amazon on the chariot pays 3 for swamp)."""
    if state["chars"][char].get("mount"):
        return {}
    out: dict[str, int] = {}
    for source in sources(state, char):
        for terrain, cost in source.get("move_cost", {}).items():
            out[terrain] = min(cost, out.get(terrain, cost))
    return out


def hit_bonus(state: State, char: str, weapon: str | None) -> int:
    """+n to Hit with a weapon of a group he is good with ("natural" for bare hands)."""
    group = "natural" if weapon is None else catalog.card(weapon).get("group")
    return sum(int(s.get("hit_bonus", {}).get(group, 0)) for s in sources(state, char))
