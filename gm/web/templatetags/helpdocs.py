"""Filters linking pages to the players' help (gm.web.playerdocs)."""

from __future__ import annotations

from django import template

from gm.web import playerdocs

register = template.Library()


@register.filter
def order_anchors(ruleset: str) -> str:
    """The order words with a section of their own in the ruleset's help, space-separated
    (the game page's help link points at the one being written)."""
    return " ".join(playerdocs.order_anchors(ruleset))
