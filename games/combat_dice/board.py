"""The board picture: both fighters, their hit points, kit, conditions and last throw.

Drawn from a view only, so it can never show what its reader may not see.

The fighters are drawn one above the other in a picture as wide as a phone (class
board-fit: fitted to the screen, every text 12 px or more once fitted). Side by side,
600 wide, it scrolled inside its card at 375 px: P1 saw the foe's hit points only by
swiping the picture, and P2 did not see his own fighter at all.
"""

from __future__ import annotations

from typing import Any

from games.core.svg import bar, document, rect, text

WIDTH, ROW = 305, 265  # one fighter a row
SCORES = ["attack", "dodge", "damage", "armor", "initiative", "maneuver"]


def svg(view: dict[str, Any]) -> str:
    fighters = view.get("fighters", {})
    last = view.get("last") or {}
    parts: list[str] = []
    x = 10
    seats = view.get("seats", [])
    for row, seat in enumerate(seats):
        f = fighters.get(seat, {})
        parts.append(f'<g transform="translate(0 {row * ROW})">')
        parts.append(rect(x, 10, 285, 250, fill="#fbfaf7"))
        parts.append(text(x + 10, 32, f"{seat}", size=16, weight="bold"))
        hp, max_hp = f.get("hp"), f.get("max_hp")
        if hp is None or not max_hp:  # hidden until both have armed
            parts.append(text(x + 140, 54, "hit points hidden until both are armed", size=12,
                              anchor="middle", fill="#777"))
        else:
            parts.append(bar(x + 10, 42, 265, 14, hp, max_hp,
                             fill="#3a7d44" if hp > max_hp // 3 else "#b33"))
            parts.append(text(x + 140, 53, f"{hp} / {max_hp} HP", size=12, anchor="middle"))
        kit = f.get("items") or (["unarmed"] if view.get("phase") != "arm" else ["arming…"])
        charm = f.get("charm")
        if charm:  # the spell only when the view shows it (own charm, or cast)
            note = ", ".join(x for x in (charm["spell"], "spent" if charm["spent"] else "")
                             if x)
            kit = [f"{k} ({note})" if k == "Spell Charm" and note else k for k in kit]
        parts.append(text(x + 10, 76, ", ".join(kit), size=12))
        for i, cond in enumerate((f.get("conditions") or [])[:4]):
            parts.append(text(x + 10, 96 + 16 * i, cond, size=12, fill="#a33"))
        roll = (last.get("rolls") or {}).get(seat)
        if roll:
            dice = list(roll.get("basic", [])) + list(roll.get("specialty", []))
            for i, face in enumerate(dice[:12]):
                dx = x + 10 + (i % 8) * 33
                dy = 165 + (i // 8) * 33
                parts.append(rect(dx, dy, 28, 28, fill="#fff"))
                parts.append(text(dx + 14, dy + 19, str(face), size=14, anchor="middle"))
        scores = (last.get("scores") or {}).get(seat)
        if scores:
            line = "  ".join(f"{k[:3]} {scores.get(k, 0)}" for k in SCORES)
            parts.append(text(x + 10, 250, line, size=12))
        parts.append("</g>")
    title = (f"After combat round {view['turn']}" if view.get("turn")  # the game's own count
             else "Before the first combat round")
    if last.get("first"):
        title += f" · {last['first']} struck first last round"
    bottom = ROW * max(1, len(seats))
    parts.append(text(10, bottom + 15, title, size=12, fill="#555"))
    return document(WIDTH, bottom + 25, parts, "combat dice board",
                    css_class="board-fit board-narrow")
