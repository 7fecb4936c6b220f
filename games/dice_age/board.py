"""The board: the Number, and each player's garden, field and wasteland.

From level 5 the field is shown in its two parts, the Valley (unsuspended dice) and the
Ledges (suspended dice, with the effect they hold), and Limbo gets its own row; white
dice are drawn white. HTML rather than a fixed-width picture: each player's places are
columns that wrap onto two lines on a phone instead of running off the screen (an SVG
either shrinks its text with it or needs a sideways scroll nobody finds). The classes
are the site's board styles (board-*); every text is escaped. Drawn from a view only,
so it can never show what its reader may not see.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .levels import level_rules

FILL = {"yellow": "#f4d03f", "green": "#48a87a", "red": "#8e2f2f", "orange": "#e67e22",
        "white": "#ffffff"}
INK = {"yellow": "#222", "green": "#000", "red": "#fff", "orange": "#222", "white": "#222"}


def _die(entry: dict[str, Any], info: dict[str, Any]) -> str:
    colour = info.get("colour", "yellow")
    face = entry.get("face")
    label = entry["die"] + (f" {face}" if face is not None else "")
    held = entry.get("suspended")
    if held:
        extra = held["effect"] + (f" ×{held['uses']}" if held["uses"] > 1 else "")
        if held["d6"]:
            extra += " d6 " + ",".join(str(v) for v in held["d6"])
        label += f" [{extra}]"
    title = f' title="{escape(info["name"])}"' if info.get("name") else ""
    return (f'<li class="board-die board-die-{escape(colour)}" style="background:'
            f'{FILL.get(colour, "#ddd")};color:{INK.get(colour, "#222")}"{title}>'
            f"{escape(label)}</li>")


def _places(view: dict[str, Any], player: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    lv = level_rules(view.get("level", 1))
    if not lv.effects:
        places = ("garden", "field", "wasteland") if lv.field else ("garden", "wasteland")
        return {p: player.get(p, []) for p in places}
    field = player.get("field", [])
    return {"garden": player.get("garden", []),
            "valley": [e for e in field if not e.get("suspended")],
            "ledges": [e for e in field if e.get("suspended")],
            "wasteland": player.get("wasteland", [])}


NAMES = {"garden": "garden", "field": "field", "valley": "Valley (field)",
         "ledges": "Ledges (suspended)", "wasteland": "wasteland"}


def _dice(entries: list[dict[str, Any]], dice: dict[str, Any]) -> str:
    if not entries:
        return '<p class="board-empty">none</p>'
    return ('<ul class="board-dice">' + "".join(_die(e, dice.get(e["die"], {}))
                                                for e in entries) + "</ul>")


def html(view: dict[str, Any]) -> str:
    """The table of `view` as an HTML fragment."""
    seats = view.get("seats", [])
    players = view.get("players", {})
    dice = view.get("dice", {})
    level = view.get("level", 1)
    number = view.get("number")
    head = f"Level {level} · Number: {'none' if number is None else number}"
    if view.get("winner"):
        head += f" · {view['winner']} wins"
    pending = view.get("pending") or {}
    if pending.get("kind") == "react":
        head += f" · waiting for {pending['seat']} ({pending.get('window')})"
    parts = ['<div class="board-html" role="group" aria-label="Dice Age table">',
             f'<p class="board-title"><strong>{escape(head)}</strong></p>']
    for seat in seats:
        p = players.get(seat, {})
        turn = pending.get("seat") == seat
        tag = " (out)" if p.get("out") else (" ← to play" if turn else "")
        if p.get("skips"):
            tag += f" skips {p['skips']}"
        if p.get("last"):
            tag += f" · last roll {p['last']}"
        if p.get("forced"):
            tag += f" · must roll {', '.join(p['forced'])}"
        state = " board-turn" if turn else (" board-out" if p.get("out") else "")
        parts.append(f'<section class="board-side{state}"><p class="board-title"><strong>'
                     f"{escape(seat + tag)}</strong></p><div class=\"board-columns\">")
        for place, entries in _places(view, p).items():
            parts.append(f'<div class="board-column"><p class="board-label">'
                         f"{escape(NAMES[place])}</p>{_dice(entries, dice)}</div>")
        parts.append("</div></section>")
    limbo = view.get("limbo", [])
    if level_rules(level).limbo and limbo:
        parts.append('<section class="board-side"><p class="board-title"><strong>Limbo'
                     "</strong></p>"
                     + _dice([{"die": d, "face": None} for d in limbo], dice) + "</section>")
    return "".join(parts) + "</div>"
