"""The designed content (data/*.toml), one set per rules revision, loaded once and kept
read-only.

Everything a designer may tune lives in the data files; this module only reads them and
offers a few typed helpers so the rules never touch TOML structure directly.

The content is part of the rules: a game recorded with one deck or one hero sheet
replays only with that deck and that sheet. So each rules revision has its own content,
chosen in one place, `for_revision(n)` (or `of(state)`, by the state's `rules_revision`),
and the rules reach it through the one context of a resolution (`Ctx.content`), never
through module globals:

* `data/*.toml` is the content of the current revision;
* `data/rev<k>/<file>.toml` is that file as revisions up to k played it. Revision n
  reads each file from the first of `data/rev<n>/`, `data/rev<n+1>/`, ... that holds it,
  else from `data/`. So a revision that changes a file first copies the file as it was
  into `data/rev<previous>/` (README, "Rules revisions"); `data/rev1/` holds decks, tiles
  and heroes as they were before 7a87cfa and e770dcd, byte for byte.

The order language (data/words.toml, and the names of heroes, rings, monsters and tile
kinds it reads) is the same in every revision: orders are recorded parsed, so the words
need no revision, and `check` holds every revision to the same names.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import Any

from games.core.engine import revision_of

DATA = Path(__file__).parent / "data"
CONTENT_FILES = ("heroes", "rings", "monsters", "tiles", "decks", "tables")


def _load(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def _overlays() -> list[int]:
    """The revisions with files of their own (data/rev<k>/), oldest first."""
    return sorted(int(p.name[3:]) for p in DATA.glob("rev*")
                  if p.is_dir() and p.name[3:].isdigit())


def source(name: str, revision: int) -> Path:
    """The file `name` (e.g. "heroes") as rules revision `revision` reads it."""
    for k in _overlays():
        if k >= revision and (DATA / f"rev{k}" / f"{name}.toml").exists():
            return DATA / f"rev{k}" / f"{name}.toml"
    return DATA / f"{name}.toml"


class Content:
    """The tables of one rules revision (read-only by convention: never mutate)."""

    def __init__(self, revision: int) -> None:
        self.revision = revision
        data = {name: _load(source(name, revision)) for name in CONTENT_FILES}
        self.sources = {name: source(name, revision) for name in CONTENT_FILES}
        self.heroes: dict[str, dict[str, Any]] = data["heroes"]
        rings = dict(data["rings"])
        self.ring_pool: list[str] = list(rings.pop("pool"))
        self.rings: dict[str, dict[str, str]] = rings
        self.monsters: dict[str, dict[str, Any]] = data["monsters"]
        self.tiles: dict[str, dict[str, Any]] = {t["id"]: t for t in data["tiles"]["tile"]}
        self.decks: dict[str, dict[str, int]] = data["decks"]
        self.tables: dict[str, Any] = data["tables"]
        self.treasure: dict[str, dict[str, Any]] = self.tables["treasure"]
        self.harm: dict[str, dict[str, Any]] = self.tables["harm"]
        self.reactions: dict[str, list[str]] = self.tables["reactions"]
        self.combat: list[list[int]] = self.tables["combat"]["rolls"]
        self.potions: list[dict[str, Any]] = self.tables["potion"]
        self.tile_kinds = sorted({t["kind"] for t in self.tiles.values()})

    def tile_bag(self) -> list[str]:
        """Every tile id, as many times as its count (sorted: shuffled at setup)."""
        return [tid for tid, t in sorted(self.tiles.items()) for _ in range(t["count"])]

    def deck_cards(self, deck: str) -> list[str]:
        return [card for card, n in sorted(self.decks[deck].items()) for _ in range(n)]

    def hoard_counters(self) -> list[int]:
        return sorted(v for v, n in self.tables["hoard"]["counters"] for _ in range(n))

    def dragon_counters(self) -> list[str]:
        d = self.tables["dragon"]
        return ["fiery"] * d["fiery"] + ["sleeping"] * d["sleeping"]

    def potion_row(self, roll: int) -> dict[str, Any]:
        for row in self.potions:
            lo, hi = row["rolls"]
            if lo <= roll <= hi:
                return row
        raise KeyError(roll)

    def check(self) -> list[str]:
        """Cross-references between the data files (run by the tests)."""
        problems = []
        for key, hero in self.heroes.items():
            if hero["ring"] not in self.rings:
                problems.append(f"hero {key}: unknown ring {hero['ring']}")
        rings = [h["ring"] for h in self.heroes.values()] + self.ring_pool
        if sorted(rings) != sorted(self.rings):
            problems.append("the heroes' rings and the pool must be the seven rings once each")
        for deck, cards in self.decks.items():
            for card in cards:
                what, _, detail = card.partition(":")
                if what in ("treasure",) and detail not in self.treasure:
                    problems.append(f"{deck}: unknown treasure {detail}")
                if what in ("monster", "sneak") and detail not in self.monsters:
                    problems.append(f"{deck}: unknown monster {detail}")
                if what == "trap" and detail and detail not in self.harm:
                    problems.append(f"{deck}: unknown trap {detail}")
        covered = sorted(r for row in self.potions
                         for r in range(row["rolls"][0], row["rolls"][1] + 1))
        if covered != list(range(1, 13)):
            problems.append("the potion table must cover 1..12 once")
        cards = {card for deck in self.decks.values() for card in deck}
        for word, meaning in CONDITION_WORDS.items():
            what, _, detail = meaning.partition(":")
            known = {"monster": self.monsters, "tile": self.tile_kinds,
                     "card": cards}.get(what, ())
            if detail not in known:
                problems.append(f"words.toml: {word} names an unknown {what} {detail!r}")
        if len(self.tile_bag()) != 124:
            problems.append("the tile bag must hold 124 tiles")
        # The order language is shared by every revision (see the module docstring).
        for what, mine, words in (("heroes", self.heroes, HERO_ORDER),
                                  ("rings", self.rings, RING_KEYS),
                                  ("monsters", self.monsters, MONSTER_KEYS),
                                  ("tile kinds", self.tile_kinds, TILE_KINDS)):
            if sorted(mine) != sorted(words):
                problems.append(f"revision {self.revision}: its {what} are not the order "
                                f"language's ({', '.join(sorted(words))})")
        for key, hero in self.heroes.items():
            names = {"name": hero["name"], "title": hero["title"],
                     "aliases": list(hero.get("aliases", []))}
            if names != HERO_NAMES.get(key):
                problems.append(f"revision {self.revision}: hero {key} is called otherwise "
                                f"than in the order language")
        return problems


@functools.cache
def for_revision(revision: int) -> Content:
    """The content of rules revision `revision` (1 = before revisions existed)."""
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 1:
        raise ValueError(f"not a rules revision: {revision!r}")
    return Content(revision)


def of(data: Any) -> Content:
    """The content a game plays with, from its state or its options (no key: revision 1)."""
    return for_revision(revision_of(data))


# -- the order language: the same in every revision ------------------------------------
HERO_ORDER = ["knight", "barbarian", "ranger", "adventurer"]
_CURRENT = {name: _load(DATA / f"{name}.toml") for name in ("heroes", "rings", "monsters", "tiles")}
# What a hero is called (key, name, title, the rulebook's other spellings): HERO orders
HERO_NAMES: dict[str, dict[str, Any]] = {
    key: {"name": h["name"], "title": h["title"], "aliases": list(h.get("aliases", []))}
    for key, h in _CURRENT["heroes"].items()}
RING_KEYS = sorted(k for k in _CURRENT["rings"] if k != "pool")
MONSTER_KEYS = sorted(_CURRENT["monsters"])
TILE_KINDS = sorted({t["kind"] for t in _CURRENT["tiles"]["tile"]})
_WORDS = _load(DATA / "words.toml")
PHRASES: dict[str, str] = _WORDS["phrases"]
CONDITION_WORDS: dict[str, str] = _WORDS["conditions"]


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
