"""From thrown dice to the six scores: faces, specialty dice, equipment and wounds.

One function per step so that each rule has one home: `throw` draws the dice,
`tally` counts faces, `modifiers` lists what equipment and lasting effects add, and
`scores` puts them together. Scores are plain sums and may be negative: the rulebook
never floors them, and "No Armor: Armor -2" is meant to let blows hit harder (README,
"Rulings").
"""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase

from .. import catalog
from ..state import basic_dice, worn

Scores = dict[str, int]


def throw(rng: RngBase, label: str, fighter: dict[str, Any], stunned: int) -> dict[str, Any]:
    """Draw a combat roll: the basic dice (fewer when stunned or blinded), then each
    specialty die in the fighter's listed order. Labels say whose dice and which."""
    basic = rng.dice(f"{label}/basic", basic_dice(fighter, stunned), 6)
    special = [[kind, rng.die(f"{label}/{kind}#{i + 1}", 6)]
               for i, kind in enumerate(fighter["specialty"])]
    return {"basic": basic, "specialty": special}


def tally(dice: dict[str, Any]) -> Scores:
    """Basic faces 1..6 give one point each to attack..maneuver; a specialty 1 gives
    one point to its own score."""
    counts = dict.fromkeys(catalog.SCORES, 0)
    for face in dice["basic"]:
        counts[catalog.SCORES[face - 1]] += 1
    for kind, face in dice["specialty"]:
        if face == 1:
            counts[catalog.SPECIALTY[kind]] += 1
    return counts


def gear(fighter: dict[str, Any], weapon_id: str) -> list[catalog.Item]:
    """The equipment that counts this turn: the wielded weapon, the armour and the
    shield, with the no-shield line instead while a two-handed weapon is in use."""
    weapon = catalog.ALL_ITEMS[weapon_id]
    shield = worn(fighter, "shield")
    if weapon.hands == 2:
        shield = catalog.NONE["shield"]
    return [weapon, worn(fighter, "armor"), shield]


def modifiers(fighter: dict[str, Any], weapon_id: str) -> Scores:
    """Everything added to the tally this turn: equipment plus lasting wounds."""
    total = dict.fromkeys(catalog.SCORES, 0)
    for item in gear(fighter, weapon_id):
        for score, delta in item.modifiers.items():
            total[score] += delta
    fx = fighter["effects"]
    total["attack"] -= fx["hurt_arm"] + 2 * fx["disarmed"] + fx["knocked_down"]
    total["damage"] -= fx["hurt_arm"] + 2 * fx["disarmed"] + fx["knocked_down"]
    total["dodge"] -= 2 * fx["hurt_leg"]
    total["maneuver"] -= 2 * fx["hurt_leg"]
    total["armor"] -= fx["broken_armor"]
    return total


def scores(fighter: dict[str, Any], weapon_id: str, dice: dict[str, Any],
           entangled: bool = False, spell: Scores | None = None) -> Scores:
    """Final scores: faces plus modifiers, with no floor (a score may be negative).
    A netted fighter may not dodge: the dodge is never better than zero (a wound that
    pushed it below zero still counts). `spell` holds this turn's modifiers from the
    fighter's own cast (a boost)."""
    mods = modifiers(fighter, weapon_id)
    for score, delta in (spell or {}).items():
        mods[score] += delta
    raw = tally(dice)
    final = {s: raw[s] + mods[s] for s in catalog.SCORES}
    if entangled:
        final["dodge"] = min(0, final["dodge"])
    return final


RECOVERY_MANEUVER = 2
"""Maneuver rolled this high lets a disarmed or knocked-down fighter recover."""


def rolled_maneuver(dice: dict[str, Any]) -> int:
    """The maneuver the dice show, before any modifier: basic 6s plus maneuver
    specialty dice on 1. Recovery asks what the player *rolls*, so equipment (no armour,
    no shield: +1 each), wounds and spells do not count toward it."""
    return tally(dice)["maneuver"]


def recovers(fighter: dict[str, Any], dice: dict[str, Any]) -> list[str]:
    """Which of disarm/knockdown the combat roll shakes off (in the maneuver phase,
    before blows are exchanged, so the same turn's attack is already free of them)."""
    fx = fighter["effects"]
    if rolled_maneuver(dice) < RECOVERY_MANEUVER:
        return []
    return [k for k in ("disarmed", "knocked_down") if fx[k]]
