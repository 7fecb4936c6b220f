"""An SVG picture of a view: the hex field, its terrain, and the characters on it.

Two scales. The skirmish field (11 x 9) is drawn large, each space labelled. A built map
(a few hundred spaces, up to 40 columns) is drawn at a fixed size per space: the SVG
carries its natural size (class "natural") so that a phone shows it at that size,
scrolling inside the board's box, instead of shrinking it until its labels cannot be
read; coordinates go in the margins, and a legend names every terrain and mark."""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

from games.core import svg

from . import hexmap

FILL = {"clear": "#f4f1e6", "woods": "#7fb069", "building": "#9c8f80", "swamp": "#6b8f71",
        "rough": "#c9b38a", "water": "#8ecae6", "deep water": "#3a6ea5", "fire": "#e4572e",
        "obstacle": "#5c5552", "tower": "#b388eb", "dome": "#ffd166", "wall": "#6e2a22"}
TEAM = {"White": "#ffffff", "Black": "#222222"}
TOWER_MARK = {"desperation": "D", "vortex": "V", "knowledge": "K", "havoc": "H",
              "maneuver": "M"}
LAB = "#c0392b"
TUNNEL = "#6d4c41"
MIN_FONT = 12
"""No text on a built map's board is smaller than this (in CSS pixels at natural size)."""


