"""Escalating reminders with a frozen clock: the person's offsets, one per window, none
once orders are in, "you are the last one", quiet hours in the person's zone (the night
of Berlin's autumn clock change), the last-hour exception, and the daily cap."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.mail.models import Outbox
from gm.notify import escalation
from gm.notify.models import Nudge
from gm.play import actions
from gm.play.models import Turn

# 28 March 2027, 01:30 UTC = 03:30 CEST, just after Berlin's change (02:00 CET -> 03:00
# CEST at 01:00 UTC): Berlin is at night; New York (EDT since 14 March) at 21:30 the day
# before
DEADLINE = datetime(2027, 3, 28, 1, 30, tzinfo=UTC)


def reminders(user=None) -> list[Outbox]:
    rows = Outbox.objects.filter(kind="reminder").order_by("id")
    return list(rows.filter(user=user) if user is not None else rows)


def _game(make_game, n=3, deadline=DEADLINE, **kw):
    game = make_game("tally", n, turn_hours=48, **kw)
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=deadline)
    return game, Turn.objects.get(pk=turn.pk)


def test_escalation_across_zones_and_the_clock_change(make_game, players, set_prefs,
                                                      tally_engine):
    alice, bob, carol = players[:3]
    set_prefs(alice, "America/New_York")  # default offsets 24, 4, 1; no quiet hours
    set_prefs(bob, "Europe/Berlin", quiet_start=22, quiet_end=7, urgent_breaks_quiet=True)
    game, turn = _game(make_game)
    carol_seat = game.seats.get(user=carol)
    actions.submit_orders(game, carol_seat, "ADD 1")  # carol is in: never reminded

    assert escalation.tick(DEADLINE - timedelta(hours=30)) == 0  # before any window
    # D-23h = 02:30 UTC on the 27th: 03:30 CET in Berlin (quiet), 22:30 in New York
    assert escalation.tick(DEADLINE - timedelta(hours=23)) == 1
    assert [r.user for r in reminders()] == [alice]
    assert escalation.tick(DEADLINE - timedelta(hours=22)) == 0  # one per window
    assert escalation.tick(DEADLINE - timedelta(hours=20)) == 0  # 06:30 CET: still quiet
    # D-19h = 07:30 CET: quiet hours over, bob gets the 24 h window now
    assert escalation.tick(DEADLINE - timedelta(hours=19)) == 1
    assert [r.user for r in reminders(bob)] == [bob]
    # D-3h = 22:30 UTC on the 27th = 23:30 CET: bob is in quiet hours; alice is not
    assert escalation.tick(DEADLINE - timedelta(hours=3)) == 1
    assert len(reminders(alice)) == 2 and len(reminders(bob)) == 1
    actions.submit_orders(game, game.seats.get(user=alice), "ADD 2")  # alice is in
    # D-30min = 03:00 CEST (the change's first minute): quiet for bob, but the last-hour
    # reminder may break it for him, and he is the last one
    assert escalation.tick(DEADLINE - timedelta(minutes=30)) == 1
    last = reminders(bob)[-1]
    assert "you are the last one" in last.subject
    assert last.body_text.startswith("You are the last one")
    assert len(reminders(alice)) == 2  # orders in: no more
    assert escalation.tick(DEADLINE - timedelta(minutes=10)) == 0
    assert set(Nudge.objects.filter(user=bob).values_list("window", flat=True)) == {24.0, 1.0}


def test_the_last_hour_does_not_break_quiet_hours_unless_allowed(make_game, players,
                                                                 set_prefs, tally_engine):
    alice = players[0]
    set_prefs(alice, "Europe/Berlin", quiet_start=22, quiet_end=7)
    game, turn = _game(make_game, n=1)
    assert escalation.tick(DEADLINE - timedelta(minutes=30)) == 0
    assert reminders() == []


def test_personal_offsets_and_the_daily_cap(make_game, players, set_prefs, tally_engine):
    alice = players[0]
    set_prefs(alice, reminder_hours=[2], daily_cap=2)
    now = datetime(2026, 6, 1, 12, tzinfo=UTC)
    for _ in range(3):  # three games, all due in 90 minutes
        _game(make_game, n=1, deadline=now + timedelta(minutes=90))
    assert escalation.tick(now - timedelta(hours=1)) == 0  # 2 h offset not reached
    assert escalation.tick(now) == 2  # the cap across games
    assert escalation.tick(now + timedelta(minutes=30)) == 0
    assert len(reminders(alice)) == 2
    assert all(":2h" in r.key for r in reminders(alice))


def test_a_tick_with_nothing_new_costs_no_statement_per_turn(make_game, players,
                                                             tally_engine):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    now = datetime(2027, 6, 1, 12, tzinfo=UTC)
    for _ in range(2):
        _game(make_game, n=2, deadline=now + timedelta(hours=30))  # no window reached
    with CaptureQueriesContext(connection) as two:
        assert escalation.tick(now) == 0
    for _ in range(3):
        _game(make_game, n=2, deadline=now + timedelta(hours=30))
    with CaptureQueriesContext(connection) as five:
        assert escalation.tick(now) == 0
    assert len(two.captured_queries) == len(five.captured_queries) == 4
