"""Faults probed as an outsider would, through the real stack: worker processes,
PostgreSQL and a Redis broker, with a TCP proxy (stack.TcpProxy) between one worker and
the broker, so that only that worker's traffic is held or dropped.

What test_worker.py and test_faults.py already cover is not repeated here: a worker
killed while it waits inside the resolution (before its commit), duplicate deliveries
and racing sweeps, orders at the deadline, the broker down when orders arrive.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from datetime import timedelta

import psycopg
import pytest
from django.utils import timezone

from gm.mail import notices, outbox
from gm.mail.models import InboundMessage, Kind, Outbox
from gm.play import actions
from gm.play.models import Notice, Post, Report, Submission, Turn, TurnRecord

from .stack import (
    BROKER_URL,
    ROOT,
    PrivateRedis,
    TcpProxy,
    database_url,
    use_broker,
    wait_for,
    worker_env,
)
from .test_faults import _game, _orders, _resolve_lines, _resolved, _waiting_on_lock, smtp

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["smtp"]  # the fixture, imported for the tests below


def _ready(worker) -> bool:
    return " ready." in worker.output()


def _mail_once(game, sink) -> Counter:
    """Run the periodic mail job twice (whatever the broker lost is handled from the
    database) and check that every message went out once: each outbox row (unique per
    event and recipient) sent, and handed to the SMTP peer once. The sent rows by kind;
    the test database holds this game's mail only."""
    for minutes in (2, 4):
        later = timezone.now() + timedelta(minutes=minutes)
        notices.catch_up(now=later)
        outbox.deliver_pending(now=later)
    assert not Notice.objects.filter(game=game, handled__isnull=True).exists()
    rows = list(Outbox.objects.all())
    assert all(row.status == Outbox.Status.SENT for row in rows), rows
    handed = [msg for _to, msg in sink.messages]
    assert len(handed) == len(rows) == len(set(handed)), [r.key for r in rows]
    assert len({row.message_id for row in rows}) == len(rows)
    return Counter(row.kind for row in rows)


def _restore_unacked(app) -> None:
    """Put unacked messages past the visibility timeout back in their queue, as every
    kombu Redis consumer does now and then (a worker: at start, then about every 100 s,
    kombu's unacked_restore_interval x unacked_restore_throttle), now: the redelivery
    happens when the test is ready for it, not within a window of the worker's start."""
    with app.connection_for_write() as conn:
        qos = getattr(conn.default_channel, "qos", None)
        if qos is not None and hasattr(qos, "restore_visible"):
            qos.restore_visible(num=100, interval=1)


# --- a worker killed between its commit and its ack ----------------------------------------
def test_a_worker_killed_after_its_commit_resolves_and_mails_once(workers, gm_user, players,
                                                                  smtp, real_broker):
    """acks_late: the worker commits the resolution, then acks. Killed in between (its
    wake-ups for the mail never reached the broker either: held by the proxy), the
    message is redelivered to another worker, which finds the turn resolved and does
    nothing; the reports and mails come once, from the database (the outbox)."""
    sink = smtp()
    broker = urllib.parse.urlsplit(BROKER_URL)
    proxy = TcpProxy(broker.hostname or "127.0.0.1", broker.port or 6379)
    try:
        doomed = workers("doomed", env={"CELERY_BROKER_URL": proxy.url(BROKER_URL)})
        wait_for(lambda: _ready(doomed), 120, "the worker to be ready")
        game = _game(gm_user, players, process_early=False)
        turn = game.current_turn()
        Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        with psycopg.connect(database_url().replace("postgres://", "postgresql://"),
                             autocommit=False) as blocker:
            blocker.execute("SELECT id FROM play_game WHERE id = %s FOR UPDATE", [game.pk])
            assert actions.sweep_deadlines() == [turn.pk]
            wait_for(lambda: _waiting_on_lock() > 0, 60, "the worker to block on the game")
            proxy.freeze()  # from here nothing the worker sends reaches the broker
            blocker.rollback()
        wait_for(lambda: _resolved(turn), 60, "the worker to commit the resolution")
        time.sleep(1)  # its mail wake-ups and its ack go out, into the frozen proxy
        doomed.kill()
        proxy.cut()  # what it sent is dropped: the message is still unacked
        # The one task it received and never finished (a message left unacked by an
        # earlier test may come back to this broker and be run, to no effect, first).
        log = doomed.output()
        unfinished = ({m[1] for m in re.finditer(r"resolve_turn\[([^\]]+)\] received", log)}
                      - {task for _at, task, _rest in _resolve_lines(log, "succeeded in ")})
        assert len(unfinished) == 1, log[-3000:]
        task_id = unfinished.pop()
        survivor = workers("survivor")

        def redelivered() -> list[str]:
            _restore_unacked(real_broker)
            return [rest for _at, task, rest in _resolve_lines(survivor.output(),
                                                               "succeeded in ")
                    if task == task_id]

        # Redelivery after the visibility timeout (5 s): the claim finds nothing to do.
        wait_for(redelivered, 90, "the redelivered task to run")
        assert redelivered()[0].endswith(": False"), redelivered()
        record = TurnRecord.objects.get(game=game, number=1)
        assert Turn.objects.filter(game=game).count() == 2
        audiences = list(Report.objects.filter(record=record).values_list("audience",
                                                                          flat=True))
        assert sorted(audiences) == sorted({"", "*", *record.orders})
        assert Post.objects.filter(game=game, kind=Post.Kind.REPORT).count() == 1
        sent = _mail_once(game, sink)
        seats = game.seats.count()
        assert sent == {Kind.REPORT: seats, Kind.TURN_OPENED: seats}, sent
        # the turn-opened mail is turn 2's (turn 1's notice, caught up after it closed,
        # is obsolete and not sent)
        assert set(Outbox.objects.filter(kind=Kind.TURN_OPENED)
                   .values_list("turn__number", flat=True)) == {2}
    finally:
        proxy.close()


