"""The board picture: the Number, and each player's garden, field and wasteland.

Drawn from a view only, so it can never show what its reader may not see.
"""

from __future__ import annotations

from typing import Any

from games.core.svg import document, rect, text

FILL = {"yellow": "#f4d03f", "green": "#48a87a", "red": "#8e2f2f", "orange": "#e67e22"}
INK = {"yellow": "#222", "green": "#fff", "red": "#fff", "orange": "#222"}


def _die(x: int, y: int, die: str, face: Any, info: dict[str, Any]) -> list[str]:
    colour = info.get("colour", "yellow")
    label = f"{die}" + (f" {face}" if face is not None else "")
    return [rect(x, y, 128, 22, fill=FILL.get(colour, "#ddd"), title=info.get("name")),
            text(x + 6, y + 15, label, size=11, fill=INK.get(colour, "#222"))]


def svg(view: dict[str, Any]) -> str:
    seats = view.get("seats", [])
    players = view.get("players", {})
    dice = view.get("dice", {})
    places = ("garden", "field", "wasteland") if view.get("level", 1) >= 3 else \
        ("garden", "wasteland")
    names = {"garden": "garden" if view.get("level", 1) >= 3 else "hand",
             "field": "field", "wasteland": "wasteland" if view.get("level", 1) >= 3
             else "set aside"}
    rows = max([len(players.get(s, {}).get(p, [])) for s in seats for p in places] + [1])
    width = 20 + len(places) * 140
    block = 40 + rows * 26
    parts: list[str] = []
    number = view.get("number")
    head = f"Level {view.get('level')} · Number: {'none' if number is None else number}"
    if view.get("winner"):
        head += f" · {view['winner']} wins"
    parts.append(text(10, 22, head, size=15, weight="bold"))
    for row, seat in enumerate(seats):
        p = players.get(seat, {})
        y0 = 36 + row * block
        turn = (view.get("pending") or {}).get("seat") == seat
        parts.append(rect(5, y0, width - 10, block - 6,
                          fill="#fff8e1" if turn else ("#eee" if p.get("out") else "#fbfaf7")))
        tag = " (out)" if p.get("out") else (" ← to play" if turn else "")
        if p.get("skips"):
            tag += f" skips {p['skips']}"
        parts.append(text(12, y0 + 16, f"{seat}{tag}", size=13, weight="bold"))
        for col, place in enumerate(places):
            x = 12 + col * 140
            parts.append(text(x, y0 + 32, names[place], size=10, fill="#777"))
            for i, entry in enumerate(p.get(place, [])):
                parts += _die(x, y0 + 36 + i * 26, entry["die"], entry["face"],
                              dice.get(entry["die"], {}))
    height = 40 + len(seats) * block
    return document(width, height, parts, "Dice Age table")
