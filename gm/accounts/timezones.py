"""One place that turns a user into a time zone and a deadline into words.

Mail and pages both show deadlines in the reader's zone with UTC beside it, so they
read the same; an unknown or empty zone falls back to UTC rather than failing.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

UTC = ZoneInfo("UTC")


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def valid_zone(name: str) -> bool:
    if not name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def zone_name_of(user) -> str:
    """The user's chosen zone name, or "" when none is chosen (or the user is anonymous)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    from .models import Profile
    name = Profile.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    return name if name and valid_zone(name) else ""


def zone_of(user) -> ZoneInfo:
    name = zone_name_of(user)
    return ZoneInfo(name) if name else UTC


def set_zone(user, name: str) -> None:
    from .models import Profile
    if name and not valid_zone(name):
        raise ValueError(f"unknown time zone {name!r}")
    Profile.objects.update_or_create(user=user, defaults={"time_zone": name})


def format_deadline(when: datetime | None, zone: ZoneInfo = UTC) -> str:
    """'Tue 1 Dec 2026, 18:00 CET (17:00 UTC)', or just the UTC form for UTC readers."""
    if when is None:
        return "no deadline"
    utc = when.astimezone(UTC)
    utc_text = utc.strftime("%a %-d %b %Y, %H:%M UTC")
    if zone.key == "UTC":
        return utc_text
    local = when.astimezone(zone)
    return f"{local.strftime('%a %-d %b %Y, %H:%M %Z')} ({utc.strftime('%H:%M UTC')})"