class Scale:
    """Where things go: the radius of a space and the margins around the field."""

    def __init__(self, big: bool) -> None:
        self.big = big
        self.r = 15 if big else 26
        self.left, self.top = (34, 26) if big else (40, 40)

    def centre(self, space: str) -> tuple[float, float]:
        # the first, third, ... columns (A, C, ...) sit half a space lower: hexmap's
        # geometry (A1 touches B1 and B2)
        col, row = hexmap.col_row(space)
        h = self.r * math.sqrt(3)
        return (self.left + self.r + col * self.r * 1.5,
                self.top + h / 2 + row * h + (0 if col & 1 else h / 2))

    def hex(self, space: str, fill: str, title: str, stroke: str = "#777",
            width: float = 1) -> str:
        cx, cy = self.centre(space)
        pts = " ".join(f"{cx + self.r * math.cos(math.pi / 3 * i):.1f},"
                       f"{cy + self.r * math.sin(math.pi / 3 * i):.1f}" for i in range(6))
        return (f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="{width}"><title>{escape(title)}</title></polygon>')


def _text(x: float, y: float, body: str, size: int, **kw: Any) -> str:
    return svg.text(round(x), round(y), body, size=size, **kw)


def board(view: dict[str, Any]) -> str:
    big = hexmap.size()[0] > 12
    sc = Scale(big)
    parts: list[str] = []
    parts += _terrain(sc, _occupied(view))
    parts += _outlines(sc)
    parts += _walls(sc)
    parts += _tunnels(sc)
    parts += _labyrinths(sc, view, _occupied(view))
    parts += _pieces(sc, view)
    parts += _characters(sc, view)
    width, height = hexmap.size()
    w = round(sc.left + sc.r * (1.5 * width + 0.5) + 10)
    h = round(sc.top + sc.r * math.sqrt(3) * (height + 0.5) + 10)
    if big:
        parts += _margins(sc, width, height)
        legend, h = _legend(sc, w, h)
        parts += legend
    parts.append(_text(10, h + (16 if big else 0), _status(view), 13 if big else 12))
    h += 26 if big else 10
    label = "Duel of Ages map" + (" (built of platters and keys)" if big else "")
    out = svg.document(w, h, parts, label)
    if big:  # drawn at its natural size (see the module's docstring)
        out = out.replace('width="100%"', f'width="{w}" height="{h}" class="natural"', 1)
    return out


def _status(view: dict[str, Any]) -> str:
    if "build" in view:
        b = view["build"]
        return f"Map build, step {b['step']} of {b['of']}: Team {b['builder']} places {b['places']}"
    if view["over"]:
        return f"Over: {view['summary']}"
    return f"Round {view['round']} of {view['rounds']}, Team {view['active']} to move"


def _terrain(sc: Scale, occupied: set[str]) -> list[str]:
    parts = []
    domes, towers = hexmap.domes(), hexmap.towers()
    for space, kind in hexmap.terrain().items():
        label = f"{space} {kind}" + (f" {domes[space]}" if space in domes else "") + (
            f" (Tower of {towers[space].title()})" if space in towers else "")
        parts.append(sc.hex(space, FILL[kind], label))
        cx, cy = sc.centre(space)
        if not sc.big:
            # the name and the dome's number share the hex's top line; the unit tags go
            # below it (see _characters), so neither covers the other
            dome = space in domes
            parts.append(_label(cx - (1 if dome else 0), cy - 13, space, 8,
                                anchor="end" if dome else "middle", fill="#555"))
            if dome:
                parts.append(_label(cx + 2, cy - 13, str(domes[space]), 9, weight="bold"))
            continue
        mark = str(domes[space]) if space in domes else (
            TOWER_MARK[towers[space]] if space in towers else None)
        if mark:
            parts.append(_big_label(sc, space, mark, space in occupied, weight="bold"))
    return parts


def _occupied(view: dict[str, Any]) -> set[str]:
    return {c["space"] for c in view["chars"].values() if c["status"] == "map"}


LABELLED_TAG = 12
"""A built map's space is 26 px tall: a labelled space with a character in it shows its
label (at the legible minimum) in the upper half and the tags, this tall, below it."""
TAG_WIDTH = 32
"""A built map's tag stays clear of the labels of the spaces beside it (22.5 px across;
a bold 14 px "M" reaches 6 px to each side of its space's centre)."""


def _big_label(sc: Scale, space: str, mark: str, occupied: bool, **kw: Any) -> str:
    """A built map's mark on its space: in the middle, or in the upper half when a
    character stands there (its tag goes below; see _characters)."""
    cx, cy = sc.centre(space)
    if occupied:
        return _label(cx, cy - 2, mark, MIN_FONT, anchor="middle", **kw)
    return _label(cx, cy + 5, mark, 14, anchor="middle", **kw)


def _label(x: float, y: float, body: str, size: int, **kw: Any) -> str:
    """A hex's own label (name, dome number, tower or labyrinth letter): class hex-label,
    so the browser tests can check no unit tag is drawn over it."""
    return _text(x, y, body, size, **kw).replace("<text ", '<text class="hex-label" ', 1)


def _edge(sc: Scale, a: str, b: str) -> tuple[float, float, float, float]:
    """The ends of the edge two neighbouring spaces share."""
    (x1, y1), (x2, y2) = sc.centre(a), sc.centre(b)
    mx, my, length = (x1 + x2) / 2, (y1 + y2) / 2, math.hypot(x2 - x1, y2 - y1)
    px, py = -(y2 - y1) / length * sc.r / 2, (x2 - x1) / length * sc.r / 2
    return mx - px, my - py, mx + px, my + py


def _outlines(sc: Scale) -> list[str]:
    """Where one platter or key meets another: the pieces' shapes stay visible."""
    owner = hexmap.piece_of()
    parts = []
    for space, piece in sorted(owner.items()):
        for n in hexmap.neighbours(space):
            if owner.get(n, piece) != piece and space < n:
                x1, y1, x2, y2 = _edge(sc, space, n)
                parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                             f'stroke="#1d3557" stroke-width="2" stroke-linecap="round"/>')
    return parts


def _walls(sc: Scale) -> list[str]:
    """Cavern and labyrinth walls along the edges they close (not beside a wall space,
    which is drawn dark already)."""
    parts = []
    terrain, labyrinth = hexmap.terrain(), {s for p in hexmap.labyrinths().values() for s in p}
    for wall in sorted(tuple(sorted(w)) for w in hexmap.walls()):
        if any(terrain.get(s) == "wall" for s in wall):
            continue
        x1, y1, x2, y2 = _edge(sc, *wall)
        what = "labyrinth wall" if set(wall) & labyrinth else "cavern wall"
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                     f'stroke="#4e342e" stroke-width="{4 if sc.big else 5}">'
                     f"<title>{what}</title></line>")
    return parts


def _tunnels(sc: Scale) -> list[str]:
    parts = []
    for seg in hexmap.tunnel_segments():
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (sc.centre(sp) for sp in seg))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{TUNNEL}" '
                     f'stroke-width="3" stroke-dasharray="5 4" opacity="0.8">'
                     f"<title>tunnel {seg[0]}-{seg[-1]}</title></polyline>")
    for space in sorted(hexmap.entrances()):
        cx, cy = sc.centre(space)
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy + sc.r * 0.45:.1f}" '
                     f'r="4" fill="{TUNNEL}">'
                     f"<title>tunnel entrance {space}</title></circle>")
    return parts


