"""The designed content (data/*.toml), loaded once at import and kept read-only.

Everything a designer may tune lives in the data files; this module only reads them and
offers a few typed helpers so the rules never touch TOML structure directly.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as fh:
        return tomllib.load(fh)


HEROES: dict[str, dict[str, Any]] = _load("heroes.toml")
HERO_ORDER = ["knight", "barbarian", "ranger", "adventurer"]
_RINGS = _load("rings.toml")
RING_POOL: list[str] = list(_RINGS.pop("pool"))
RINGS: dict[str, dict[str, str]] = _RINGS
MONSTERS: dict[str, dict[str, Any]] = _load("monsters.toml")
TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in _load("tiles.toml")["tile"]}
DECKS: dict[str, dict[str, int]] = _load("decks.toml")
TABLES: dict[str, Any] = _load("tables.toml")
TREASURE: dict[str, dict[str, Any]] = TABLES["treasure"]
HARM: dict[str, dict[str, Any]] = TABLES["harm"]
REACTIONS: dict[str, list[str]] = TABLES["reactions"]
COMBAT: list[list[int]] = TABLES["combat"]["rolls"]
POTIONS: list[dict[str, Any]] = TABLES["potion"]
_WORDS = _load("words.toml")
PHRASES: dict[str, str] = _WORDS["phrases"]
CONDITION_WORDS: dict[str, str] = _WORDS["conditions"]

TILE_KINDS = sorted({t["kind"] for t in TILES.values()})


def tile_bag() -> list[str]:
    """Every tile id, as many times as its count (sorted: shuffled at setup)."""
    return [tid for tid, t in sorted(TILES.items()) for _ in range(t["count"])]


def deck_cards(deck: str) -> list[str]:
    return [card for card, n in sorted(DECKS[deck].items()) for _ in range(n)]


def hoard_counters() -> list[int]:
    return sorted(v for v, n in TABLES["hoard"]["counters"] for _ in range(n))


def dragon_counters() -> list[str]:
    d = TABLES["dragon"]
    return ["fiery"] * d["fiery"] + ["sleeping"] * d["sleeping"]


def potion_row(roll: int) -> dict[str, Any]:
    for row in POTIONS:
        lo, hi = row["rolls"]
        if lo <= roll <= hi:
            return row
    raise KeyError(roll)


_SPEC = re.compile(r"^(?:(\d*)d(\d+))?([+-]\d+|[+-][a-z]+)?$|^(\d+)$")


def parse_spec(spec: str) -> tuple[int, int, int | str]:
    """A dice spec: "d6" -> (1, 6, 0), "d12-armour" -> (1, 12, "-armour"), "4" -> (0, 0, 4)."""
    m = _SPEC.match(spec)
    if not m:
        raise ValueError(f"bad dice spec {spec!r}")
    if m.group(4):
        return 0, 0, int(m.group(4))
    count = int(m.group(1) or 1) if m.group(2) else 0
    sides = int(m.group(2) or 0)
    mod = m.group(3) or "0"
    try:
        return count, sides, int(mod)
    except ValueError:
        return count, sides, mod


def check() -> list[str]:
    """Cross-references between the data files (run by the tests)."""
    problems = []
    for key, hero in HEROES.items():
        if hero["ring"] not in RINGS:
            problems.append(f"hero {key}: unknown ring {hero['ring']}")
    rings = [h["ring"] for h in HEROES.values()] + RING_POOL
    if sorted(rings) != sorted(RINGS):
        problems.append("the heroes' rings and the pool must be the seven rings once each")
    for deck, cards in DECKS.items():
        for card in cards:
            what, _, detail = card.partition(":")
            if what in ("treasure",) and detail not in TREASURE:
                problems.append(f"{deck}: unknown treasure {detail}")
            if what in ("monster", "sneak") and detail not in MONSTERS:
                problems.append(f"{deck}: unknown monster {detail}")
            if what == "trap" and detail and detail not in HARM:
                problems.append(f"{deck}: unknown trap {detail}")
    covered = sorted(r for row in POTIONS for r in range(row["rolls"][0], row["rolls"][1] + 1))
    if covered != list(range(1, 13)):
        problems.append("the potion table must cover 1..12 once")
    cards = {card for deck in DECKS.values() for card in deck}
    for word, meaning in CONDITION_WORDS.items():
        what, _, detail = meaning.partition(":")
        known = {"monster": MONSTERS, "tile": TILE_KINDS, "card": cards}.get(what, ())
        if detail not in known:
            problems.append(f"words.toml: {word} names an unknown {what} {detail!r}")
    if len(tile_bag()) != 124:
        problems.append("the tile bag must hold 124 tiles")
    return problems
