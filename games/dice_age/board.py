"""The board picture: the Number, and each player's garden, field and wasteland.

From level 5 the field is drawn in its two parts, the Valley (unsuspended dice) and the
Ledges (suspended dice, with the effect they hold), and Limbo gets its own row; white
dice are drawn white. Drawn from a view only, so it can never show what its reader may
not see.
"""

from __future__ import annotations

from typing import Any

from games.core.svg import document, rect, text

FILL = {"yellow": "#f4d03f", "green": "#48a87a", "red": "#8e2f2f", "orange": "#e67e22",
        "white": "#ffffff"}
INK = {"yellow": "#222", "green": "#fff", "red": "#fff", "orange": "#222", "white": "#222"}
COLUMN = 150


def _die(x: int, y: int, entry: dict[str, Any], info: dict[str, Any]) -> list[str]:
    colour = info.get("colour", "yellow")
    face = entry.get("face")
    label = entry["die"] + (f" {face}" if face is not None else "")
    held = entry.get("suspended")
    if held:
        extra = held["effect"] + (f" ×{held['uses']}" if held["uses"] > 1 else "")
        if held["d6"]:
            extra += " d6 " + ",".join(str(v) for v in held["d6"])
        label += f" [{extra}]"
    return [rect(x, y, COLUMN - 12, 22, fill=FILL.get(colour, "#ddd"),
                 stroke="#555" if colour == "white" else "none", title=info.get("name")),
            text(x + 6, y + 15, label, size=10, fill=INK.get(colour, "#222"))]


def _places(view: dict[str, Any], player: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    level = view.get("level", 1)
    if level < 5:
        places = ("garden", "field", "wasteland") if level >= 3 else ("garden", "wasteland")
        return {p: player.get(p, []) for p in places}
    field = player.get("field", [])
    return {"garden": player.get("garden", []),
            "valley": [e for e in field if not e.get("suspended")],
            "ledges": [e for e in field if e.get("suspended")],
            "wasteland": player.get("wasteland", [])}


NAMES = {"garden": "garden", "field": "field", "valley": "Valley (field)",
         "ledges": "Ledges (suspended)", "wasteland": "wasteland"}


def svg(view: dict[str, Any]) -> str:
    seats = view.get("seats", [])
    players = view.get("players", {})
    dice = view.get("dice", {})
    level = view.get("level", 1)
    laid = {s: _places(view, players.get(s, {})) for s in seats}
    columns = list(next(iter(laid.values())).keys()) if laid else ["garden"]
    rows = max([len(v) for s in seats for v in laid[s].values()] + [1])
    width = 20 + len(columns) * COLUMN
    block = 40 + rows * 26
    parts: list[str] = []
    number = view.get("number")
    head = f"Level {level} · Number: {'none' if number is None else number}"
    if view.get("winner"):
        head += f" · {view['winner']} wins"
    pending = view.get("pending") or {}
    if pending.get("kind") == "react":
        head += f" · waiting for {pending['seat']} ({pending.get('window')})"
    parts.append(text(10, 22, head, size=15, weight="bold"))
    for row, seat in enumerate(seats):
        p = players.get(seat, {})
        y0 = 36 + row * block
        turn = pending.get("seat") == seat
        parts.append(rect(5, y0, width - 10, block - 6,
                          fill="#fff8e1" if turn else ("#eee" if p.get("out") else "#fbfaf7")))
        tag = " (out)" if p.get("out") else (" ← to play" if turn else "")
        if p.get("skips"):
            tag += f" skips {p['skips']}"
        if p.get("last"):
            tag += f" · last roll {p['last']}"
        if p.get("forced"):
            tag += f" · must roll {', '.join(p['forced'])}"
        parts.append(text(12, y0 + 16, f"{seat}{tag}", size=13, weight="bold"))
        for col, place in enumerate(columns):
            x = 12 + col * COLUMN
            parts.append(text(x, y0 + 32, NAMES[place], size=10, fill="#777"))
            for i, entry in enumerate(laid[seat][place]):
                parts += _die(x, y0 + 36 + i * 26, entry, dice.get(entry["die"], {}))
    height = 40 + len(seats) * block
    limbo = view.get("limbo", [])
    if level >= 4 and limbo:
        parts.append(text(10, height + 4, "Limbo", size=11, weight="bold", fill="#555"))
        for i, die in enumerate(limbo):
            x = 60 + (i % 6) * COLUMN
            y = height - 10 + (i // 6) * 26
            parts += _die(x, y, {"die": die, "face": None}, dice.get(die, {}))
        height += 20 + ((len(limbo) + 5) // 6) * 26
    return document(width, height, parts, "Dice Age table")
