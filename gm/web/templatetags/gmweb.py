"""Template filters of the web pages."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.safestring import mark_safe

from games.core import registry

register = template.Library()


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "none"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@register.filter
def event_text(data: Any) -> str:
    """An engine event's data as words ('seat P1, roll 4, hits 3, 5'), not a Python dict.

    Keys come out seat first, then alphabetically: PostgreSQL's jsonb reorders stored keys,
    so the stored order is not the engine's and would differ between databases."""
    if isinstance(data, dict):
        keys = sorted(data, key=lambda k: (k != "seat", k))
        return "; ".join(f"{k.replace('_', ' ')}: {_plain(data[k])}" for k in keys)
    return _plain(data)


@register.filter
def error_line(line: Any) -> str:
    """'Line 3: ' for a line error; '' for an error about the orders as a whole (line 0)."""
    try:
        number = int(line)
    except (TypeError, ValueError):
        return ""
    return f"Line {number}: " if number > 0 else ""


_HEADING = re.compile(r"<(/?)h([1-6])\b", re.I)


@register.filter
def shift_headings(html: str, by: int = 2) -> str:
    """Move headings of embedded markdown down (h1 -> h3) so a page keeps one h1 and
    its outline: reports, READMEs and posts sit inside a section with its own h2."""
    def move(match: re.Match) -> str:
        return f"<{match.group(1)}h{min(6, int(match.group(2)) + int(by))}"
    return mark_safe(_HEADING.sub(move, str(html or "")))  # input is already sanitised HTML


@register.filter
def seat_range(engine: Any) -> str:
    """'2 players' or '1–4 players': a range whose ends agree reads as one number."""
    low, high = engine.min_seats, engine.max_seats
    count = f"{low}" if low == high else f"{low}–{high}"
    return f"{count} player" if count == "1" else f"{count} players"


@register.filter
def ruleset_title(name: str) -> str:
    """A ruleset's title for people ('Dungeonquest (PBEM edition)'), not its code name."""
    engine = registry.engines().get(name)
    return engine.title if engine is not None else name


# --- newcomer (issue 28): engine markdown shown as HTML, never as raw markdown ---------
@register.filter
def report_html(markdown_text: str) -> str:
    """An engine's markdown (the setup report, turn 0) as safe HTML: the same renderer and
    sanitiser as the stored turn reports (gm.play.rendering), so `# Report 0` and
    `**Sir Rohan**` read as a heading and bold text, not as markup."""
    from gm.play.rendering import render_markdown

    return mark_safe(render_markdown(str(markdown_text or "")))  # nh3-sanitised


@register.filter
def with_player(seat: str, players: dict | None) -> str:
    """'P2 (bob)': a seat with the name players know each other by (issue 28: press read
    "P2 writes to P1"); the GM and unknown names stay as they are."""
    name = (players or {}).get(seat)
    return f"{seat} ({name})" if name and name != seat else str(seat)
