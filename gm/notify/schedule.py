"""Deadlines at a human hour.

A game's `Schedule` fixes its deadlines at a local hour in one zone: the engine's turn
length gives the earliest deadline, which moves forward to the next occurrence of that
hour (so a turn resolved early keeps the schedule and no turn is shorter than its
length); a deadline on an excluded weekday moves to the next allowed day (or the previous
one, when that is still after the earliest moment a turn may end: half its length).

`propose_hour` picks the hour that puts the fewest seated players' deadlines in their
night (23:00-07:00 local by default), from their time zones.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from gm.accounts.timezones import valid_zone

from .models import Schedule

NIGHT = (23, 7)  # local hours [23:00, 07:00)


def _wall(day: date, hour: int, minute: int, zone: ZoneInfo) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)


def fix(earliest: datetime, start: datetime, *, hour: int, minute: int = 0,
        zone: ZoneInfo = UTC, excluded: Iterable[int] = (), move: str = "later") -> datetime:
    """The deadline of a turn opened at `start` whose length ends at `earliest`."""
    excluded = set(excluded)
    if len(excluded) >= 7:
        excluded = set()
    here = earliest.astimezone(zone)
    candidate = _wall(here.date(), hour, minute, zone)
    if candidate < earliest:
        candidate = _wall(here.date() + timedelta(days=1), hour, minute, zone)
    if candidate.weekday() in excluded:
        if move == Schedule.Move.EARLIER:
            floor = start + (earliest - start) / 2
            back = candidate
            while back.weekday() in excluded:
                back = _wall(back.date() - timedelta(days=1), hour, minute, zone)
            if back > floor:
                return back.astimezone(earliest.tzinfo)
        while candidate.weekday() in excluded:
            candidate = _wall(candidate.date() + timedelta(days=1), hour, minute, zone)
    return candidate.astimezone(earliest.tzinfo)


# The schedules of live games, kept per process for TTL seconds: opening a turn is the
# hottest path of the service (its statements are pinned: tests/gm/test_statement_counts),
# and a schedule changes rarely (set at creation, edited by the GM). A change made in
# this process clears the memory at once (signals below); another process sees it within
# the TTL, so at most the next turn of that game opened in that window keeps the old hour.
_memory: dict[str, object] = {"at": None, "by_game": {}}


def ttl() -> float:
    from django.conf import settings
    return float(getattr(settings, "GM_NOTIFY_SCHEDULE_TTL", 30.0))


def forget(*args: object, **kwargs: object) -> None:
    _memory["at"] = None


def schedule_of(game_id: int) -> Schedule | None:
    import time
    at = _memory["at"]
    if at is None or time.monotonic() - at > ttl():  # type: ignore[operator]
        live = ("open", "running", "paused")
        _memory["by_game"] = {s.game_id: s for s in
                              Schedule.objects.filter(game__status__in=live)}
        _memory["at"] = time.monotonic()
    return _memory["by_game"].get(game_id)  # type: ignore[union-attr]


def deadline_for(game, start: datetime, length: timedelta) -> datetime:
    """The hook gm.play calls when it opens a turn: the game's schedule, if any."""
    earliest = start + length
    s = schedule_of(game.pk)
    if s is None:
        return earliest
    zone = ZoneInfo(s.time_zone) if valid_zone(s.time_zone) else UTC
    return fix(earliest, start, hour=s.hour, minute=s.minute, zone=zone,
               excluded=s.excluded_days or (), move=s.move)


def in_night(hour_utc: int, zone: ZoneInfo, on: date, night: tuple[int, int] = NIGHT) -> bool:
    local = datetime(on.year, on.month, on.day, hour_utc, tzinfo=UTC).astimezone(zone).hour
    start, end = night
    return local >= start or local < end if start > end else start <= local < end


def propose_hour(zone_names: Iterable[str], game_zone: str = "UTC",
                 on: date | None = None) -> dict:
    """The local hour in `game_zone` that puts the fewest players' deadlines in their
    night; ties go to the hour closest to 20:00 local. Returns the hour, how many are
    in their night at it, and the count for every hour (for the form to show)."""
    on = on or datetime.now(UTC).date()
    zones = [ZoneInfo(n) if n and valid_zone(n) else UTC for n in zone_names]
    gz = ZoneInfo(game_zone) if valid_zone(game_zone) else UTC
    counts = {}
    for local_hour in range(24):
        at = _wall(on, local_hour, 0, gz).astimezone(UTC)
        counts[local_hour] = sum(in_night(at.hour, z, at.date()) for z in zones)
    best = min(range(24), key=lambda h: (counts[h], abs(h - 20)))
    return {"hour": best, "time_zone": gz.key, "in_night": counts[best], "players": len(zones),
            "by_hour": counts}


def propose_for_game(game) -> dict:
    from gm.accounts.models import Profile
    users = list(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    users.append(game.gm_id)
    names = dict(Profile.objects.filter(user_id__in=users).values_list("user_id",
                                                                       "time_zone"))
    gm_zone = names.get(game.gm_id) or "UTC"
    seated = [names.get(pk, "") for pk in users[:-1]] or [gm_zone]
    return propose_hour(seated, gm_zone)
