"""The board picture: both fighters, their hit points, kit, conditions and last throw.

Drawn from a view only, so it can never show what its reader may not see.
"""

from __future__ import annotations

from typing import Any

from games.core.svg import bar, document, rect, text

SCORES = ["attack", "dodge", "damage", "armor", "initiative", "maneuver"]


def svg(view: dict[str, Any]) -> str:
    fighters = view.get("fighters", {})
    last = view.get("last") or {}
    parts: list[str] = []
    for col, seat in enumerate(view.get("seats", [])):
        f = fighters.get(seat, {})
        x = 10 + col * 300
        parts.append(rect(x, 10, 285, 250, fill="#fbfaf7"))
        parts.append(text(x + 10, 32, f"{seat}", size=16, weight="bold"))
        hp, max_hp = f.get("hp"), f.get("max_hp")
        if hp is None or not max_hp:  # hidden until both have armed
            parts.append(text(x + 140, 54, "hit points hidden until both are armed", size=11,
                              anchor="middle", fill="#777"))
        else:
            parts.append(bar(x + 10, 42, 265, 14, hp, max_hp,
                             fill="#3a7d44" if hp > max_hp // 3 else "#b33"))
            parts.append(text(x + 140, 54, f"{hp} / {max_hp} HP", size=11, anchor="middle"))
        kit = f.get("items") or (["unarmed"] if view.get("phase") != "arm" else ["arming…"])
        charm = f.get("charm")
        if charm:  # the spell only when the view shows it (own charm, or cast)
            note = ", ".join(x for x in (charm["spell"], "spent" if charm["spent"] else "")
                             if x)
            kit = [f"{k} ({note})" if k == "Spell Charm" and note else k for k in kit]
        parts.append(text(x + 10, 76, ", ".join(kit), size=12))
        for i, cond in enumerate((f.get("conditions") or [])[:4]):
            parts.append(text(x + 10, 96 + 16 * i, cond, size=11, fill="#a33"))
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
            parts.append(text(x + 10, 250, line, size=11))
    title = (f"After combat turn {view['turn']}" if view.get("turn")  # the game's own count
             else "Before the first combat turn")
    if last.get("first"):
        title += f" · {last['first']} struck first last turn"
    parts.append(text(10, 285, title, size=12, fill="#555"))
    return document(600, 295, parts, "combat dice board")