def _labyrinths(sc: Scale, view: dict[str, Any], occupied: set[str]) -> list[str]:
    parts = []
    for age, spaces in hexmap.labyrinths().items():
        for i, space in enumerate(spaces):
            cx, cy = sc.centre(space)
            what = " red eye" if i == len(spaces) - 1 else " entrance" if i == 0 else ""
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{sc.r - 4}" fill="none" '
                         f'stroke="{LAB}" stroke-width="2">'
                         f"<title>{age} labyrinth{what} {space}</title></circle>")
        if sc.big:
            ex, ey = sc.centre(spaces[-1])
            parts.append(f'<circle cx="{ex:.1f}" cy="{ey:.1f}" r="4" fill="{LAB}">'
                         f"<title>{age} labyrinth red eye</title></circle>")
            nx, ny = sc.centre(spaces[0])
            parts.append(_big_label(sc, spaces[0], age[0].upper(), spaces[0] in occupied,
                                    fill=LAB, weight="bold"))
        lab = view.get("labyrinths", {}).get(age)
        if not lab or not lab.get("positions"):
            continue
        for n, (team, pos) in enumerate(sorted(lab["positions"].items())):
            cx, cy = sc.centre(spaces[pos])
            dx = (sc.r * 0.55) * (2 * n - 1)
            parts.append(f'<circle cx="{cx + dx:.1f}" cy="{cy + sc.r * 0.5:.1f}" '
                         f'r="{4 if sc.big else 5}" fill="{TEAM[team]}" stroke="{LAB}">'
                         f"<title>Team {team} guardian position ({age})</title></circle>")
    return parts


def _pieces(sc: Scale, view: dict[str, Any]) -> list[str]:
    """While the map is built, each piece's name and where it went, on the piece."""
    parts = []
    for name, at, middle in hexmap.map_data().get("pieces", []) if "build" in view else []:
        cx, cy = sc.centre(middle)
        label = f"{name} {at}"
        width = len(label) * 8 + 8
        parts.append(svg.rect(round(cx - width / 2), round(cy - 30), width, 20,
                              fill="#ffffff", stroke="#333", rx=4, title=label))
        parts.append(_text(cx, cy - 15, label, 13, anchor="middle", weight="bold"))
    return parts


def _reader(view: dict[str, Any]) -> str | None:
    """The reader's team, from the view alone: a seat's view carries its own team's
    standing plans and no other's; the public view carries none and the GM's both (no
    side). Nothing the view does not already say."""
    standing = view.get("standing") or {}
    return next(iter(standing)) if len(standing) == 1 else None


def _characters(sc: Scale, view: dict[str, Any]) -> list[str]:
    """Each character a tag (team colour, key, health) in a group saying whose it is
    (class unit-mine for the reader's own team), so a phone can scroll them into view."""
    parts = []
    reader = _reader(view)
    stacks: dict[str, list[str]] = {}
    for key, c in sorted(view["chars"].items()):
        if c["status"] == "map":
            stacks.setdefault(c["space"], []).append(key)
    labelled = set(hexmap.domes()) | set(hexmap.towers()) | {
        spaces[0] for spaces in hexmap.labyrinths().values()}
    for space, keys in stacks.items():
        cx, cy = sc.centre(space)
        for i, key in enumerate(keys):
            c = view["chars"][key]
            under = " in the tunnel" if c.get("down") else ""
            title = f"{c['title']} ({c['team']}){under} {c['health']}/{c['max_health']}"
            colour = "#000" if c["team"] == "White" else "#fff"
            mark = "v" if under else ""
            stroke = TUNNEL if under else "#000"
            side = (" unit-mine" if c["team"] == reader else " unit-theirs") if reader else ""
            parts.append(f'<g class="unit{side}" data-team="{escape(c["team"])}" '
                         f'data-char="{escape(key)}">')
            if sc.big:
                if space in labelled:  # under the space's label (see _big_label)
                    top, tall = cy + 1 + i * LABELLED_TAG, LABELLED_TAG
                else:
                    top, tall = cy - 11 + i * 18 - (len(keys) - 1) * 9, 17
                tag = f"{mark}{key[:3]}{c['health']}"
                parts.append(svg.rect(round(cx - TAG_WIDTH / 2), round(top), TAG_WIDTH, tall,
                                      fill=TEAM[c["team"]], stroke=stroke, rx=4, title=title))
                text = _text(cx, round(top) + tall / 2 + 4, tag, MIN_FONT, anchor="middle",
                             fill=colour, weight="bold")
                if len(tag) > 3:  # squeezed into the tag rather than drawn smaller
                    text = text.replace("<text ", f'<text textLength="{TAG_WIDTH - 3}" '
                                        'lengthAdjust="spacingAndGlyphs" ', 1)
                parts.append(text)
            else:
                # below the hex's top line (its name and dome number), one under another
                top = cy - 10 + i * 11
                parts.append(svg.rect(round(cx - 20), round(top), 40, 11,
                                      fill=TEAM[c["team"]], stroke=stroke, rx=3, title=title))
                parts.append(_text(cx, top + 9, f"{mark}{key[:5]} {c['health']}", 8,
                                   anchor="middle", fill=colour))
            parts.append("</g>")
    return parts


