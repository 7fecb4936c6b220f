"""Markdown to safe HTML: python-markdown, then nh3 (Ammonia) keeps only harmless tags.

Engine reports, thread posts and mails all go through here, so a player cannot inject
script into another player's page or inbox.
"""

from __future__ import annotations

import markdown as md
import nh3

_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
         "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "span",
         "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul"}
_ATTRIBUTES = {"a": {"href", "title"}, "td": {"align"}, "th": {"align"}, "abbr": {"title"}}


def render_markdown(text: str) -> str:
    html = md.markdown(text or "", extensions=["tables", "fenced_code", "sane_lists"])
    return nh3.clean(html, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes={"http", "https",
                                                                              "mailto"})
