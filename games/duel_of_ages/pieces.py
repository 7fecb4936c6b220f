"""The map pieces (data/pieces.toml) and how placed pieces become a map.

A map is built on a lattice of sites (FRAME x FRAME), each 4 x 4 spaces: a platter
covers 2 x 2 sites, a key one. Sites are named like spaces, column letter + row number
("C3"). This module knows the geometry of the lattice (what touches what, which empty
sites are nooks, crannies or notches) and assembles a placement into the map format
hexmap reads; the order of the build and whose turn it is belong to rules/build.py."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from .catalog import _load

SITE = 4
FRAME = 6
Site = tuple[int, int]
Placement = dict[str, dict[str, list[int]]]
"""{"platters": {name: [col, row]}, "dome_keys": {...}, "labyrinths": {age: [col, row]}}
with the top-left site of each piece."""


@cache
def pieces() -> dict[str, Any]:
    return _load("pieces.toml")


def site_name(site: Site) -> str:
    return f"{chr(65 + site[0])}{site[1] + 1}"


def parse_site(name: str) -> Site | None:
    name = name.upper()
    if len(name) < 2 or not name[1:].isdigit():
        return None
    site = (ord(name[0]) - 65, int(name[1:]) - 1)
    return site if 0 <= site[0] < FRAME and 0 <= site[1] < FRAME else None


def footprint(kind: str, at: Site) -> list[Site]:
    """The sites a piece covers when its top-left site is `at`."""
    c, r = at
    return [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)] if kind == "platters" else [(c, r)]


def occupied(placement: Placement) -> dict[Site, tuple[str, str]]:
    out: dict[Site, tuple[str, str]] = {}
    for kind in ("platters", "dome_keys", "labyrinths"):
        for name, at in placement.get(kind, {}).items():
            for site in footprint(kind, (at[0], at[1])):
                out[site] = (kind, name)
    return out


def sides(site: Site) -> list[Site]:
    c, r = site
    return [(c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)]


def in_frame(site: Site) -> bool:
    return 0 <= site[0] < FRAME and 0 <= site[1] < FRAME


def fits(placement: Placement, kind: str, at: Site) -> str | None:
    """Why a piece cannot go there (None: it can): inside the frame, on empty sites,
    hooked to the map along a side (the first piece may go anywhere)."""
    taken = occupied(placement)
    spots = footprint(kind, at)
    if not all(in_frame(s) for s in spots):
        return "it would stick out of the table"
    if any(s in taken for s in spots):
        return "it would cover a piece already placed"
    if taken and not any(n in taken for s in spots for n in sides(s)):
        return "it must hook onto the map"
    return None


def gaps(placement: Placement) -> dict[str, list[Site]]:
    """Empty sites beside the map: a nook (a hole: three or four sides on the map), a
    cranny (between two platters), a notch (beside a platter otherwise)."""
    taken = occupied(placement)
    out: dict[str, list[Site]] = {"nook": [], "cranny": [], "notch": []}
    for c in range(FRAME):
        for r in range(FRAME):
            site = (c, r)
            if site in taken:
                continue
            around = [taken[n] for n in sides(site) if n in taken]
            platters = {name for kind, name in around if kind == "platters"}
            if len(around) >= 3:
                out["nook"].append(site)
            elif len(platters) >= 2:
                out["cranny"].append(site)
            elif platters:
                out["notch"].append(site)
    return out


def holes(placement: Placement) -> int:
    g = gaps(placement)
    return len(g["nook"]) + len(g["cranny"])


def entrance_side(placement: Placement, at: Site) -> str | None:
    """The side of a labyrinth at `at` that joins the map (N, E, S, W in that order)."""
    taken = occupied(placement)
    for side, n in zip("NESW", sides(at), strict=True):
        if n in taken and taken[n][0] != "labyrinths":
            return side
    return None


def _path(age: str, side: str) -> list[tuple[int, int]]:
    """From the entrance on `side` to the red eye, inside the key (shortest, by hexes)."""
    key = pieces()["labyrinth_keys"][age]
    grid = [row.split() for row in key["rows"]]
    start = tuple(key["entrances"][side])
    eye = next((r, c) for r, row in enumerate(grid) for c, code in enumerate(row)
               if code == "E")
    previous: dict[tuple[int, int], tuple[int, int]] = {start: start}
    frontier = [start]
    while frontier and eye not in previous:
        nxt = []
        for r, c in frontier:
            for nr, nc in _local_neighbours(r, c):
                if 0 <= nr < SITE and 0 <= nc < SITE and grid[nr][nc] != "#" \
                        and (nr, nc) not in previous:
                    previous[(nr, nc)] = (r, c)
                    nxt.append((nr, nc))
        frontier = nxt
    path = [eye]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def _local_neighbours(r: int, c: int) -> list[tuple[int, int]]:
    """Hex neighbours in the map's offset scheme (even columns sit half a space higher);
    a site is four columns wide, so a column keeps its parity when placed."""
    if c % 2 == 0:
        return [(r - 1, c), (r + 1, c), (r - 1, c - 1), (r, c - 1), (r - 1, c + 1), (r, c + 1)]
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r + 1, c - 1), (r, c + 1), (r + 1, c + 1)]


def assemble(placement: Placement) -> dict[str, Any]:
    """The map (hexmap's format) of the pieces placed: trimmed to the sites used, holes
    left as voids. Space names run from A1 at the top-left site used."""
    taken = occupied(placement)
    if not taken:
        return {"key": "empty", "rows": [], "towers": {}, "labyrinths": {},
                "tunnels": {"segments": [], "entrances": []}}
    c0 = min(c for c, _ in taken)
    r0 = min(r for _, r in taken)
    width = (max(c for c, _ in taken) - c0 + 1) * SITE
    height = (max(r for _, r in taken) - r0 + 1) * SITE
    grid = [["_"] * width for _ in range(height)]
    towers: dict[str, str] = {}
    segments: list[list[str]] = []
    entrances: list[str] = []
    labyrinths: dict[str, list[str]] = {}
    cavern: dict[str, list[Any]] = {"spaces": [], "openings": []}

    def name(at: list[int], r: int, c: int) -> str:
        return f"{chr(65 + (at[0] - c0) * SITE + c)}{(at[1] - r0) * SITE + r + 1}"

    def paint(at: list[int], rows: list[str]) -> None:
        for r, row in enumerate(rows):
            for c, code in enumerate(row.split()):
                grid[(at[1] - r0) * SITE + r][(at[0] - c0) * SITE + c] = code

    data = pieces()
    for key, at in placement.get("platters", {}).items():
        piece = data["platters"][key]
        paint(at, piece["rows"])
        for r, c, kind in piece["towers"]:
            towers[name(at, r, c)] = kind
        segments += [[name(at, r, c) for r, c in seg] for seg in piece["tunnels"]]
        entrances += [name(at, r, c) for r, c in piece["entrances"]]
        if "cavern" in piece:
            cavern["spaces"] += [name(at, r, c) for r, c in piece["cavern"]["spaces"]]
            cavern["openings"] += [[name(at, *a), name(at, *b)]
                                   for a, b in piece["cavern"]["openings"]]
    for key, at in placement.get("dome_keys", {}).items():
        paint(at, data["dome_keys"][key]["rows"])
    for age, at in placement.get("labyrinths", {}).items():
        paint(at, data["labyrinth_keys"][age]["rows"])
        side = entrance_side(placement, (at[0], at[1])) or "N"
        labyrinths[age] = [name(at, r, c) for r, c in _path(age, side)]
    out: dict[str, Any] = {"rows": [" ".join(row) for row in grid], "towers": towers,
                           "tunnels": {"segments": segments, "entrances": entrances},
                           "labyrinths": labyrinths, "cavern": cavern,
                           "placement": placement}
    out["key"] = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    return out


@cache
def standard_placement() -> str:
    return json.dumps(pieces()["standard"], sort_keys=True)


def standard() -> dict[str, Any]:
    """The ready-made standard map."""
    return assemble(json.loads(standard_placement()))
