"""The seat bot: a plain, steady fighter, decided from the seat's view and prompt only.

It arms with the standard warrior's kit (sword, medium shield, light armour), spreads
its specialty dice over every score, keeps a standing reroll order (reroll when its
attack would not beat the foe's dodge, or its damage not the foe's armour), casts a
charm only when it has one, and never yields. Asked to reroll, it compares its first
throw with the foe's, both shown in the view's pending exchange.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import Pick

KIT = "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR"
REROLL = "STANDING IF ATTACK <= FOE_DODGE THEN REROLL ELSE KEEP"
SPREAD = ("PROWESS", "EVASION", "STRENGTH", "ARMOR", "INITIATIVE", "MANEUVER")


def seat_bot(view: dict[str, Any], prompt: dict[str, Any], seat: str, pick: Pick) -> str:
    phase = view["phase"]
    me = view["fighters"][seat]
    if phase == "arm":
        lines = [KIT]
        count = int(me.get("specialty_count") or 0)
        if count:
            # a spread over the scores, in a pick-chosen rotation
            start = pick(range(len(SPREAD)))
            dice = [SPREAD[(start + i) % len(SPREAD)] for i in range(count)]
            lines.append("SPECIALTY " + " ".join(dice))
        lines.append(REROLL)
        return "\n".join(lines)
    if phase == "reroll":
        ex = view.get("pending") or {}
        scores = ex.get("scores") or {}
        mine = scores.get(seat) or {}
        theirs = next((v for k, v in scores.items() if k != seat), {})
        if mine and theirs and (mine.get("attack", 0) <= theirs.get("dodge", 0)
                                or mine.get("damage", 0) <= theirs.get("armor", 0)):
            return "REROLL"
        return "KEEP"
    lines = []
    if not any("ATTACK <= FOE_DODGE" in line for line in me.get("standing") or []):
        lines.append(REROLL)
    if any(c.startswith("CAST") for c in prompt.get("choices", [])):
        lines.append("IF HP < 6 THEN CAST")
    return "\n".join(lines)
