"""The map pieces (data/pieces.toml) and how placed pieces become a map.

The rulebook builds its map from large round platters and small triangular keys that
hook together. Here (designed) a platter is a hexagon of 61 spaces and a key a triangle
of 10: the trihexagonal pattern, in which hexagons meet corner to corner and triangles
fill the gaps between every three of them, with no seam and no overlap.

- *Platter sites* form a lattice (FRAME x FRAME on the table, named like spaces: "C3"),
  nine spaces apart; a site's six neighbours are the sites whose platters would touch
  its platter's corners.
- *Slots* are the triangles between three mutually neighbouring sites. Every site has
  six slots around it, one per side (E, SE, SW, W, NW, NE): a slot is named by any of
  its sites and the side ("C3SE" is "D3W" is "C4NE"), and written back by the first of
  its sites on the table. A key goes in a slot; the slots are the sockets where pieces
  hook on.
- An empty slot beside the map is a *nook* (a hole: platters on all three sides), a
  *cranny* (between two platters) or a *notch* (the gap beside one platter).

This module knows the geometry and assembles a placement into the map format hexmap
reads; the order of the build and whose turn it is belong to rules/build.py."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache, lru_cache
from typing import Any

from . import hexmap
from .catalog import _load

RADIUS = 4
"""A platter is every space within RADIUS of its middle."""
SPACING = 2 * RADIUS + 1
"""Platter sites this many spaces apart, so touching platters meet corner to corner."""
FRAME = 7
"""The table holds FRAME x FRAME platter sites (A1 to G7)."""

Site = tuple[int, int]
"""A platter site in axial lattice coordinates (a, b): its middle space is at
(SPACING * a, SPACING * b) in hexmap's axial (x, z)."""
Slot = tuple[int, int, int]
"""(a, b, 0): the slot between sites (a, b), (a+1, b), (a, b+1); (a, b, 1): the one
between (a+1, b), (a, b+1), (a+1, b+1)."""
Cell = tuple[int, int]
Placement = dict[str, Any]
"""{"platters": {name: site}, "dome_keys": {name: slot},
"labyrinths": {age: [slot, site its entrance faces]}}, all by name ("C3", "C3SE"), and
"turns": {platter: sixths of a turn clockwise} for platters not placed as drawn."""

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SIDES = {"E": (0, -1, 1), "SE": (0, 0, 0), "SW": (-1, 0, 1), "W": (-1, 0, 0),
         "NW": (-1, -1, 1), "NE": (0, -1, 0)}
"""The slot on each side of site (a, b), as an offset (da, db, o)."""
KEY_ORIGIN = (-2, -1)
PLATTER_ORIGIN = (-RADIUS, -RADIUS)
"""Where the text drawing of a piece starts, in axial (x, offset row) about its
middle: keys are drawn as a 4 x 4 text, platters 9 x 9."""


@cache
def pieces() -> dict[str, Any]:
    return _load("pieces.toml")


