"""The damage dice: 2d6 after a blow that costs hit points, and what each result does.

Effects are written onto the victim's `effects` and take hold from the next combat
roll (this turn's scores are already thrown); bleeding starts on the next turn too.
"""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase

from .. import catalog

MAX_ROLLS = 20
"""A chain of double criticals is cut off here. Each double needs a 4 on 2d6 (1 in 12)
and adds one roll net, so the cap is reached only with ten doubles among the first
nineteen rolls: about once in 7 million wounds."""


def apply(effect: str, fx: dict[str, Any], rng: RngBase, label: str, turn: int
          ) -> dict[str, Any]:
    """Write one effect onto `fx`; return what the report needs to say about it."""
    note: dict[str, Any] = {"effect": effect}
    if effect == "bleeding":
        turns = rng.die(f"{label}/bleeding", 6)
        fx["bleeding"].append({"turns": turns, "since": turn})
        note["turns"] = turns
    elif effect == "hurt_arm":
        fx["hurt_arm"] += 1
    elif effect == "disarm":
        fx["disarmed"] = True
    elif effect == "stunned":
        fx["stun_next"] += 1
    elif effect == "knockdown":
        fx["knocked_down"] = True
    elif effect == "break_armor":
        fx["broken_armor"] += 1
    elif effect == "hurt_leg":
        fx["hurt_leg"] += 1
    elif effect == "blinded":
        fx["blinded"] += 1
    elif effect not in ("none", "double"):
        raise ValueError(f"unknown critical effect {effect!r}")
    return note


def roll(rng: RngBase, label: str, fx: dict[str, Any], turn: int) -> list[dict[str, Any]]:
    """Roll the damage dice, following double criticals; one note per roll."""
    notes: list[dict[str, Any]] = []
    pending = 1
    while pending and len(notes) < MAX_ROLLS:
        pending -= 1
        dice = rng.dice(f"{label}/damage-dice", 2, 6)
        effect = catalog.CRITICAL_TABLE[sum(dice)]
        note = apply(effect, fx, rng, label, turn)
        notes.append({"dice": dice, **note})
        if effect == "double":
            pending += 2
    return notes


def conditions(fx: dict[str, Any]) -> list[str]:
    """The lasting effects on a fighter, in words, for reports and views."""
    out: list[str] = []
    if fx["stun_next"]:
        out.append(f"stunned: {fx['stun_next']} basic "
                   f"{'die' if fx['stun_next'] == 1 else 'dice'} fewer next turn")
    if fx["entangled_next"]:
        out.append("caught in a net: cannot hit or dodge next turn")
    if fx["disarmed"]:
        out.append("disarmed: attack and damage -2 until 2+ maneuver rolled")
    if fx["knocked_down"]:
        out.append("knocked down: attack and damage -1 until 2+ maneuver rolled")
    if fx["hurt_arm"]:
        out.append(f"hurt arm x{fx['hurt_arm']}: attack and damage -{fx['hurt_arm']}")
    if fx["hurt_leg"]:
        out.append(f"hurt leg x{fx['hurt_leg']}: dodge and maneuver -{2 * fx['hurt_leg']}")
    if fx["broken_armor"]:
        out.append(f"armour broken x{fx['broken_armor']}: armour -{fx['broken_armor']}")
    if fx["blinded"]:
        out.append(f"blinded x{fx['blinded']}: {3 * fx['blinded']} basic dice fewer")
    for wound in fx["bleeding"]:
        span = "next turn" if wound["turns"] == 1 else f"next {wound['turns']} turns"
        out.append(f"bleeding: 1 hit point lost in each of the {span}")
    return out
