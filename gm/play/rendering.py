"""Markdown to safe HTML: python-markdown, then nh3 (Ammonia) keeps only harmless tags.

Engine reports, thread posts and mails all go through here, so a player cannot inject
script into another player's page or inbox. Turn reports are rendered on first read, not
when they are published (gm.play.models.RenderedMarkdown).
"""

from __future__ import annotations

import functools
import threading

import markdown as md
import nh3

_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
         "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "span",
         "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul"}
_ATTRIBUTES = {"a": {"href", "title"}, "td": {"align"}, "th": {"align"}, "abbr": {"title"}}


_local = threading.local()


def _converter() -> md.Markdown:
    """One Markdown instance per thread: building one (extensions) costs more than a
    report's conversion, and instances are not thread-safe."""
    conv = getattr(_local, "md", None)
    if conv is None:
        conv = _local.md = md.Markdown(extensions=["tables", "fenced_code", "sane_lists"])
    return conv


def render_markdown(text: str) -> str:
    """Safe HTML of `text`; the same text is rendered once per process (most recent
    RENDER_CACHE texts kept): the public report, the seats' reports that equal it, the
    thread post of it and the mails of it all share one conversion."""
    return _render(text or "")


RENDER_CACHE = 1024


@functools.lru_cache(maxsize=RENDER_CACHE)
def _render(text: str) -> str:
    return _convert(text)


def _convert(text: str) -> str:
    """The conversion itself, uncached (tests count its calls)."""
    html = _converter().reset().convert(text)
    return nh3.clean(html, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes={"http", "https",
                                                                              "mailto"})
