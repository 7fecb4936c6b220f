"""The dungeon's geometry: squares, tiles and their exits, paths, the text map and the SVG.

The board is 10 columns (A-J) by 13 rows (1-13), north at row 1. Squares are named like
"F7". A laid tile is stored with absolute exits {"N": "open"|"door"|"portcullis"|"wall", ...}
so nothing downstream has to think about orientation again.
"""

from __future__ import annotations

import heapq
from html import escape
from typing import Any

COLS = "ABCDEFGHIJ"
ROWS = 13
SIDES = ["N", "E", "S", "W"]
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
TOWERS: dict[str, list[str]] = {"A1": ["E", "S"], "J1": ["S", "W"],
                                "J13": ["N", "W"], "A13": ["N", "E"]}
CHAMBER = ("E7", "F7")
START_TOWERS = ["A1", "J1", "J13", "A13"]
EXIT_LETTER = {"o": "open", "d": "door", "p": "portcullis", "-": "wall"}
STRENGTH = {"open": 0, "door": 1, "portcullis": 2, "wall": 3}

Cell = dict[str, Any]
Board = dict[str, Cell]


def square(x: int, y: int) -> str:
    return f"{COLS[x]}{y + 1}"


def coords(sq: str) -> tuple[int, int]:
    return COLS.index(sq[0]), int(sq[1:]) - 1


def is_square(text: str) -> bool:
    text = text.upper()
    return len(text) >= 2 and text[0] in COLS and text[1:].isdigit() and \
        1 <= int(text[1:]) <= ROWS


ALL_SQUARES = [square(x, y) for y in range(ROWS) for x in range(len(COLS))]


def _neighbour(sq: str, side: str) -> str | None:
    x, y = coords(sq)
    dx, dy = DELTA[side]
    nx, ny = x + dx, y + dy
    if 0 <= nx < len(COLS) and 0 <= ny < ROWS:
        return square(nx, ny)
    return None


_NEIGHBOURS = {(sq, side): _neighbour(sq, side) for sq in ALL_SQUARES for side in SIDES}
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def neighbour(sq: str, side: str) -> str | None:
    return _NEIGHBOURS[(sq, side)]


def opposite(side: str) -> str:
    return _OPPOSITE[side]


def turn_side(side: str, quarters: int) -> str:
    """The side `quarters` quarter-turns clockwise from `side`."""
    return SIDES[(SIDES.index(side) + quarters) % 4]


def side_towards(a: str, b: str) -> str | None:
    for side in SIDES:
        if neighbour(a, side) == b:
            return side
    return None


def initial_board() -> Board:
    """The fixed squares: the four towers and the two halves of the treasure chamber."""
    board: Board = {}
    for sq, exits in TOWERS.items():
        board[sq] = {"tile": "tower", "kind": "tower",
                     "exits": {s: ("open" if s in exits else "wall") for s in SIDES}}
    board["E7"] = {"tile": "chamber", "kind": "chamber",
                   "exits": {"N": "open", "E": "wall", "S": "open", "W": "open"}}
    board["F7"] = {"tile": "chamber", "kind": "chamber",
                   "exits": {"N": "open", "E": "open", "S": "open", "W": "wall"}}
    return board


def lay_tile(tiles: dict[str, dict[str, Any]], tile_id: str, moving: str) -> Cell:
    """A tile laid by a character moving `moving` (its back faces where they came from);
    `tiles` is the game's tile table (its content, `Ctx.content.tiles`)."""
    tile = tiles[tile_id]
    back = opposite(moving)
    left, ahead, right = turn_side(moving, 3), moving, turn_side(moving, 1)
    spec = tile["exits"]
    exits = {back: EXIT_LETTER[tile.get("back", "o")], left: EXIT_LETTER[spec[0]],
             ahead: EXIT_LETTER[spec[1]], right: EXIT_LETTER[spec[2]]}
    cell: Cell = {"tile": tile_id, "kind": tile["kind"], "exits": {s: exits[s] for s in SIDES}}
    if tile["kind"] == "chasm":
        cell["near"] = sorted([back, left if tile["near"] == "L" else right], key=SIDES.index)
    if tile["kind"] == "rotating":
        cell["rotated"] = False
    return cell


def rotate_cell(cell: Cell, quarters: int) -> Cell:
    """The same tile turned `quarters` quarter-turns clockwise."""
    out = dict(cell)
    out["exits"] = {turn_side(s, quarters): v for s, v in cell["exits"].items()}
    out["exits"] = {s: out["exits"][s] for s in SIDES}
    if "near" in cell:
        out["near"] = sorted((turn_side(s, quarters) for s in cell["near"]), key=SIDES.index)
    return out