# -- names -----------------------------------------------------------------------------
def site_name(site: Site) -> str:
    a, b = site
    return hexmap.space_name(a, b + (a + (a & 1)) // 2)


@cache
def parse_site(name: str) -> Site | None:
    match = re.fullmatch(r"([A-Z]+)(\d+)", name.upper())
    if not match:
        return None
    col, row = hexmap.col_row(name.upper())
    site = (col, row - (col + (col & 1)) // 2)
    return site if in_frame(site) else None


def site_at(name: str) -> Site:
    """The site a stored placement names (always valid: it was checked when placed)."""
    site = parse_site(name)
    if site is None:
        raise ValueError(f"no site {name!r}")
    return site


def slot_at(name: str) -> Slot:
    slot = parse_slot(name)
    if slot is None:
        raise ValueError(f"no slot {name!r}")
    return slot


def in_frame(site: Site) -> bool:
    a, b = site
    return 0 <= a < FRAME and 0 <= b + (a + (a & 1)) // 2 < FRAME


def slot_on(site: Site, side: str) -> Slot:
    da, db, o = SIDES[side]
    return site[0] + da, site[1] + db, o


@cache
def slot_sites(slot: Slot) -> tuple[Site, ...]:
    a, b, o = slot
    if o == 0:
        return (a, b), (a + 1, b), (a, b + 1)
    return (a + 1, b), (a, b + 1), (a + 1, b + 1)


@cache
def site_slots(site: Site) -> tuple[Slot, ...]:
    return tuple(slot_on(site, side) for side in SIDES)


@cache
def site_neighbours(site: Site) -> tuple[Site, ...]:
    return tuple((site[0] + da, site[1] + db) for da, db in DIRECTIONS)


def slot_name(slot: Slot, platters: Any = ()) -> str:
    """Named by the first of its sites holding a platter (of `platters`), else the first
    on the table, in column-then-row order: "the west side of the platter at C4"."""
    order = sorted(slot_sites(slot), key=lambda s: (s not in platters, not in_frame(s),
                                                     s[0], s[1] + (s[0] + (s[0] & 1)) // 2))
    site = order[0]
    side = next(k for k in SIDES if slot_on(site, k) == slot)
    return site_name(site) + side


@cache
def parse_slot(name: str) -> Slot | None:
    match = re.fullmatch(r"([A-Z]+\d+)(NE|NW|SE|SW|E|W)", name.upper())
    site = parse_site(match.group(1)) if match else None
    return slot_on(site, match.group(2)) if match and site else None


def on_table(slot: Slot) -> bool:
    return any(in_frame(s) for s in slot_sites(slot))


# -- what is where ---------------------------------------------------------------------
def platter_sites(placement: Placement) -> dict[Site, str]:
    return {site_at(at): name for name, at in placement.get("platters", {}).items()}


def key_slots(placement: Placement) -> dict[Slot, tuple[str, str]]:
    out: dict[Slot, tuple[str, str]] = {}
    for name, at in placement.get("dome_keys", {}).items():
        out[slot_at(at)] = ("dome_keys", name)
    for age, (at, _) in placement.get("labyrinths", {}).items():
        out[slot_at(at)] = ("labyrinths", age)
    return out


def platter_block(placement: Placement, site: Site) -> str | None:
    """Why a platter cannot go on this site (None: it can): an empty site on the table,
    hooked onto the map (touching a platter, or a key in one of its slots) unless it is
    the first piece."""
    platters, keys = platter_sites(placement), key_slots(placement)
    if not in_frame(site):
        return "that site is off the table"
    if site in platters:
        return "a platter is already there"
    if platters and not (any(n in platters for n in site_neighbours(site))
                         or any(s in keys for s in site_slots(site))):
        return "it must hook onto the map"
    return None


def key_block(placement: Placement, slot: Slot) -> str | None:
    """A key goes in an empty slot with a platter on at least one of its sides."""
    if slot in key_slots(placement):
        return "a key is already in that slot"
    if not any(s in platter_sites(placement) for s in slot_sites(slot)):
        return "a key hooks onto a platter"
    return None


def gaps(placement: Placement) -> dict[str, tuple[Slot, ...]]:
    """The empty slots beside the map, by how many platters they touch: a nook (three,
    a hole), a cranny (two), a notch (one)."""
    return _gaps(frozenset(platter_sites(placement)), frozenset(key_slots(placement)))


@lru_cache(maxsize=1 << 14)
def _gaps(platters: frozenset[Site], keys: frozenset[Slot]) -> dict[str, tuple[Slot, ...]]:
    out: dict[str, set[Slot]] = {"nook": set(), "cranny": set(), "notch": set()}
    for site in platters:
        for slot in site_slots(site):
            if slot not in keys:
                touching = sum(1 for s in slot_sites(slot) if s in platters)
                out[("", "notch", "cranny", "nook")[touching]].add(slot)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def holes(placement: Placement) -> int:
    """Nooks and crannies: the gaps the labyrinths must fill."""
    g = gaps(placement)
    return len(g["nook"]) + len(g["cranny"])


def enclosed(placement: Placement) -> list[Site]:
    """Empty platter sites ringed by keys: a platter-sized hole no key can fill."""
    platters, keys = platter_sites(placement), key_slots(placement)
    candidates = {n for s in platters for n in site_neighbours(s)} - set(platters)
    return sorted(s for s in candidates if all(slot in keys for slot in site_slots(s)))


# -- pieces as spaces --------------------------------------------------------------------
def _read(rows: list[str], origin: tuple[int, int]) -> dict[tuple[int, int], tuple[Cell, str]]:
    """Text [row, column] -> (axial cell about the piece's middle, code)."""
    out = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row.split()):
            if code != "_":
                x = c + origin[0]
                out[(r, c)] = ((x, r + origin[1] - (x + (x & 1)) // 2), code)
    return out


def _rot60(cell: Cell) -> Cell:
    """A sixth of a turn clockwise about the middle (south-east goes south)."""
    x, z = cell
    return -z, x + z


def _turn(cell: Cell, sixths: int) -> Cell:
    for _ in range(sixths % 6):
        cell = _rot60(cell)
    return cell


def site_middle(site: Site) -> Cell:
    return SPACING * site[0], SPACING * site[1]


def slot_middle(slot: Slot) -> Cell:
    a, b, o = slot
    return SPACING * a + 3 + 3 * o, SPACING * b + 3 + 3 * o


def _distance(a: Cell, b: Cell) -> int:
    dx, dz = a[0] - b[0], a[1] - b[1]
    return max(abs(dx), abs(dz), abs(dx + dz))


def key_turn(age: str, slot: Slot, facing: Site) -> int:
    """How many sixths a labyrinth key turns so its entrance faces the platter site
    `facing` (a slot pointing the other way is the key turned half round)."""
    cells = _read(pieces()["labyrinth_keys"][age]["rows"], KEY_ORIGIN)
    entrance = next(cell for cell, code in cells.values() if code == "I")
    middle, target = slot_middle(slot), site_middle(facing)
    for sixths in (3 * slot[2], 3 * slot[2] + 2, 3 * slot[2] + 4):
        x, z = _turn(entrance, sixths)
        if _distance((middle[0] + x, middle[1] + z), target) == RADIUS + 1:
            return sixths
    raise ValueError(f"slot {slot} does not touch site {facing}")


KINDS = ("platters", "dome_keys", "labyrinths")


def assemble(placement: Placement, order: dict[str, list[str]] | None = None
             ) -> dict[str, Any]:
    """The map (hexmap's format) of the pieces placed: trimmed to the spaces used, the
    rest left void. Space names run from A1 at the top-left of the pieces.

    The pieces of each kind are laid in `order` (default: by name), which is the order
    the map lists its pieces, tunnels, cavern and labyrinth walls in: by name, the map
    is the placement's alone, whatever order its keys come in. A game of rules revision
    2 or earlier passes the order its build laid them in (rules/build.py)."""
    if order is None:
        order = {kind: sorted(placement.get(kind, {})) for kind in KINDS}
    data = pieces()
    grid: dict[Cell, str] = {}
    owner: dict[Cell, int] = {}
    towers: dict[Cell, str] = {}
    segments: list[list[Cell]] = []
    entrances: list[Cell] = []
    cavern: dict[str, list[Any]] = {"spaces": [], "openings": []}
    enclosures: list[dict[str, list[Any]]] = []
    labyrinths: dict[str, list[Cell]] = {}
    labels: list[tuple[str, str, Cell]] = []

    for name in order["platters"]:
        at = placement["platters"][name]
        piece, middle = data["platters"][name], site_middle(site_at(at))
        sixths = placement.get("turns", {}).get(name, 0)
        cells = {rc: (_turn(cell, sixths), code)
                 for rc, (cell, code) in _read(piece["rows"], PLATTER_ORIGIN).items()}

        def here(rc: list[int], cells: Any = cells, middle: Cell = middle) -> Cell:
            x, z = cells[(rc[0], rc[1])][0]
            return middle[0] + x, middle[1] + z

        for (x, z), code in cells.values():
            grid[(middle[0] + x, middle[1] + z)] = code
            owner[(middle[0] + x, middle[1] + z)] = len(labels)
        for r, c, kind in piece["towers"]:
            towers[here([r, c])] = kind
        segments += [[here(rc) for rc in seg] for seg in piece["tunnels"]]
        entrances += [here(rc) for rc in piece["entrances"]]
        if "cavern" in piece:
            cavern["spaces"] += [here(rc) for rc in piece["cavern"]["spaces"]]
            cavern["openings"] += [[here(a), here(b)] for a, b in piece["cavern"]["openings"]]
        labels.append((name, at, middle))
    for name in order["dome_keys"]:
        at = placement["dome_keys"][name]
        slot = slot_at(at)
        middle = slot_middle(slot)
        for (x, z), code in _read(data["dome_keys"][name]["rows"], KEY_ORIGIN).values():
            x, z = _turn((x, z), 3 * slot[2])
            grid[(middle[0] + x, middle[1] + z)] = code
            owner[(middle[0] + x, middle[1] + z)] = len(labels)
        labels.append((name, at, middle))
    for age in order["labyrinths"]:
        at, facing = placement["labyrinths"][age]
        slot = slot_at(at)
        middle = slot_middle(slot)
        sixths = key_turn(age, slot, site_at(facing))
        path: dict[str, Cell] = {}
        for (x, z), code in _read(data["labyrinth_keys"][age]["rows"], KEY_ORIGIN).values():
            x, z = _turn((x, z), sixths)
            cell = (middle[0] + x, middle[1] + z)
            grid[cell] = "." if code == "I" else code
            owner[cell] = len(labels)
            if code != "#":
                path[f"{x},{z}"] = cell
            if code == "I":
                door = cell
        labyrinths[age] = _path(list(path.values()), door)
        target = site_middle(site_at(facing))
        outside = [(door[0] + dx, door[1] + dz) for dx, dz in DIRECTIONS]
        enclosures.append({"spaces": labyrinths[age], "openings": [
            [door, cell] for cell in outside if _distance(cell, target) <= RADIUS]})
        labels.append((age, at, middle))

    if not grid:
        return {"key": "empty", "rows": [], "towers": {}, "labyrinths": {},
                "tunnels": {"segments": [], "entrances": []}, "placement": placement}
    x0 = min(x for x, _ in grid)
    r0 = min(z + ((x - x0) + ((x - x0) & 1)) // 2 for x, z in grid)

    def name(cell: Cell) -> str:
        x, z = cell[0] - x0, cell[1]
        return hexmap.space_name(x, z + (x + (x & 1)) // 2 - r0)

    named = {name(cell): code for cell, code in grid.items()}
    owners = {name(cell): OWNER[i] for cell, i in owner.items()}
    width = 1 + max(hexmap.col_row(s)[0] for s in named)
    height = 1 + max(hexmap.col_row(s)[1] for s in named)
    rows = [" ".join(named.get(hexmap.space_name(c, r), "_") for c in range(width))
            for r in range(height)]
    out: dict[str, Any] = {
        "rows": rows, "towers": {name(c): k for c, k in towers.items()},
        "tunnels": {"segments": [[name(c) for c in seg] for seg in segments],
                    "entrances": [name(c) for c in entrances]},
        "labyrinths": {age: [name(c) for c in spaces] for age, spaces in labyrinths.items()},
        "cavern": {"spaces": [name(c) for c in cavern["spaces"]],
                   "openings": [[name(a), name(b)] for a, b in cavern["openings"]]},
        "enclosures": [{"spaces": [name(c) for c in e["spaces"]],
                        "openings": [[name(a), name(b)] for a, b in e["openings"]]}
                       for e in enclosures],
        "pieces": [[piece, at, name(middle)] for piece, at, middle in labels],
        "owners": ["".join(owners.get(hexmap.space_name(c, r), ".") for c in range(width))
                   for r in range(height)],
        "placement": placement}
    out["key"] = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    return out


OWNER = "0123456789abcdefghij"
"""`owners` rows: which piece (its place in `pieces`) each space belongs to, one
character a space, "." where there is none: the board draws the pieces' outlines."""


def _path(cells: list[Cell], door: Cell) -> list[Cell]:
    """The labyrinth's spaces from its entrance to the red eye: the open spaces of a
    key form one line (test_pieces.py checks it), walked from the entrance."""
    path, left = [door], set(cells) - {door}
    while left:
        here = path[-1]
        step = next(c for c in sorted(left) if _distance(c, here) == 1)
        path.append(step)
        left.remove(step)
    return path


@cache
def _standard_placement() -> str:
    return json.dumps(pieces()["standard"], sort_keys=True)


def standard_placement() -> Placement:
    return json.loads(_standard_placement())


def standard() -> dict[str, Any]:
    """The ready-made standard map."""
    return assemble(standard_placement())
