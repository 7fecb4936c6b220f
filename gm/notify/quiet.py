"""Quiet hours and local clocks: pure functions of a person's settings, a zone and now."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


def local(now: datetime, zone: ZoneInfo) -> datetime:
    return now.astimezone(zone)


def in_quiet(start: int | None, end: int | None, now: datetime, zone: ZoneInfo) -> bool:
    """Whether `now` falls in the quiet hours [start, end) in `zone` (local wall hours;
    start > end wraps midnight, e.g. 22-7). No hours set: never quiet."""
    if start is None or end is None or start == end:
        return False
    hour = local(now, zone).hour
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end


def quiet_ends(start: int | None, end: int | None, now: datetime, zone: ZoneInfo) -> datetime:
    """The first instant at or after `now` outside the quiet hours (now when not quiet).

    Computed on the local wall clock and converted back, so a daylight-saving change
    inside the quiet hours still ends them at the local hour the person chose."""
    if not in_quiet(start, end, now, zone):
        return now
    here = local(now, zone)
    candidate = here.replace(hour=end, minute=0, second=0, microsecond=0)
    if candidate <= here:
        candidate += timedelta(days=1)
    # wall-clock arithmetic: rebuild from the naive fields so the offset is the new day's
    wall = datetime(candidate.year, candidate.month, candidate.day, end, tzinfo=zone)
    return wall.astimezone(now.tzinfo)


def next_local_hour(hour: int, after: datetime, zone: ZoneInfo) -> datetime:
    """The first instant strictly after `after` whose local wall time is hour:00."""
    here = local(after, zone)
    day = here.date()
    for add in range(0, 3):
        d = day + timedelta(days=add)
        wall = datetime(d.year, d.month, d.day, hour, tzinfo=zone)
        if wall > after:
            return wall.astimezone(after.tzinfo)
    raise AssertionError("unreachable")
