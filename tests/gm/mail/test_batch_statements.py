"""A resolution's notices cost a constant number of statements, whatever the number of
seats (issue 14): the seats are read once, every seat's mail switches in ONE query, the
outbox rows in ONE insert, and the delivery is ONE task for the whole batch."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gm.mail import notices, outbox, prefs, tasks
from gm.mail.models import Kind, Outbox
from gm.play.models import Notice, Turn, TurnRecord

from .publications import record


def _resolve_without_mail(game, on_commit, monkeypatch) -> list[tuple[str, int]]:
    """Play turn 1 with the notify task caught, not run: the resolution's events."""
    from .publications import play_turn

    caught: list = []
    monkeypatch.setattr(tasks.notify, "delay", lambda *args: caught.append(args))
    play_turn(game, on_commit)
    monkeypatch.undo()
    (events,), = caught
    return [tuple(event) for event in events]


def _statements(events) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        assert notices.notify_many(events) > 0
    return [q["sql"] for q in ctx.captured_queries]


@pytest.mark.parametrize("off", [False, True])
def test_statements_do_not_grow_with_the_seats(make_game, on_commit, monkeypatch, players,
                                               off):
    """Two seats and four seats (some with a switch off): the same statements."""
    counts = {}
    for n in (2, 4):
        if off:  # stored switches are read too, still in the one query
            prefs.set_pref(players[1], Kind.REPORT, False)
        game = make_game("tally", n, title=f"Table of {n}")
        events = _resolve_without_mail(game, on_commit, monkeypatch)
        sql = _statements(events)
        counts[n] = len(sql)
        assert sum("gm_mail_mailpreference" in s for s in sql) == 1
        assert sum(s.startswith("INSERT") and "gm_mail_outbox" in s for s in sql) == 1
        assert sum('FROM "play_seat"' in s for s in sql) == 1
        record_pk = dict(events)[Notice.Kind.TURN_PUBLISHED]
        reports = Outbox.objects.filter(key__startswith=f"report:{record_pk}:").count()
        assert reports == (n - 1 if off else n)
    assert counts[2] == counts[4]


def test_one_insert_and_one_delivery_task_for_the_batch(tally_game, on_commit, monkeypatch):
    events = _resolve_without_mail(tally_game, on_commit, monkeypatch)
    deliver = record(monkeypatch, tasks.deliver)
    before = set(Outbox.objects.values_list("pk", flat=True))
    with on_commit():
        assert notices.notify_many(events) == 4  # two reports, two orders requests
    new = sorted(set(Outbox.objects.values_list("pk", flat=True)) - before)
    assert deliver == [(new,)]
    assert set(Outbox.objects.filter(pk__in=new).values_list("status", flat=True)) == {
        Outbox.Status.SENT}


def test_enqueue_many_skips_keys_queued_before_and_returns_only_new_rows(db, on_commit,
                                                                          monkeypatch):
    deliver = record(monkeypatch, tasks.deliver)

    def rows(*keys):
        return [Outbox(key=k, kind=Kind.RECEIPT, to=f"{k}@example.org", subject="s",
                       body_text="t") for k in keys]

    with on_commit():
        first = outbox.enqueue_many(rows("a", "b"))
        second = outbox.enqueue_many(rows("b", "c"))
        assert outbox.enqueue_many([]) == []
    assert len(first) == 2 and len(second) == 1
    assert Outbox.objects.get(pk=second[0]).key == "c"
    assert Outbox.objects.filter(key="b").count() == 1
    assert deliver == [(first,), (second,)]


def test_the_notify_task_run_twice_mails_once(tally_game, on_commit, monkeypatch, mailoutbox):
    """A redelivered task (acks_late, a worker killed after the commit) sends nothing
    again: the outbox keys skip the rows, and no delivery task goes out for none."""
    events = _resolve_without_mail(tally_game, on_commit, monkeypatch)
    payload = [list(e) for e in events]
    deliver = record(monkeypatch, tasks.deliver)
    before = len(mailoutbox)
    with on_commit():
        tasks.notify.apply(args=(payload,)).get()
    sent = len(mailoutbox) - before
    with on_commit():
        tasks.notify.apply(args=(payload,)).get()
        # the notices handled already, even composing them one by one again adds nothing
        assert notices.turn_published(TurnRecord.objects.get(game=tally_game, number=1)) == 0
        assert notices.turn_opened(Turn.objects.get(game=tally_game, number=2)) == 0
    assert sent == 4 and len(mailoutbox) - before == 4 and len(deliver) == 1
    assert Outbox.objects.filter(kind=Kind.REPORT).count() == 2
    assert not Notice.objects.filter(game=tally_game, handled__isnull=True).exists()
