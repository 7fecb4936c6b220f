"""An SVG picture of a view: the hex field, its terrain, and the characters on it."""

from __future__ import annotations

import math
from typing import Any

from games.core import svg

from . import hexmap

FILL = {"clear": "#f4f1e6", "woods": "#7fb069", "building": "#9c8f80", "swamp": "#6b8f71",
        "rough": "#c9b38a", "water": "#8ecae6", "deep water": "#3a6ea5", "fire": "#e4572e",
        "obstacle": "#5c5552", "tower": "#b388eb", "dome": "#ffd166", "wall": "#3b3b3b"}
TEAM = {"White": "#ffffff", "Black": "#222222"}
R = 26


def _centre(space: str) -> tuple[int, int]:
    col, row = hexmap.col_row(space)
    x = 40 + col * R * 3 // 2
    y = 40 + int(row * R * math.sqrt(3) + (col & 1) * R * math.sqrt(3) / 2)
    return x, y


def _hex(space: str, fill: str, title: str) -> str:
    cx, cy = _centre(space)
    pts = " ".join(f"{cx + R * math.cos(math.pi / 3 * i):.1f},"
                   f"{cy + R * math.sin(math.pi / 3 * i):.1f}" for i in range(6))
    return (f'<polygon points="{pts}" fill="{fill}" stroke="#777">'
            f"<title>{title}</title></polygon>")


def board(view: dict[str, Any]) -> str:
    parts = []
    domes, towers = hexmap.domes(), hexmap.towers()
    # a built map is two dozen spaces wide: drawn at phone width (375 px) a space label
    # would be unreadable, so it draws coordinates in the margins and bigger marks
    compact = hexmap.size()[0] > 12
    big = 2 if compact else 1
    for space, kind in hexmap.terrain().items():
        label = f"{space} {kind}" + (f" {domes[space]}" if space in domes else "") + (
            f" ({towers[space]})" if space in towers else "")
        parts.append(_hex(space, FILL[kind], label))
        cx, cy = _centre(space)
        if not compact:
            parts.append(svg.text(cx, cy - 12, space, size=8, anchor="middle", fill="#555"))
        if space in domes:
            parts.append(svg.text(cx, cy + (6 if compact else 18), str(domes[space]),
                                  size=9 * big, anchor="middle"))
        if space in towers and compact:
            parts.append(svg.text(cx, cy + 6, towers[space][0].upper(), size=18,
                                  anchor="middle"))
    if compact:
        width, height = hexmap.size()
        for col in range(width):
            parts.append(svg.text(40 + col * R * 3 // 2, 12, chr(65 + col), size=14,
                                  anchor="middle", fill="#555"))
        for row in range(height):
            parts.append(svg.text(4, 40 + int(row * R * math.sqrt(3)) + 5, str(row + 1),
                                  size=12, fill="#555"))
    for age, spaces in hexmap.labyrinths().items():
        if age not in view["labyrinths"] or not view["labyrinths"][age]["positions"]:
            continue
        for i, space in enumerate(spaces):
            cx, cy = _centre(space)
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{R - 5}" fill="none" '
                         f'stroke="#c0392b" stroke-width="2">'
                         f"<title>{age} labyrinth{' red eye' if i == len(spaces) - 1 else ''}"
                         f"{' entrance' if i == 0 else ''}</title></circle>")
        lab = view["labyrinths"][age]
        for n, (team, pos) in enumerate(sorted(lab["positions"].items())):
            cx, cy = _centre(spaces[pos])
            parts.append(f'<circle cx="{cx - 14 + n * 28}" cy="{cy + 14}" r="5" '
                         f'fill="{TEAM[team]}" stroke="#c0392b">'
                         f"<title>Team {team} guardian position ({age})</title></circle>")
    for wall in sorted(tuple(sorted(w)) for w in hexmap.walls()):
        (x1, y1), (x2, y2) = (_centre(s) for s in wall)
        mx, my, length = (x1 + x2) / 2, (y1 + y2) / 2, math.hypot(x2 - x1, y2 - y1)
        px, py = -(y2 - y1) / length * R / 2, (x2 - x1) / length * R / 2
        parts.append(f'<line x1="{mx - px:.1f}" y1="{my - py:.1f}" x2="{mx + px:.1f}" '
                     f'y2="{my + py:.1f}" stroke="#4e342e" stroke-width="5">'
                     f"<title>cavern wall</title></line>")
    for seg in hexmap.tunnel_segments():
        points = " ".join(f"{x},{y}" for x, y in (_centre(sp) for sp in seg))
        parts.append(f'<polyline points="{points}" fill="none" stroke="#6d4c41" '
                     f'stroke-width="3" stroke-dasharray="5 4" opacity="0.7"/>')
    for space in sorted(hexmap.entrances()):
        cx, cy = _centre(space)
        parts.append(f'<circle cx="{cx}" cy="{cy + 12}" r="4" fill="#6d4c41">'
                     f"<title>tunnel entrance {space}</title></circle>")
    stacks: dict[str, list[str]] = {}
    for key, c in view["chars"].items():
        if c["status"] == "map":
            stacks.setdefault(c["space"], []).append(key)
    for space, keys in stacks.items():
        cx, cy = _centre(space)
        for i, key in enumerate(keys):
            c = view["chars"][key]
            y = cy - 4 + i * 11 - (len(keys) - 1) * 5
            under = " in the tunnel" if c.get("down") else ""
            title = (f"{c['title']} ({c['team']}){under} "
                     f"{c['health']}/{c['max_health']}")
            colour = "#000" if c["team"] == "White" else "#fff"
            mark = "v" if under else ""
            if compact:
                y = cy - 4 + i * 24 - (len(keys) - 1) * 12
                parts.append(svg.rect(cx - 24, y - 11, 48, 22, fill=TEAM[c["team"]],
                                      stroke="#6d4c41" if under else "#000", rx=5,
                                      title=title))
                parts.append(svg.text(cx, y + 6, f"{mark}{key[:3]}{c['health']}", size=16,
                                      anchor="middle", fill=colour))
                continue
            parts.append(svg.rect(cx - 20, y - 8, 40, 11, fill=TEAM[c["team"]],
                                  stroke="#6d4c41" if under else "#000",
                                  rx=3, title=title))
            parts.append(svg.text(cx, y + 1, f"{mark}{key[:5]} {c['health']}", size=8,
                                  anchor="middle", fill=colour))
    width, height = hexmap.size()
    w = 80 + width * R * 3 // 2
    h = 80 + int((height + 0.5) * R * math.sqrt(3))
    status = (f"Round {view['round']} of {view['rounds']}, Team {view['active']} to move"
              if not view["over"] else f"Over: {view['summary']}")
    parts.append(svg.text(10, h - 10, status, size=12 * big))
    return svg.document(w, h, parts, "Duel of Ages skirmish map")
