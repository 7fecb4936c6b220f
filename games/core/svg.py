"""Tiny SVG helpers for engines' board pictures (escaped text, boxes, bars)."""

from __future__ import annotations

from xml.sax.saxutils import escape


def text(x: int, y: int, body: str, *, size: int = 13, weight: str = "normal",
         anchor: str = "start", fill: str = "#222") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}" font-family="sans-serif">'
            f"{escape(str(body))}</text>")


def rect(x: int, y: int, w: int, h: int, *, fill: str = "#fff", stroke: str = "#555",
         rx: int = 4, title: str | None = None) -> str:
    tip = f"<title>{escape(title)}</title>" if title else ""
    return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}">{tip}</rect>')


def bar(x: int, y: int, w: int, h: int, value: int, maximum: int, *,
        fill: str = "#3a7d44") -> str:
    share = 0 if maximum <= 0 else max(0, min(value, maximum)) / maximum
    return rect(x, y, w, h, fill="#eee") + rect(x, y, int(w * share), h, fill=fill)


def document(width: int, height: int, parts: list[str], label: str, *,
             css_class: str = "") -> str:
    """css_class: "board-fit" for a picture drawn to be fitted to a phone's width (the
    site scales it rather than scrolling it), "board-narrow" to cap it on a laptop."""
    cls = f' class="{escape(css_class)}"' if css_class else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="100%"{cls} role="img" aria-label="{escape(label)}">' + "".join(parts)
            + "</svg>")
