"""The board picture: both queues (face-down cards as backs), piles, tokens, my hand.

Drawn from a view only: a face-down card the reader may not see arrives as null.
"""

from __future__ import annotations

from typing import Any

from games.core.svg import document, rect, text

CARD_W, CARD_H = 92, 58


def _card(x: int, y: int, card: dict[str, Any] | None, *, face_up: bool = True,
          defended: bool = False) -> list[str]:
    if card is None or not face_up and not card:
        return [rect(x, y, CARD_W, CARD_H, fill="#5b6b8c", title="face down")]
    fill = "#fff" if face_up else "#dfe4ee"
    out = [rect(x, y, CARD_W, CARD_H, fill=fill, stroke="#b8860b" if defended else "#555",
                title=card.get("special") or card.get("name", ""))]
    out.append(text(x + 5, y + 15, card.get("name", "?")[:14], size=10, weight="bold"))
    if card.get("armor"):
        out.append(text(x + 5, y + 32, "armor", size=10))
        return out
    d = card.get("defence", {})
    out.append(text(x + 5, y + 30, f"S{d.get('slash', 0)} T{d.get('stab', 0)} "
                                   f"B{d.get('blunt', 0)}", size=10))
    for i, attack in enumerate(card.get("attacks", [])[:2]):
        out.append(text(x + 5, y + 44 + 11 * i, attack, size=9, fill="#8a1c1c"))
    if not face_up:
        out.append(text(x + CARD_W - 5, y + 15, "hidden", size=8, anchor="end", fill="#555"))
    return out


def svg(view: dict[str, Any]) -> str:
    parts: list[str] = []
    players = view.get("players", {})
    widest = max([len(p.get("queue", [])) for p in players.values()] +
                 [len(p.get("hand") or [])
                  for seat, p in players.items() if seat == view.get("viewer")] + [0])
    width = max(480, 20 + min(widest, 10) * (CARD_W + 8))
    y = 10
    for seat, p in players.items():
        me = seat == view.get("viewer")
        tokens = p.get("tokens", {})
        label = (f"{seat} · {p.get('champion') or 'no champion yet'} · hand {p.get('hand_count', 0)}"
                 f" · deck {p.get('deck_count', 0)} · discard {p.get('discard_count', 0)}"
                 f" · exhausted {len(p.get('exhausted', []))}")
        marks = [f"{k} {v}" for k, v in tokens.items() if v]
        parts.append(text(10, y + 14, label + (" · " + ", ".join(marks) if marks else ""),
                          size=12, weight="bold" if me else "normal"))
        for i, slot in enumerate(p.get("queue", [])):
            parts += _card(10 + i * (CARD_W + 8), y + 22, slot.get("card"),
                           face_up=slot.get("face_up", False), defended=slot.get("defended"))
        y += CARD_H + 34
        if me and p.get("hand"):
            parts.append(text(10, y + 4, "my hand", size=11, fill="#555"))
            for i, card in enumerate(p["hand"][:10]):
                parts += _card(10 + i * (CARD_W + 6), y + 10, card)
            y += CARD_H + 22
    return document(width, max(y, 100), parts, "duelists board")