def open_sides(cell: Cell) -> list[str]:
    return [s for s in SIDES if cell["exits"][s] != "wall"]


def origin_for(board: Board, pos: str, side: str) -> str:
    """The square a character leaves from: the treasure chamber is one room over two squares."""
    if pos in CHAMBER and board[pos]["exits"][side] == "wall":
        other = CHAMBER[1] if pos == CHAMBER[0] else CHAMBER[0]
        if board[other]["exits"][side] != "wall":
            return other
    return pos


def step_target(board: Board, pos: str, side: str) -> str | None:
    """The square a step from `pos` by `side` leads to (None: off the board); from the
    treasure chamber, by whichever of its two squares has that exit (`origin_for`)."""
    return neighbour(origin_for(board, pos, side), side)


def allowed_sides(board: Board, pos: str, entry: str | None) -> list[str]:
    """Sides a character standing at `pos` (entered through `entry`) may try to leave by."""
    cell = board[pos]
    if pos in CHAMBER:
        return [s for s in SIDES if board[origin_for(board, pos, s)]["exits"][s] != "wall"]
    sides = open_sides(cell)
    if cell["kind"] == "chasm" and entry is not None:
        bank = cell["near"] if entry in cell["near"] else [s for s in SIDES
                                                          if s not in cell["near"]]
        sides = [s for s in sides if s in bank]
    return sides


def passage(board: Board, pos: str, side: str) -> tuple[str | None, str]:
    """What lies between `pos` and its neighbour on `side`: the passage kind or None + why."""
    origin = origin_for(board, pos, side)
    target = neighbour(origin, side)
    if target is None:
        return None, "the outer wall of the dungeon"
    here = board[origin]["exits"][side]
    if here == "wall":
        return None, "a wall"
    there = board[target]["exits"][opposite(side)] if target in board else "open"
    if there == "wall":
        return None, f"the wall of {target}"
    kind = here if STRENGTH[here] >= STRENGTH[there] else there
    return kind, ""


# -- paths ----------------------------------------------------------------------------

STEP_COST = {"open": 1, "door": 2, "portcullis": 3}


def route(board: Board, start: str, entry: str | None, targets: set[str],
          occupied: set[str] | frozenset[str] = frozenset(),
          avoid: set[str] | frozenset[str] = frozenset()) -> tuple[str | None, int]:
    side, cost, _ = route_to(board, start, entry, targets, occupied, avoid)
    return side, cost


def route_to(board: Board, start: str, entry: str | None, targets: set[str],
             occupied: set[str] | frozenset[str] = frozenset(),
             avoid: set[str] | frozenset[str] = frozenset()
             ) -> tuple[str | None, int, str | None]:
    """First side of the cheapest known-or-hopeful path from `start` to any of `targets`.

    Unexplored squares are assumed open on every side; doors, portcullises, pits and other
    awkward tiles cost extra; `avoid` squares are never entered (a bot's pits). Returns
    (side, cost, target) or (None, -1, None) when nothing leads there.
    """
    if start in targets:
        return None, 0, start
    # A square's way on depends on the side it was entered by only in a tower, a chasm,
    # a pit or a cave-in; everywhere else one state per square is enough.
    keyed = {sq for sq, c in board.items() if c["kind"] in ("tower", "chasm", "pit", "cave-in")}
    best: dict[tuple[str, str | None], int] = {(start, entry if start in keyed else None): 0}
    heap: list[tuple[int, int, str, str | None, str | None]] = [(0, 0, start, entry, None)]
    counter = 0
    get, nbr, opp, pop, push, never = (board.get, _NEIGHBOURS, _OPPOSITE, heapq.heappop,
                                       heapq.heappush, 1 << 30)
    while heap:
        cost, _, sq, ent, first = pop(heap)
        if best.get((sq, ent if sq in keyed else None), never) < cost:
            continue
        if sq in targets:
            return first, cost, sq
        cell = get(sq)
        if cell is None:
            steps = []
            for side in SIDES:  # unexplored: hoped open on every side
                target = nbr[(sq, side)]
                if target is None:
                    continue
                back = opp[side]
                tcell = get(target)
                if tcell is None:
                    steps.append((side, target, back, tcell, 1))
                    continue
                there = tcell["exits"][back]
                if there == "wall":
                    continue
                steps.append((side, target, back, tcell, STEP_COST[there]))
        else:
            if sq != start and cell["kind"] == "tower":
                sides = [s for s in open_sides(cell) if s != ent]
            else:
                sides = allowed_sides(board, sq, ent)
            surcharge = {"pit": 6, "cave-in": 2}.get(cell["kind"], 0)
            steps = []
            for side in sides:
                kind, _ = passage(board, sq, side)
                if kind is None:
                    continue
                target = nbr[(origin_for(board, sq, side), side)]
                assert target is not None
                extra = STEP_COST[kind] + (surcharge if side != ent else 0)
                steps.append((side, target, opp[side], get(target), extra))
        for side, target, back, tcell, extra in steps:
            if tcell is not None and tcell["kind"] == "tower" and target not in targets \
                    and not any(s != back and tcell["exits"][s] != "wall" for s in SIDES):
                continue
            if target in avoid and target not in targets:
                continue
            if target in occupied and target not in CHAMBER:
                extra += 2
            if tcell is not None and tcell["kind"] in ("darkness", "trap"):
                extra += 3
            new = cost + extra
            key = (target, back if target in keyed else None)
            if new < best.get(key, never):
                best[key] = new
                counter += 1
                push(heap, (new, counter, target, back, first or side))
    return None, -1, None


