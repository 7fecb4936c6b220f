"""The tick: Celery beat runs it (the mail app's single reminder is off the schedule) and
`manage.py notify_tick` runs the same for hosts without beat."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

from django.conf import settings
from django.core.management import call_command

from gm.mail.models import Outbox
from gm.play.models import Turn


def test_beat_and_periodic_run_the_tick_not_the_old_reminders():
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "gm.notify.tasks.tick" in tasks and "gm.mail.tasks.send_reminders" not in tasks
    assert "gm.notify.tasks.tick" in settings.GM_PERIODIC
    assert "gm.mail.tasks.send_reminders" not in settings.GM_PERIODIC


def test_the_command_sends_a_due_reminder_once(make_game, tally_engine):
    from django.utils import timezone

    game = make_game("tally", 1)
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(minutes=30))
    out = StringIO()
    call_command("notify_tick", stdout=out)
    assert "reminders=1" in out.getvalue()
    call_command("notify_tick", stdout=StringIO())
    assert Outbox.objects.filter(kind="reminder").count() == 1


def test_old_notifications_are_pruned_but_not_a_waiting_digest(db, players):
    from django.utils import timezone

    from gm.notify import tick
    from gm.notify.models import Notification

    old = timezone.now() - timedelta(days=90)
    for state in ("sent", "digest", "page"):
        Notification.objects.create(user=players[0], key=state, kind="report", text="t",
                                    state=state, created=old)
    Notification.objects.create(user=players[0], key="new", kind="report", text="t",
                                created=timezone.now())
    assert tick.prune(timezone.now()) == 2
    assert set(Notification.objects.values_list("key", flat=True)) == {"digest", "new"}
