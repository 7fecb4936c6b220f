"""Notification tests: a fresh schedule memory per test (ids are reused after rollback),
and helpers to set a person's settings and time zone."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_schedules():
    from gm.notify import schedule

    schedule.forget()
    yield
    schedule.forget()


@pytest.fixture
def set_prefs(db):
    """set_prefs(user, zone="", **settings): the person's notification settings."""
    from gm.accounts.timezones import set_zone
    from gm.notify.models import Settings

    def apply(user, zone: str = "", **fields):
        if zone:
            set_zone(user, zone)
        s, _ = Settings.objects.update_or_create(user=user, defaults=fields)
        return s
    return apply
