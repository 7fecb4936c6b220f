"""The hex map: space names, neighbours, distance, move costs, paths and line of sight.

Spaces are named column letters + row number ("C4"; past Z the columns run AA, AB, ... as
on a spreadsheet, for a wide built map); the first, third, ... columns (A, C, ...) sit
half a space lower than the second, fourth, ... (B, D, ...). Geometry goes through cube
coordinates.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from typing import Any, TypeVar

from . import catalog

F = TypeVar("F", bound=Callable[..., Any])
_CURRENT: ContextVar[tuple[str, dict[str, Any] | None, bool] | None] = ContextVar(
    "doa_map", default=None)


def map_data() -> dict[str, Any]:
    """The map of the game being handled: set by `using`, else the skirmish field."""
    current = _CURRENT.get()
    return current[1] if current and current[1] else catalog.map_data()


def edge_walls() -> bool:
    """Whether the map's outer edge is a cavern wall for sight and throws (rules
    revision 3; before, only the holes of a built map were)."""
    current = _CURRENT.get()
    return current[2] if current else True


def map_key() -> str:
    current = _CURRENT.get()
    key = current[0] if current else "skirmish"
    return key if edge_walls() else key + "|open-edge"


@contextmanager
def using(data: dict[str, Any] | None, *, open_edge: bool = False) -> Iterator[None]:
    """Answer every question below about this map (None: the skirmish field) while the
    block runs; games are pure, so the engine wraps each entry point in it.
    `open_edge`: a game of rules revision 2 or before, whose lines of sight could run
    along the map's outer edge (see `edge_walls`)."""
    token = _CURRENT.set((data["key"] if data else "skirmish", data, not open_edge))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def map_cache(fn: F) -> F:
    """Cache per map: the same question about another map is another entry."""
    inner = lru_cache(maxsize=1 << 16)(lambda key, *args: fn(*args))

    @wraps(fn)
    def wrapper(*args: Any) -> Any:
        return inner(map_key(), *args)
    return wrapper  # type: ignore[return-value]

CODES = {".": "clear", "W": "woods", "B": "building", "S": "swamp", "R": "rough",
         "~": "water", "D": "deep water", "F": "fire", "X": "obstacle", "T": "tower",
         "#": "wall", "E": "clear"}
VOID = "_"
MOVE_COST = {"clear": 1, "tower": 1, "woods": 2, "water": 2, "rough": 2, "swamp": 3,
             "building": 3}
"""Terrain missing here (dome, deep water, fire, obstacle) cannot be entered by moving."""
BLOCKS_PAST = {"building", "obstacle", "dome", "tower", "wall"}
"""Terrain nobody sees past; of these only a building can be seen into and out of."""
SEALED = {"dome", "tower"}
HINDERS = {"woods", "swamp", "fire"}