def _margins(sc: Scale, width: int, height: int) -> list[str]:
    parts = []
    h = sc.r * math.sqrt(3)
    for col in range(width):
        x = sc.left + sc.r + col * sc.r * 1.5
        parts.append(_text(x, sc.top - 8, hexmap.column_name(col), 13, anchor="middle",
                           fill="#333"))
    for row in range(height):
        parts.append(_text(sc.left - 4, sc.top + h / 2 + row * h + 5, str(row + 1), 13,
                           anchor="end", fill="#333"))
    return parts


LEGEND_WIDTH = 340
"""The legend wraps within a phone's width, so it reads without scrolling the board."""
LEGEND = [("clear", "clear"), ("woods", "woods"), ("building", "building"),
          ("swamp", "swamp"), ("rough", "rough"), ("water", "water"),
          ("deep water", "deep water"), ("fire", "fire"), ("obstacle", "obstacle"),
          ("dome", "dome (number)"), ("tower", "tower"), ("wall", "labyrinth wall")]


def _legend(sc: Scale, w: int, h: int) -> tuple[list[str], int]:
    """Swatches for every terrain, then the marks, wrapped to the board's width."""
    items = [(f'<rect x="{{x}}" y="{{y}}" width="14" height="14" fill="{FILL[k]}" '
              f'stroke="#777"/>', text) for k, text in LEGEND]
    items += [(f'<line x1="{{x}}" y1="{{y7}}" x2="{{x14}}" y2="{{y7}}" stroke="{TUNNEL}" '
               f'stroke-width="3" stroke-dasharray="5 4"/>', "tunnel"),
              (f'<circle cx="{{x7}}" cy="{{y7}}" r="4" fill="{TUNNEL}"/>', "tunnel entrance"),
              (f'<circle cx="{{x7}}" cy="{{y7}}" r="6" fill="none" stroke="{LAB}" '
               f'stroke-width="2"/>', "labyrinth path (letter: entrance)"),
              (f'<circle cx="{{x7}}" cy="{{y7}}" r="4" fill="{LAB}"/>', "red eye"),
              ('<line x1="{x}" y1="{y7}" x2="{x14}" y2="{y7}" stroke="#4e342e" '
               'stroke-width="4"/>', "cavern or labyrinth wall"),
              ('<line x1="{x}" y1="{y7}" x2="{x14}" y2="{y7}" stroke="#1d3557" '
               'stroke-width="2"/>', "edge of a platter or key")]
    items += [(f'<text x="{{x}}" y="{{y12}}" font-size="13" font-weight="bold" '
               f'font-family="sans-serif">{m}</text>', f"Tower of {k.title()}")
              for k, m in TOWER_MARK.items()]
    parts, x, y = [], 10, h + 4
    right = min(w, LEGEND_WIDTH) - 6
    for mark, text in items:
        span = 30 + round(len(text) * 7.2)
        if x + span > right and x > 10:
            x, y = 10, y + 20
        parts.append(mark.format(x=x, y=y, x7=x + 7, y7=y + 7, x14=x + 14, y12=y + 12))
        parts.append(_text(x + 19, y + 12, text, MIN_FONT, fill="#222"))
        x += span
    return parts, y + 22