# --- the broker restarted, empty, while turns are due -----------------------------------
def test_turns_due_when_the_broker_restarts_empty_resolve_once(workers, gm_user, players,
                                                               real_broker, tmp_path):
    """Redis without persistence comes back empty: the resolve tasks of turns already
    claimed (DUE) and the tasks queued for a deadline still to come are gone. The
    database says what is owed: the sweep re-queues the claims once their lease is over
    and claims the open turn once its deadline passes; each turn resolves once."""
    redis = PrivateRedis(tmp_path).start()
    shared = real_broker.conf.broker_url
    try:
        use_broker(redis.url)
        due = [_game(gm_user, players, process_early=False, title=f"Due {n}")
               for n in range(3)]
        soon = _game(gm_user, players, process_early=False, title="Soon")
        now = timezone.now()
        Turn.objects.filter(game__in=due).update(deadline=now - timedelta(seconds=1))
        Turn.objects.filter(game=soon).update(deadline=now + timedelta(seconds=4))
        claimed = actions.sweep_deadlines()  # no worker yet: the tasks wait in Redis
        assert len(claimed) == 3
        soon_turn = soon.current_turn()
        assert Turn.objects.get(pk=soon_turn.pk).queued_for is not None  # queued, eta
        redis.stop()
        redis.start()  # same port, nothing in it
        import redis as redis_client

        assert redis_client.Redis.from_url(redis.url).dbsize() == 0
        worker = workers("after-restart", env={"CELERY_BROKER_URL": redis.url})
        turns = [*Turn.objects.filter(game__in=due), soon_turn]

        def all_resolved() -> bool:
            actions.sweep_deadlines()  # what beat does every few seconds
            return all(_resolved(t) for t in turns)

        wait_for(all_resolved, 90, "every owed turn to resolve after the restart")
        assert worker.alive
        for game in [*due, soon]:
            assert TurnRecord.objects.filter(game=game).count() == 1
            assert list(Turn.objects.filter(game=game).order_by("number")
                        .values_list("number", "status")) == [
                (1, Turn.Status.RESOLVED), (2, Turn.Status.OPEN)]
    finally:
        use_broker(shared)
        redis.stop()


# --- the same inbound email delivered twice ---------------------------------------------
def _pipe(raw: bytes, seat) -> subprocess.Popen:
    """`manage.py ingest_email` as the MTA runs it (Postfix's pipe), on the test database."""
    proc = subprocess.Popen([sys.executable, "manage.py", "ingest_email", "--recipient",
                             seat.reply_address], cwd=ROOT, env=worker_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(raw)
    proc.stdin.close()
    return proc


def _finish(proc: subprocess.Popen) -> str:
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
    # 0: committed, whatever the outcome; 75 would make the MTA deliver it yet again
    assert proc.wait(120) == 0, out + err
    return out


def test_the_same_mail_piped_twice_at_once_and_once_more_later_counts_once(
        gm_user, players, real_broker):
    """The MTA hands one message to two pipe processes at the same instant, then, after
    the turn it was for has resolved, once more (a retried delivery): one submission,
    one receipt; the late copy is a duplicate, not answered as late orders."""
    from tests.gm.mail import mimeshapes

    game = _game(gm_user, players, process_early=False)
    turn = game.current_turn()
    seat = game.seats.select_related("user").get(name=turn.owing[0])
    raw = mimeshapes.plain(_orders(game, seat.name), sender=seat.user.email,
                           to=seat.reply_address, message_id="<twice@client.example>")
    outs = [_finish(proc) for proc in [_pipe(raw, seat), _pipe(raw, seat)]]
    assert sorted("(duplicate" in out for out in outs) == [False, True], outs
    assert all(": accepted" in out for out in outs), outs
    sub = Submission.objects.get(turn=turn, seat=seat)
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert actions.sweep_deadlines() == [turn.pk]
    assert actions.resolve_turn(turn.pk)
    record = TurnRecord.objects.get(game=game, number=1)
    assert seat.name not in record.defaulted and record.orders[seat.name] == sub.orders
    # the late copy in this process (the pipe's part is shown above; a third start-up of
    # Django would cost seconds of CI for nothing more)
    from gm.mail import inbound
    from gm.mail.mime import Envelope
    from gm.mail.models import Outcome

    late = inbound.process(raw, envelope=Envelope([seat.reply_address], None),
                           transport="pipe")
    assert (late.outcome, late.duplicate) == (Outcome.ACCEPTED, True), late
    assert Submission.objects.filter(seat=seat).count() == 1
    assert InboundMessage.objects.count() == 1
    replies = Outbox.objects.filter(inbound__isnull=False)
    assert list(replies.values_list("kind", flat=True)) == [Kind.RECEIPT]
