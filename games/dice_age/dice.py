"""The dice catalogue (data/dice.toml) and how a face is read.

A face is stored as it is printed: a number, a Roman numeral, an icon name, or "A|B" for
a die that can come to rest between two sides. `read(face)` turns that into what the
rules care about, so no other module has to know the notation.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ICONS = ("pit", "nut", "triangle", "smile", "double-arrow", "square", "blank", "chaos",
         "cross", "cannon", "gear", "radiation", "roman")
COLOURS = ("yellow", "green", "red", "orange", "white")
SUSPENDING = ("nut", "smile", "double-arrow", "square", "gear")
"""Icons whose die goes to the Ledges (suspended) until its effect is used."""
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8,
         "IX": 9, "X": 10, "XI": 11, "XII": 12, "XIII": 13, "XIV": 14, "XV": 15,
         "XVI": 16, "XVII": 17, "XVIII": 18, "XIX": 19, "XX": 20}

Face = int | str


@dataclass(frozen=True)
class Die:
    id: str
    name: str
    colour: str
    shape: str
    level1: bool
    faces: tuple[Face, ...]
    flip: tuple[int, ...] = ()
    """For each face (1-based), the face a Gear turns the die onto: its bottom side."""
    value: int = 0
    """Designed point value (level 7 Legions, "per un pugno di dadi"); see the README."""

    def numbers(self) -> list[int]:
        """Every number this die can show (both sides of a balanced face count)."""
        out: list[int] = []
        for face in self.faces:
            for side in sides(face):
                kind, value = read(side)
                if kind == "number":
                    out.append(int(value))
        return out

    @property
    def average(self) -> int:
        """Mean of the number sides, rounded down: what a cautious player compares."""
        nums = self.numbers()
        return sum(nums) // len(nums) if nums else 0


def sides(face: Face) -> list[Face]:
    """The sides a face may be read as: one, or two for a die resting on an edge."""
    if isinstance(face, str) and "|" in face:
        return [_parse_side(part) for part in face.split("|")]
    return [face]


def _parse_side(text: str) -> Face:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() else text


def read(face: Face) -> tuple[str, int | str]:
    """("number", n) for numbers and Roman numerals, ("icon", name) for icons."""
    if isinstance(face, int):
        return "number", face
    if face in ROMAN:
        return "number", ROMAN[face]
    if face in ICONS:
        return "icon", face
    raise ValueError(f"unreadable face {face!r}")


def is_balanced(face: Face) -> bool:
    return len(sides(face)) > 1


def face_text(face: Face) -> str:
    """How a face is written in orders and reports (icons upper-case)."""
    return str(face).upper()


def _load() -> dict[str, Die]:
    raw: dict[str, Any] = tomllib.loads((Path(__file__).parent / "data" / "dice.toml")
                                        .read_text(encoding="utf-8"))
    catalogue: dict[str, Die] = {}
    for entry in raw["die"]:
        die = Die(entry["id"], entry["name"], entry["colour"], entry["shape"],
                  bool(entry["level1"]), tuple(entry["faces"]), tuple(entry["flip"]),
                  int(entry["value"]))
        if len(die.flip) != len(die.faces) \
                or any(not 1 <= f <= len(die.faces) for f in die.flip):
            raise ValueError(f"die {die.id}: flip must name a face for every face")
        if die.id in catalogue:
            raise ValueError(f"die {die.id} listed twice")
        if die.colour not in COLOURS:
            raise ValueError(f"die {die.id}: unknown colour {die.colour}")
        for face in die.faces:
            for side in sides(face):
                read(side)
        catalogue[die.id] = die
    return catalogue


DICE: dict[str, Die] = _load()


def dice_for_level(level: int) -> list[str]:
    """The dice a game at this level plays with, in catalogue order (white from level 5)."""
    from .levels import level_rules
    lv = level_rules(level)
    return [d.id for d in DICE.values()
            if (lv.all_dice or d.level1) and (lv.white_dice or d.colour != "white")]


def die_type(die: str) -> str:
    """The catalogue id of a die in play: level 7 names a second copy CASTLE2 and so on."""
    return die.rstrip("0123456789")


def spec(die: str) -> Die:
    """The catalogue entry of a die in play (copies share their type's entry)."""
    return DICE[die_type(die)]
