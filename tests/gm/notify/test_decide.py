"""The budget's verdicts, quiet hours and local clocks, as a table (pure functions)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from gm.notify import budget, quiet

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")


def prefs(**kw):
    base = dict(mode="each", channel="mail", every_channel=False, quiet_start=None,
                quiet_end=None, urgent_breaks_quiet=False)
    return SimpleNamespace(**{**base, **kw})


def ev(kind="report", needs=False, urgent=False):
    return budget.Event(kind, f"{kind}:1", "text", 1, needs_action=needs, urgent=urgent)


NOON = datetime(2026, 6, 1, 12, tzinfo=UTC)
NIGHT_BERLIN = datetime(2026, 6, 1, 23, tzinfo=UTC)  # 01:00 in Berlin (CEST)


@pytest.mark.parametrize("settings,event,now,zone,hook,state,channels", [
    (None, ev(), NOON, UTC, False, "sent", ("mail",)),                   # defaults: today
    (prefs(mode="digest"), ev(), NOON, UTC, False, "digest", ()),
    (prefs(mode="digest"), ev("reminder", True), NOON, UTC, False, "sent", ("mail",)),
    (prefs(mode="needs"), ev(), NOON, UTC, False, "page", ()),
    (prefs(mode="needs"), ev("turn_opened", True), NOON, UTC, False, "sent", ("mail",)),
    (prefs(channel="webhook"), ev(), NOON, UTC, True, "sent", ("webhook",)),
    (prefs(channel="webhook"), ev(), NOON, UTC, False, "sent", ("mail",)),  # no hook: mail
    (prefs(every_channel=True), ev(), NOON, UTC, True, "sent", ("mail", "webhook")),
    (prefs(channel="page"), ev(), NOON, UTC, True, "page", ()),
    (None, ev("post"), NOON, UTC, False, "page", ()),                    # never mailed each
    (prefs(channel="webhook"), ev("post"), NOON, UTC, True, "sent", ("webhook",)),
    (prefs(quiet_start=22, quiet_end=7), ev(), NIGHT_BERLIN, BERLIN, False, "held",
     ("mail",)),
    (prefs(quiet_start=22, quiet_end=7), ev(), NIGHT_BERLIN, NEW_YORK, False, "sent",
     ("mail",)),                                                        # 19:00 in New York
    (prefs(quiet_start=22, quiet_end=7), ev("reminder", True, True), NIGHT_BERLIN, BERLIN,
     False, "held", ("mail",)),                                         # not allowed
    (prefs(quiet_start=22, quiet_end=7, urgent_breaks_quiet=True),
     ev("reminder", True, True), NIGHT_BERLIN, BERLIN, False, "sent", ("mail",)),
    (prefs(quiet_start=22, quiet_end=7, urgent_breaks_quiet=True),
     ev("reminder", True, False), NIGHT_BERLIN, BERLIN, False, "held", ("mail",)),
])
def test_verdicts(settings, event, now, zone, hook, state, channels):
    verdict = budget.decide(settings, event, now, zone, has_webhook=hook)
    assert (verdict.state, verdict.channels if state != "digest" else ()) == (state, channels)


def test_held_until_the_local_end_of_quiet_hours():
    s = prefs(quiet_start=22, quiet_end=7)
    verdict = budget.decide(s, ev(), NIGHT_BERLIN, BERLIN)
    assert verdict.due == datetime(2026, 6, 2, 5, tzinfo=UTC)  # 07:00 CEST


def test_quiet_hours_across_the_autumn_change():
    """Berlin leaves summer time at 03:00 on 25 October 2026: quiet hours 22-7 that began
    at 20:00 UTC (UTC+2) end at 07:00 winter time, 06:00 UTC: nine hours later, not eight."""
    start = datetime(2026, 10, 24, 20, 30, tzinfo=UTC)  # 22:30 CEST
    assert quiet.in_quiet(22, 7, start, BERLIN)
    assert quiet.quiet_ends(22, 7, start, BERLIN) == datetime(2026, 10, 25, 6, tzinfo=UTC)
    assert not quiet.in_quiet(22, 7, datetime(2026, 10, 25, 6, tzinfo=UTC), BERLIN)
    assert quiet.in_quiet(22, 7, datetime(2026, 10, 25, 5, 59, tzinfo=UTC), BERLIN)


def test_quiet_hours_across_the_spring_change_in_new_york():
    """New York springs forward at 02:00 on 8 March 2026: 07:00 EDT is 11:00 UTC."""
    late = datetime(2026, 3, 8, 4, tzinfo=UTC)  # 23:00 EST on the 7th
    assert quiet.quiet_ends(22, 7, late, NEW_YORK) == datetime(2026, 3, 8, 11, tzinfo=UTC)


def test_daytime_quiet_hours_do_not_wrap():
    assert quiet.in_quiet(9, 17, datetime(2026, 6, 1, 10, tzinfo=UTC), UTC)
    assert not quiet.in_quiet(9, 17, datetime(2026, 6, 1, 18, tzinfo=UTC), UTC)
    assert not quiet.in_quiet(None, 7, NOON, UTC)
