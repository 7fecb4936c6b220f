"""The GM desk shows deadlines as the player pages and mails do: in the reader's time
zone (their profile setting) with UTC beside; UTC alone for a reader who chose none."""

from __future__ import annotations

from datetime import UTC, datetime

from django.test import Client

from gm.accounts.timezones import set_zone
from gm.play.models import Turn

WHEN = datetime(2027, 7, 1, 16, 30, tzinfo=UTC)  # summer: Berlin is UTC+2


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_desk_and_turn_inspector_show_the_readers_zone_with_utc(race, gm_user, co_gm):
    Turn.objects.filter(game=race, number=1).update(deadline=WHEN)
    set_zone(gm_user, "Europe/Berlin")
    desk = _client(gm_user).get(f"/games/{race.pk}/gm/").content.decode()
    assert "Thu 1 Jul 2027, 18:30 CEST (16:30 UTC)" in desk
    assert 'datetime="2027-07-01T16:30:00+00:00"' in desk
    turn = _client(gm_user).get(f"/games/{race.pk}/gm/turns/1/").content.decode()
    assert "deadline <time" in turn and "18:30 CEST (16:30 UTC)" in turn
    # a co-GM who chose no zone reads UTC, not the GM's zone
    other = _client(co_gm).get(f"/games/{race.pk}/gm/").content.decode()
    assert "Thu 1 Jul 2027, 16:30 UTC" in other and "CEST" not in other


def test_extending_says_the_new_deadline_in_the_readers_zone(race, gm_user):
    Turn.objects.filter(game=race, number=1).update(deadline=WHEN)
    set_zone(gm_user, "America/New_York")
    page = _client(gm_user).post(f"/games/{race.pk}/gm/do/extend/",
                                 {"hours": "2", "minutes": "0", "reason": "travel"},
                                 follow=True).content.decode()
    assert "deadline was moved to Thu 1 Jul 2027, 14:30 EDT (18:30 UTC)" in page