def targets_for(sq: str) -> set[str]:
    return set(CHAMBER) if sq in CHAMBER else {sq}


# -- the text map -------------------------------------------------------------------

GLYPH = {"tower": "T", "chamber": "$", "room": "r", "dead-end": "x", "corridor": "+",
         "pit": "O", "cave-in": "v", "darkness": "*", "chasm": "/", "portcullis": "#",
         "rotating": "@", "trap": "!"}
LEGEND = ("1-4 hero · T tower · $ treasure chamber · r room · + corridor · x dead end · "
          "O bottomless pit · v cave-in · * chamber of darkness · / chasm · # portcullis room · "
          "@ rotating room · ! trap room · . unexplored")


def text_map(board: Board, heroes: dict[str, str]) -> list[str]:
    """Rows of a compact map; `heroes` maps a square to the digit shown there."""
    lines = ["    " + " ".join(COLS)]
    for y in range(ROWS):
        row = []
        for x in range(len(COLS)):
            sq = square(x, y)
            if sq in heroes:
                row.append(heroes[sq])
            elif sq in board:
                row.append(GLYPH[board[sq]["kind"]])
            else:
                row.append(".")
        lines.append(f"{y + 1:>3} " + " ".join(row))
    return lines


# -- the SVG map ----------------------------------------------------------------------

FILL = {"tower": "#9e9e9e", "chamber": "#e6c229", "room": "#d9c8a9", "dead-end": "#b8a88a",
        "corridor": "#c9b99a", "pit": "#3b3b3b", "cave-in": "#a0846a", "darkness": "#55506a",
        "chasm": "#7a6a58", "portcullis": "#c2b59b", "rotating": "#c7a7d9", "trap": "#d98c7a"}
HERO_COLOURS = ["#b22222", "#1f5fbf", "#2e8b57", "#8b5a00"]
DARK = ("pit", "darkness", "chasm")  # glyphs drawn white on these
# Where the hero markers of one square go, in units of a 40-unit cell from its top left
# corner: (centre x, centre y, radius). A tile's glyph sits bottom left (GLYPH_BOX), so
# on such a tile the markers keep to the top row and the bottom right corner. Up to
# four markers share a square without touching each other or the glyph: only the
# treasure chamber holds several heroes (and has no glyph), but the layout does not
# rely on it. The number in a marker keeps the map's FONT (legible on a phone), so four
# on a tile with a glyph become narrow badges across the top row and one bottom right.
GLYPH_BOX = (2, 21, 21, 40)  # x0, y0, x1, y1 of a glyph's ink (the widest, @), FONT units
MARKERS_PLAIN = {1: [(20, 20, 10)],
                 2: [(10, 10, 9.5), (30, 30, 9.5)],
                 3: [(10, 10, 9.5), (30, 10, 9.5), (20, 30, 9.5)],
                 4: [(10, 10, 9.5), (30, 10, 9.5), (10, 30, 9.5), (30, 30, 9.5)]}
MARKERS_GLYPH = {1: [(29, 12, 10)],
                 2: [(10, 10, 9.5), (30, 10, 9.5)],
                 3: [(10, 10, 9.5), (30, 10, 9.5), (31, 30, 9)],
                 4: [(7, 10, 6), (20, 10, 6), (33, 10, 6), (31, 30, 6)]}


def marker_spots(count: int, glyph: bool) -> list[tuple[float, float, float]]:
    """The markers of `count` heroes (1-4) on one square, as (x, y, radius) in the cell
    (40 units); a radius under 9 is drawn as a badge 2r wide and 17 tall."""
    table = MARKERS_GLYPH if glyph else MARKERS_PLAIN
    return table[max(1, min(count, 4))]


