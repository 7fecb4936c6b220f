"""The GM desk shows deadlines as the player pages and mails do: in the reader's time
zone (their profile setting) with UTC beside; UTC alone for a reader who chose none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.test import Client

from gm.accounts.timezones import set_zone
from gm.play.models import Turn


def _summer_deadline(now: datetime | None = None) -> datetime:
    """16:30 UTC on the first day from tomorrow on that is in June, July or August: summer
    time in both Berlin (UTC+2) and New York (UTC-4), and always ahead of the clock, so
    the extend form (which refuses a deadline in the past) keeps working whatever the
    date the suite runs on (at most ~9 months ahead: well inside the one-year limit)."""
    day = (now or datetime.now(UTC)) + timedelta(days=1)
    while day.month not in (6, 7, 8):
        day += timedelta(days=1)
    return day.replace(hour=16, minute=30, second=0, microsecond=0)


def _day(when: datetime) -> str:
    """"Thu 1 Jul 2027": how format_deadline names the day (no leading zero)."""
    return f"{when:%a} {when.day} {when:%b %Y}"


WHEN = _summer_deadline()


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_deadline_is_ahead_and_in_summer_whenever_the_suite_runs():
    for now in (datetime(2027, 7, 1, 17, 0, tzinfo=UTC), datetime(2027, 8, 31, 23, 0, tzinfo=UTC),
                datetime(2028, 2, 29, 12, 0, tzinfo=UTC), datetime(2030, 12, 31, 23, 59, tzinfo=UTC)):
        when = _summer_deadline(now)
        assert now < when < now + timedelta(days=300) and when.month in (6, 7, 8), (now, when)


def test_desk_and_turn_inspector_show_the_readers_zone_with_utc(race, gm_user, co_gm):
    Turn.objects.filter(game=race, number=1).update(deadline=WHEN)
    set_zone(gm_user, "Europe/Berlin")
    desk = _client(gm_user).get(f"/games/{race.pk}/gm/").content.decode()
    assert f"{_day(WHEN)}, 18:30 CEST (16:30 UTC)" in desk
    assert f'datetime="{WHEN:%Y-%m-%d}T16:30:00+00:00"' in desk
    turn = _client(gm_user).get(f"/games/{race.pk}/gm/turns/1/").content.decode()
    assert "deadline <time" in turn and "18:30 CEST (16:30 UTC)" in turn
    # a co-GM who chose no zone reads UTC, not the GM's zone
    other = _client(co_gm).get(f"/games/{race.pk}/gm/").content.decode()
    assert f"{_day(WHEN)}, 16:30 UTC" in other and "CEST" not in other


def test_extending_says_the_new_deadline_in_the_readers_zone(race, gm_user):
    Turn.objects.filter(game=race, number=1).update(deadline=WHEN)
    set_zone(gm_user, "America/New_York")
    page = _client(gm_user).post(f"/games/{race.pk}/gm/do/extend/",
                                 {"hours": "2", "minutes": "0", "reason": "travel"},
                                 follow=True).content.decode()
    later = WHEN + timedelta(hours=2)
    assert f"deadline was moved to {_day(later)}, 14:30 EDT (18:30 UTC)" in page
