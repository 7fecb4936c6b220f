"""The designed data: map, roster and equipment deck, loaded once from data/*.toml."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

COLOURS = ("black", "red", "blue", "green", "yellow", "white")
"""Colour ratings from worst to best; a colour's value is its index + 1."""

RATINGS = ("melee", "penetration", "aim", "point", "throw", "react", "stealth", "armor",
           "strength", "wits")


def colour_value(colour: str) -> int:
    return COLOURS.index(colour) + 1


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as handle:
        return tomllib.load(handle)


@cache
def characters() -> dict[str, dict[str, Any]]:
    return _load("characters.toml")


@cache
def equipment() -> dict[str, dict[str, Any]]:
    return _load("equipment.toml")


@cache
def guardians() -> dict[str, dict[str, Any]]:
    return _load("guardians.toml")


AGES = ("ancient", "colonial", "modern", "future")


@cache
def map_data() -> dict[str, Any]:
    return _load("map.toml")


def character(key: str) -> dict[str, Any]:
    return characters()[key]


def card(key: str) -> dict[str, Any]:
    return equipment()[key]


def can_use(char_key: str, card_key: str) -> bool:
    """A card's Strength and Wits are the least its user must have."""
    c, e = character(char_key), card(card_key)
    return (colour_value(c["strength"]) >= colour_value(e["strength"])
            and colour_value(c["wits"]) >= colour_value(e["wits"]))