# Text is drawn at 17 units: the map is about 420 units wide and a phone shows it about
# 317 px wide (class board-fit: the site fits it to the screen rather than scrolling),
# so 17 units stay above 12 px there.
FONT = 17


def svg(view: dict[str, Any], cell: int = 40) -> str:
    """The public map as an SVG string, drawn from a `view()` (any viewer's)."""
    board = view.get("board", {})
    w, h = len(COLS) * cell, ROWS * cell
    pad = 24
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + pad}" height="{h + pad}" '
           f'viewBox="0 0 {w + pad} {h + pad}" font-family="sans-serif" font-size="{FONT}" '
           'class="board-fit" role="img" aria-label="Dungeonquest map">',
           f'<rect x="0" y="0" width="{w + pad}" height="{h + pad}" fill="#2b2622"/>']
    for x, col in enumerate(COLS):
        out.append(f'<text x="{pad + x * cell + cell // 2}" y="18" fill="#ddd" '
                   f'text-anchor="middle">{col}</text>')
    for y in range(ROWS):
        out.append(f'<text x="{pad // 2}" y="{pad + y * cell + cell // 2 + 6}" fill="#ddd" '
                   f'text-anchor="middle">{y + 1}</text>')
    for sq in ALL_SQUARES:
        x, y = coords(sq)
        left, top = pad + x * cell, pad + y * cell
        c = board.get(sq)
        if c is None:
            out.append(f'<rect x="{left}" y="{top}" width="{cell}" height="{cell}" '
                       f'fill="#3a332d" stroke="#4a423a"/>')
            continue
        out.append(f'<rect x="{left}" y="{top}" width="{cell}" height="{cell}" '
                   f'fill="{FILL.get(c["kind"], "#ccc")}" stroke="#6b5d4f">'
                   f'<title>{escape(sq)}: {escape(c["kind"])}</title></rect>')
        ends = {"N": (left, top, left + cell, top), "S": (left, top + cell, left + cell, top + cell),
                "W": (left, top, left, top + cell), "E": (left + cell, top, left + cell, top + cell)}
        for side, kind in sorted(c.get("exits", {}).items()):
            x1, y1, x2, y2 = ends[side]
            if kind == "wall":
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#1a1512" '
                           f'stroke-width="4"/>')
            elif kind == "door":
                mx, my = (x1 + x2) // 2, (y1 + y2) // 2
                out.append(f'<rect x="{mx - 5}" y="{my - 5}" width="10" height="10" '
                           f'fill="#6b3e1f"/>')
            elif kind == "portcullis":
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#222" '
                           f'stroke-width="3" stroke-dasharray="3,3"/>')
        if c["kind"] not in ("room", "chamber", "tower"):
            ink = "#fff" if c["kind"] in DARK else "#111"
            out.append(f'<text x="{left + 3}" y="{top + cell - 5}" fill="{ink}">'
                       f'{escape(GLYPH.get(c["kind"], "?"))}</text>')
    heroes = view.get("characters", {})
    colours = {seat: HERO_COLOURS[i % len(HERO_COLOURS)]
               for i, seat in enumerate(sorted(heroes))}
    here: dict[str, list[str]] = {}
    for seat, ch in sorted(heroes.items()):
        if ch.get("pos") in ALL_SQUARES and ch.get("status") == "in":
            here.setdefault(ch["pos"], []).append(seat)
    for pos, seats in here.items():
        x, y = coords(pos)
        c = board.get(pos)
        glyph = c is not None and c["kind"] not in ("room", "chamber", "tower")
        scale = cell / 40
        for seat, (sx, sy, r) in zip(seats[:4], marker_spots(len(seats), glyph)):
            ch = heroes[seat]
            cx, cy = pad + x * cell + sx * scale, pad + y * cell + sy * scale
            tip = f'<title>{escape(ch.get("name", seat))} ({escape(seat)})</title>'
            if r >= 9:
                out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r * scale:g}" '
                           f'fill="{colours[seat]}" stroke="#fff">{tip}</circle>')
            else:  # a narrow badge: the number keeps its size
                out.append(f'<rect x="{cx - r * scale:g}" y="{cy - 8.5 * scale:g}" '
                           f'width="{2 * r * scale:g}" height="{17 * scale:g}" rx="3" '
                           f'fill="{colours[seat]}" stroke="#fff">{tip}</rect>')
            out.append(f'<text x="{cx:g}" y="{cy + 6 * scale:g}" fill="#fff" '
                       f'text-anchor="middle">{escape(seat[-1])}</text>')
    out.append("</svg>")
    return "".join(out)
