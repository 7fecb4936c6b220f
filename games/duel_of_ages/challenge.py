"""Challenge rolls: a colour against a colour gives a number, two dice rate the success."""

from __future__ import annotations

from games.core.rng import RngBase

from .catalog import colour_value

LEVELS = ("FOPP", "FAIL", "SQUEAK", "PASS", "AMAZE")


def challenge_number(mine: str, theirs: str, modifier: int = 0) -> int:
    """7 for equal colours, one up or down per step of difference, kept within 2..12."""
    return max(2, min(12, 7 + colour_value(mine) - colour_value(theirs) + modifier))


def success(number: int, roll: int) -> str:
    """Low rolls are good: a 2 always amazes and a 12 always fopps."""
    if roll == 2:
        return "AMAZE"
    if roll == 12:
        return "FOPP"
    margin = number - roll
    if margin >= 4:
        return "AMAZE"
    if margin >= 1:
        return "PASS"
    if margin == 0:
        return "SQUEAK"
    if margin >= -3:
        return "FAIL"
    return "FOPP"


def succeeded(level: str) -> bool:
    return LEVELS.index(level) >= LEVELS.index("SQUEAK")


def roll(rng: RngBase, label: str, number: int) -> dict[str, object]:
    """Roll 2d6 against `number`; the result is a plain record for events."""
    dice = rng.dice(label, 2, 6)
    total = dice[0] + dice[1]
    return {"number": number, "dice": dice, "roll": total, "level": success(number, total)}


DAMAGE_SHIFT = {"FOPP": None, "FAIL": -2, "SQUEAK": -1, "PASS": 0, "AMAZE": 1}


def damage_for(level: str, damage: int) -> int:
    shift = DAMAGE_SHIFT[level]
    return 0 if shift is None else max(0, damage + shift)
