"""`{% when dt %}`: one rule for every time on the site (issue 28): the reader's zone, named.

A reader with a saved zone gets the time in that zone from the server. A reader without
one gets it in UTC, named "UTC", marked `data-zone-chosen="0"`: the page's script
(site.js, localTimes) rewrites it into the browser's zone and names that zone, as the
game page's deadline always did. Either way the zone is on the page next to the time;
"opened 2026-12-05 08:44" with no zone never is.

Usage: `{% load when %}` then `{% when post.created %}` (minutes) or
`{% when sub.created "seconds" %}`; `{% when t "deadline" %}` gives the weekday form
the deadlines use ("Sat 5 Dec 2026, 18:00 CET (17:00 UTC)").
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django import template
from django.utils import timezone
from django.utils.html import format_html

from gm.accounts.timezones import UTC, format_deadline, zone_name_of

register = template.Library()

FORMATS = {
    "minutes": "%Y-%m-%d %H:%M",
    "seconds": "%Y-%m-%d %H:%M:%S",
    "deadline": "%a %-d %b %Y, %H:%M",
}
CACHE = "_gm_reader_zone"


def reader_zone(context: template.Context) -> str:
    """The reader's saved zone name ("" for none), read once per request."""
    request = context.get("request")
    if request is None:
        return ""
    if not hasattr(request, CACHE):
        setattr(request, CACHE, zone_name_of(getattr(request, "user", None)))
    return getattr(request, CACHE)


def remember_zone(request, zone_name: str) -> None:
    """A view that has read the reader's zone already hands it to the tag (one query)."""
    setattr(request, CACHE, zone_name)


def zone_label(local: datetime, zone: ZoneInfo) -> str:
    """'CET', 'UTC'; a zone whose abbreviation is only an offset ('-03') adds its name."""
    abbr = local.strftime("%Z")
    if not abbr or abbr[0] in "+-":
        return f"{abbr} {zone.key}".strip()
    return abbr


def when_text(dt: datetime, zone_name: str, style: str = "minutes") -> str:
    """The words of a time in a zone ('' zone: UTC), with the zone named."""
    if timezone.is_naive(dt):
        dt = timezone.make_aware(dt, UTC)
    zone = ZoneInfo(zone_name) if zone_name else UTC
    if style == "deadline":  # as mails and the game page write deadlines: UTC beside
        return format_deadline(dt, zone)
    local = dt.astimezone(zone)
    return f"{local.strftime(FORMATS.get(style, FORMATS['minutes']))} {zone_label(local, zone)}"


@register.simple_tag(takes_context=True)
def when(context: template.Context, dt: datetime | None, style: str = "minutes") -> str:
    if not dt:
        return ""
    zone_name = reader_zone(context)
    if timezone.is_naive(dt):
        dt = timezone.make_aware(dt, UTC)
    return format_html('<time class="when" datetime="{}" data-style="{}" data-zone-chosen="{}">'
                       "{}</time>", dt.astimezone(UTC).isoformat(), style,
                       "1" if zone_name else "0", when_text(dt, zone_name, style))
