from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User

from gm.accounts import timezones


def test_deadline_in_reader_zone_with_utc_beside():
    when = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    assert timezones.format_deadline(when) == "Tue 1 Dec 2026, 17:00 UTC"
    text = timezones.format_deadline(when, ZoneInfo("Europe/Paris"))
    assert text == "Tue 1 Dec 2026, 18:00 CET (17:00 UTC)"


@pytest.mark.django_db
def test_zone_of_user_defaults_to_utc_and_refuses_unknown_names():
    user = User.objects.create_user("tz", "tz@example.org", "pw-123456789")
    assert timezones.zone_of(user).key == "UTC"
    timezones.set_zone(user, "America/New_York")
    assert timezones.zone_of(user).key == "America/New_York"
    with pytest.raises(ValueError):
        timezones.set_zone(user, "Mars/Olympus")
    assert timezones.zone_of(user).key == "America/New_York"


def test_client_ip_is_always_an_address_a_database_column_accepts():
    from django.test import RequestFactory

    from gm.accounts.clientip import UNKNOWN, client_ip
    rf = RequestFactory()
    assert client_ip(rf.get("/", REMOTE_ADDR="10.1.2.3")) == "10.1.2.3"
    assert client_ip(rf.get("/", REMOTE_ADDR="")) == UNKNOWN
    assert client_ip(rf.get("/", REMOTE_ADDR="unknown")) == UNKNOWN
