"""The board: both queues (face-down cards as backs), piles, tokens, my hand.

HTML rather than a fixed-size picture, so that on a phone the cards wrap onto more lines
at a readable size instead of shrinking (an SVG scales its text down with it), and a
card's "face down" mark is a line of its own rather than a label drawn over its name.
The classes are the site's board styles (board-*); every text is escaped. Drawn from a
view only: a face-down card the reader may not see arrives as null.
"""

from __future__ import annotations

from html import escape
from typing import Any


def _card(card: dict[str, Any] | None, *, position: int | None = None,
          face_up: bool = True, defended: bool = False) -> str:
    where = f'<span class="board-pos">{position}</span> ' if position is not None else ""
    if card is None:
        return (f'<li class="board-card board-back"><span class="board-line">{where}'
                '<span class="board-note">face down</span></span></li>')
    classes = ["board-card"]
    notes = []
    if not face_up:
        classes.append("board-hidden")
        notes.append("face down: only you see it")
    if defended:
        classes.append("board-defended")
        notes.append("defended")
    title = f' title="{escape(card["special"])}"' if card.get("special") else ""
    out = [f'<li class="{" ".join(classes)}"{title}><span class="board-line">{where}'
           f'<strong class="board-name">{escape(card.get("name", "?"))}</strong></span>']
    if card.get("armor"):
        out.append('<span class="board-line">armor</span>')
    else:
        d = card.get("defence", {})
        out.append(f'<span class="board-line" title="defence: slash, stab, blunt">'
                   f'S{d.get("slash", 0)} T{d.get("stab", 0)} B{d.get("blunt", 0)}</span>')
        out += [f'<span class="board-line board-attack">{escape(a)}</span>'
                for a in card.get("attacks", [])]
    out += [f'<span class="board-note">{escape(n)}</span>' for n in notes]
    return "".join(out) + "</li>"


def html(view: dict[str, Any]) -> str:
    """The board of `view` as an HTML fragment."""
    parts = ['<div class="board-html" role="group" aria-label="Duelists board">']
    for seat, p in sorted(view.get("players", {}).items()):
        me = seat == view.get("viewer")
        tokens = p.get("tokens", {})
        marks = ", ".join(f"{escape(str(k))} {escape(str(v))}" for k, v in sorted(tokens.items()) if v)
        counts = (f"hand {p.get('hand_count', 0)} · deck {p.get('deck_count', 0)} · discard "
                  f"{p.get('discard_count', 0)} · exhausted {len(p.get('exhausted', []))}")
        head = escape(f"{seat} · {p.get('champion') or 'no champion yet'}"
                      + (" (you)" if me else ""))
        parts.append(f'<section class="board-side{" board-mine" if me else ""}">'
                     f'<p class="board-title"><strong>{head}</strong></p>'
                     f'<p class="board-counts">{counts}{" · " + marks if marks else ""}</p>')
        queue = p.get("queue", [])
        parts.append('<p class="board-label">queue</p>')
        if queue:
            parts.append('<ol class="board-cards">' + "".join(
                _card(slot.get("card"), position=i + 1, face_up=slot.get("face_up", False),
                      defended=bool(slot.get("defended")))
                for i, slot in enumerate(queue)) + "</ol>")
        else:
            parts.append('<p class="board-empty">empty</p>')
        if me and p.get("hand"):
            parts.append('<p class="board-label">my hand</p><ul class="board-cards">'
                         + "".join(_card(card) for card in p["hand"]) + "</ul>")
        parts.append("</section>")
    return "".join(parts) + "</div>"
