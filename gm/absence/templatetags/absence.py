"""Template tags the game page uses: who is away, and the "if you miss" line."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from gm.accounts.timezones import zone_of

from .. import actions

register = template.Library()


@register.simple_tag
def away_notice(game, user) -> str:
    """'P2 is away until Fri 18 Dec, 18:00 CET (their orders: bot)' lines and a link."""
    rules = actions.rules_of(game)
    lines = actions.away_lines(game, zone_of(user) if user.is_authenticated else None) \
        if rules is not None and rules.vacations_allowed else []
    link = format_html('<a href="{}">Absence rules</a>', reverse("absence-game",
                                                                  args=[game.pk]))
    if not lines:
        return format_html('<p class="small" id="absence-link">{}</p>', link)
    items = format_html_join("", "<li>{}</li>", ((line,) for line in lines))
    return format_html('<ul class="notice" id="away-lines">{}</ul><p class="small" '
                       'id="absence-link">{}</p>', items, link)


@register.simple_tag
def if_missed(game, seat_name) -> str:
    """The order card's line: what a missed deadline would play for the reader's seat."""
    # the page's seats, read once for the whole page (Game.remember_people)
    seat = next((s for s in game.all_seats() if s.name == seat_name), None) \
        if seat_name else None
    if seat is None:
        return ""
    line = actions.if_missed_line(game, seat)
    if not line:
        return ""
    return format_html('<p class="notice small" id="if-missed">{} · <a href="{}">change</a>'
                       '</p>', line[0].upper() + line[1:],
                       reverse("absence-game", args=[game.pk]))