def column_name(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: spreadsheet columns."""
    if col < 0:
        raise ValueError(f"no column {col}")
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(65 + rest) + name
    return name


def space_name(col: int, row: int) -> str:
    return f"{column_name(col)}{row + 1}"


@map_cache
def terrain() -> dict[str, str]:
    rows = map_data()["rows"]
    out: dict[str, str] = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row.split()):
            if code != VOID:
                out[space_name(c, r)] = "dome" if code.isdigit() else CODES[code]
    return out


@map_cache
def voids() -> frozenset[str]:
    """Holes in a built map (no piece there): the map's edge, so a cavern wall."""
    return frozenset(space_name(c, r) for r, row in enumerate(map_data()["rows"])
                     for c, code in enumerate(row.split()) if code == VOID)


@map_cache
def domes() -> dict[str, int]:
    """Dome space -> its number."""
    out: dict[str, int] = {}
    for r, row in enumerate(map_data()["rows"]):
        for c, code in enumerate(row.split()):
            if code.isdigit():
                out[space_name(c, r)] = int(code)
    return out


@map_cache
def piece_of() -> dict[str, str]:
    """Space -> the piece of a built map it lies on (a character per piece; empty for
    the skirmish field, which is one piece)."""
    return {space_name(c, r): owner for r, row in enumerate(map_data().get("owners", []))
            for c, owner in enumerate(row) if owner != "."}


@map_cache
def red_eyes() -> frozenset[str]:
    return frozenset(spaces[-1] for spaces in labyrinths().values())


def towers() -> dict[str, str]:
    return dict(map_data()["towers"])


def size() -> tuple[int, int]:
    rows = map_data()["rows"]
    return len(rows[0].split()), len(rows)


def col_row(space: str) -> tuple[int, int]:
    letters = len(space) - len(space.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    col = 0
    for letter in space[:letters]:
        col = col * 26 + ord(letter) - 64
    return col - 1, int(space[letters:]) - 1


def cube(space: str) -> tuple[int, int, int]:
    col, row = col_row(space)
    x = col
    z = row - (col + (col & 1)) // 2
    return x, -x - z, z


def from_cube(x: int, z: int) -> str | None:
    col = x
    row = z + (col + (col & 1)) // 2
    name = space_name(col, row) if col >= 0 else ""
    return name if name in terrain() else None


def _grid_name(x: int, z: int) -> str:
    row = z + (x + (x & 1)) // 2
    return space_name(x, row) if x >= 0 and row >= 0 else ""


def distance(a: str, b: str) -> int:
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


@map_cache
def neighbours(space: str) -> tuple[str, ...]:
    x, _, z = cube(space)
    out = []
    for dx, dz in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        n = from_cube(x + dx, z + dz)
        if n:
            out.append(n)
    return tuple(sorted(out, key=col_row))


@map_cache
def walls() -> frozenset[frozenset[str]]:
    """Cavern walls as pairs of spaces whose shared edge is walled: around each cavern
    and each labyrinth of a built map (its `enclosures`, walled but at the entrance)."""
    data = map_data()
    out: set[frozenset[str]] = set()
    for cavern in (data.get("cavern", {}), *data.get("enclosures", [])):
        inside = set(cavern.get("spaces", []))
        open_sides = {frozenset(pair) for pair in cavern.get("openings", [])}
        out.update(frozenset((s, n)) for s in inside for n in neighbours(s)
                   if n not in inside and frozenset((s, n)) not in open_sides)
    return frozenset(out)


def passable(space: str) -> tuple[str, ...]:
    """Neighbours not behind a cavern wall."""
    return tuple(n for n in neighbours(space) if frozenset((space, n)) not in walls())


def enterable(space: str) -> bool:
    return terrain()[space] in MOVE_COST


def cost(space: str) -> int:
    return MOVE_COST[terrain()[space]]


def _round(x: float, y: float, z: float) -> tuple[int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


def _line(a: str, b: str, nudge: float) -> list[str]:
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    n = distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x = ax + (bx - ax) * t + nudge
        y = ay + (by - ay) * t + nudge * 2
        z = az + (bz - az) * t - nudge * 3
        rx, rz = _round(x, y, z)
        name = from_cube(rx, rz)
        if name is None and (edge_walls() or _grid_name(rx, rz) in voids()):
            name = "#void"  # off the map: its edge is a cavern wall
        if name and name not in out:
            out.append(name)
    return out


@map_cache
def touched(a: str, b: str) -> tuple[str, ...]:
    """Every space the line from a to b touches, endpoints included.

    The line is traced twice, nudged to either side, so a line running along an edge
    touches the spaces on both sides of it (terrain on either side then counts).
    """
    seen: list[str] = []
    for nudge in (1e-6, -1e-6):
        for s in _line(a, b, nudge):
            if s not in seen:
                seen.append(s)
    return tuple(seen)


@map_cache
def sees(a: str, b: str) -> bool:
    """Line of sight between two spaces: symmetric by construction."""
    if a == b:
        return terrain()[a] not in SEALED
    if terrain()[a] in SEALED or terrain()[b] in SEALED:
        return False
    seen = touched(a, b)
    if "#void" in seen or any(wall <= set(seen) for wall in walls()):
        return False  # the line crosses a hole in the map or a cavern wall
    return not any(terrain()[s] in BLOCKS_PAST for s in seen if s not in (a, b))


def hindrance(a: str, b: str, grenade: bool = False, marksman: bool = False) -> int:
    """Hit penalty from terrain between firer at a and target at b (a not counted).

    A grenade treats buildings and domes as woods; a marksman is not hindered by the
    woods, swamp and fire on the line (the target's building or rough still count)."""
    t = terrain()
    hinders = set() if marksman else HINDERS | ({"building", "dome"} if grenade else set())
    penalty = sum(1 for s in touched(a, b) if s not in (a, "#void") and t[s] in hinders
                  and not (s == b and t[s] == "building"))
    if t[b] == "building":
        penalty += 1 if grenade else 2
    elif t[b] == "rough":
        penalty += 1
    return penalty


def cheapest_path(start: str, goal: str, costs: dict[str, int] | None = None
                  ) -> list[str] | None:
    """The cheapest path by move cost (spaces after start), ties broken by space order.
    `costs` overrides what some terrain costs this mover (special movement)."""
    if start == goal:
        return []
    route = _cheapest(start, goal, tuple(sorted((costs or {}).items())))
    return None if route is None else list(route)  # the cached list stays untouched


@map_cache
def _steps() -> dict[str, tuple[tuple[str, str, tuple[int, int]], ...]]:
    """For each space, the enterable neighbours it can step to: (space, terrain, order)."""
    t = terrain()
    return {s: tuple((n, t[n], col_row(n)) for n in passable(s) if t[n] in MOVE_COST)
            for s in t}


@map_cache
def _cheapest(start: str, goal: str, overrides: tuple[tuple[str, int], ...]
              ) -> list[str] | None:
    costs = {**MOVE_COST, **dict(overrides)}
    steps = _steps()
    best = {start: 0}
    queue: list[tuple[int, tuple[int, int], str, tuple[str, ...]]] = [
        (0, col_row(start), start, ())]
    while queue:
        spent, _, here, path = heapq.heappop(queue)
        if here == goal:
            return list(path)
        if spent > best.get(here, 1 << 30):
            continue
        for n, kind, order in steps.get(here, ()):
            # a tower ends movement, so it can only be the goal of a route
            if kind == "tower" and n != goal:
                continue
            total = spent + costs[kind]
            if total < best.get(n, 1 << 30):
                best[n] = total
                heapq.heappush(queue, (total, order, n, (*path, n)))
    return None


# -- tunnels ----------------------------------------------------------------------------
@map_cache
def tunnel_segments() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(seg) for seg in map_data()["tunnels"]["segments"])


@map_cache
def tunnel_spaces() -> frozenset[str]:
    return frozenset(s for seg in tunnel_segments() for s in seg)


@map_cache
def entrances() -> frozenset[str]:
    return frozenset(map_data()["tunnels"]["entrances"])


@map_cache
def tunnel_neighbours(space: str) -> tuple[str, ...]:
    out: set[str] = set()
    for seg in tunnel_segments():
        for i, s in enumerate(seg):
            if s == space:
                out.update(seg[j] for j in (i - 1, i + 1) if 0 <= j < len(seg))
    return tuple(sorted(out, key=col_row))


def tunnel_path(start: str, goal: str) -> list[str] | None:
    """Shortest way along the tunnels (every tunnel space costs 1)."""
    if start == goal:
        return []
    previous: dict[str, str] = {start: start}
    frontier = [start]
    while frontier:
        nxt = []
        for here in frontier:
            for n in tunnel_neighbours(here):
                if n not in previous:
                    previous[n] = here
                    nxt.append(n)
        frontier = nxt
    if goal not in previous:
        return None
    path = [goal]
    while previous[path[-1]] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def tunnel_sees(a: str, b: str) -> bool:
    """Underground, sight runs along a straight segment and stops at a bend."""
    return a == b or any(a in seg and b in seg for seg in tunnel_segments())


def sight(a: str, a_down: bool, b: str, b_down: bool) -> bool:
    """Line of sight between two positions; surface and tunnels never see each other."""
    if a_down != b_down:
        return False
    return tunnel_sees(a, b) if a_down else sees(a, b)


def lobs(a: str, a_down: bool, b: str, b_down: bool) -> bool:
    """Where a grenade can go: over buildings and domes, but not into or out of a dome,
    nor past the other blocking terrain; never between the surface and the tunnels."""
    if a_down or b_down:
        return sight(a, a_down, b, b_down)
    t = terrain()
    if t[a] in SEALED or t[b] in SEALED:  # domes and towers: nothing in or out
        return False
    if "#void" in touched(a, b) or any(wall <= set(touched(a, b)) for wall in walls()):
        return False
    return not any(t[s] in BLOCKS_PAST - {"building", "dome"}
                   for s in touched(a, b) if s not in (a, b))


def labyrinths() -> dict[str, list[str]]:
    """Age -> the labyrinth's spaces from the entrance to the red eye, in the ages' order
    (catalog.AGES), whatever order the stored map keeps its keys in."""
    table = map_data()["labyrinths"]
    ages = [a for a in catalog.AGES if a in table] + sorted(set(table) - set(catalog.AGES))
    return {age: list(table[age]) for age in ages}
