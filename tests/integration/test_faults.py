"""Issue 17: nothing lost, nothing done twice, when the database, the broker, the mail
server or the GM race the clock. Each test injects one fault with real PostgreSQL,
Redis, Celery workers and an SMTP peer, and fails without the fix it names.

Run with GM_TEST_SERVICES=1, DATABASE_URL=postgres://... and GM_TEST_BROKER_URL (see
README "Tests"). Faults to the broker use a private redis-server (stack.PrivateRedis);
faults to the database terminate this test's own sessions only.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import socket
import subprocess
import threading
import time
from datetime import datetime, timedelta

import psycopg
import pytest
from aiosmtpd.controller import Controller
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.core.types import Orders
from games.core.verify import verify_record
from gm.accounts import tokens
from gm.mail import notices, outbox
from gm.mail.models import Kind, Outbox
from gm.play import actions
from gm.play.models import Game, Notice, Submission, Turn, TurnRecord
from gm.referee import actions as referee

from .stack import PrivateRedis, database_url, free_port, use_broker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


# --- helpers -----------------------------------------------------------------------------
def _api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.issue(user)[1]}")
    return client


def _game(gm_user, players, n=2, **kwargs) -> Game:
    kwargs.setdefault("title", "Fault game")
    game = actions.create_game(gm_user, ruleset="combat_dice", **kwargs)
    for user in players[:n]:
        actions.join_game(game, user)
    return actions.start_game(game, gm_user, entropy=b"\x07" * 32)


_RND = random.Random(17)


def _orders(game: Game, seat: str) -> str:
    from games.core import registry

    engine = registry.get(game.ruleset)
    game.refresh_from_db()
    return engine.bot_orders(engine.from_json(game.state), seat,
                             lambda seq: list(seq)[_RND.randrange(len(list(seq)))])


def _play_turn(game: Game, clients: dict[str, APIClient] | None = None) -> Turn:
    """Everyone owing sends orders for the open turn (via the API when given clients)."""
    turn = game.current_turn()
    for name in turn.owing:
        seat = game.seats.get(name=name)
        if clients:
            resp = clients[name].post(f"/api/games/{game.pk}/orders/",
                                      {"text": _orders(game, name), "turn": turn.number},
                                      format="json")
            assert resp.status_code == 201, resp.content
        else:
            actions.submit_orders(game, seat, _orders(game, name), turn_number=turn.number)
    return turn


def _resolved(turn: Turn) -> bool:
    return Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED


def _waiting_on_lock() -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database()")
        return cur.fetchone()[0]


class Sink:
    """An aiosmtpd handler that keeps what it receives; `on_data` may inject a fault."""

    def __init__(self, on_data=None) -> None:
        self.messages: list[tuple[list[str], bytes]] = []
        self.on_data = on_data
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        if self.on_data is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.on_data)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), envelope.content))
        return "250 OK"

    def count(self) -> int:
        with self.lock:
            return len(self.messages)


@pytest.fixture
def smtp(settings):
    started = []

    def start(on_data=None) -> Sink:
        sink = Sink(on_data)
        port = free_port()
        ctrl = Controller(sink, hostname="127.0.0.1", port=port)
        ctrl.start()
        started.append(ctrl)
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_TIMEOUT = 5
        return sink

    yield start
    for ctrl in started:
        ctrl.stop()


class SilentServer:
    """Accepts TCP connections and never says a word: a hung mail server."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(50)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
                self.held.append(conn)
            except OSError:
                continue

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for conn in self.held:
            conn.close()
        self.sock.close()


# --- a turn set aside by the GM while the sweep claims it ------------------------------
def test_a_turn_set_aside_during_the_sweep_is_never_resolved(workers, gm_user, players):
    """Critical: the sweep read the due turn before the GM's rollback locked it; its
    compare-and-set then ran after the rollback committed and claimed a set-aside turn."""
    worker = workers("aside")
    game = _game(gm_user, players, process_early=True)
    for _ in range(2):
        turn = _play_turn(game)
        wait_for(lambda t=turn: _resolved(t), 30, f"turn {turn.number} resolved")
    game.refresh_from_db()
    open3 = game.current_turn()
    assert open3.number == 3
    Turn.objects.filter(pk=open3.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    failures: list[BaseException] = []

    def run(fn) -> threading.Thread:
        def body() -> None:
            try:
                fn()
            except BaseException as exc:  # reported by the main thread
                failures.append(exc)
            finally:
                connection.close()
        thread = threading.Thread(target=body)
        thread.start()
        return thread

    # Hold the game row: the GM's rollback locks the live turns, then waits for the game.
    with psycopg.connect(database_url().replace("postgres://", "postgresql://"),
                         autocommit=False) as blocker:
        blocker.execute("SELECT id FROM play_game WHERE id = %s FOR UPDATE", [game.pk])
        gm = run(lambda: referee.rollback_to(Game.objects.get(pk=game.pk), gm_user,
                                             "wrong terrain", 2))
        wait_for(lambda: _waiting_on_lock() >= 1, 30, "the rollback to wait for the game")
        # The sweep lists turn 3 as due (no lock yet), then waits on the GM's lock.
        sweep = run(actions.sweep_deadlines)
        wait_for(lambda: _waiting_on_lock() >= 2, 30, "the sweep to wait for the turn")
        blocker.rollback()
    gm.join(30)
    sweep.join(30)
    assert not failures, failures
    # any resolution the sweep queued has run: the queue empty, every task the worker
    # took ended (a fixed 2 s could pass before it ran on a loaded machine)
    from gm.celery import app

    from .test_worker import _queue_empty

    wait_for(lambda: _queue_empty(app), 120, "the queue to drain")
    time.sleep(0.5)  # a message just taken from the queue is logged as received
    wait_for(worker.settled, 120, "every task the worker took to end")
    open3.refresh_from_db()
    assert open3.superseded and open3.status == Turn.Status.SET_ASIDE
    assert not TurnRecord.objects.filter(turn=open3).exists()
    live = Turn.objects.filter(game=game, superseded=False).order_by("number")
    assert [t.number for t in live] == [1, 2]  # contiguous, the reopened 2 is the last
    assert [t.status for t in live] == [Turn.Status.RESOLVED, Turn.Status.OPEN]
    assert not Turn.objects.filter(game=game, status=Turn.Status.DUE).exists()
    game.refresh_from_db()
    assert game.state_hash == TurnRecord.objects.get(game=game, number=1,
                                                     superseded=False).after_hash
    turn = _play_turn(game)  # the game goes on from the rollback
    wait_for(lambda: _resolved(turn), 30, "the reopened turn resolved")
    export = actions.export_game(game, for_gm=True)
    export["secret"] = Game.objects.get(pk=game.pk).secret
    verdict = verify_record(export)
    assert verdict.ok and verdict.secret_checked, verdict.error


# --- a mail server that accepts connections and never answers ----------------------------
def test_a_hung_mail_server_never_stops_turn_resolution(workers, gm_user, players):
    silent = SilentServer()
    try:
        mail_env = {"EMAIL_URL": f"smtp://127.0.0.1:{silent.port}", "EMAIL_TIMEOUT": "1"}
        workers("turns", env=mail_env)  # default queue only: mail goes elsewhere
        mail = workers("mail", queues="gm-mail", env=mail_env)
        game = _game(gm_user, players)
        for _ in range(3):
            turn = _play_turn(game)
            wait_for(lambda t=turn: _resolved(t), 20, f"turn {turn.number} resolved")
        # The mail worker gave up on the silent server (timeout) and will retry later.
        wait_for(lambda: Outbox.objects.filter(last_error__icontains="timed out").exists(),
                 30, "a mail attempt to time out")
        assert mail.alive
        assert not Outbox.objects.filter(status=Outbox.Status.SENT).exists()
    finally:
        silent.close()


# --- the broker loses its queue: notices come from the database --------------------------
def test_notices_survive_a_broker_that_lost_its_queue(workers, gm_user, players, smtp,
                                                      real_broker):
    sink = smtp()
    workers("resolver")  # turns only; nobody consumes the mail queue yet
    game = _game(gm_user, players)
    turn = _play_turn(game)
    wait_for(lambda: _resolved(turn), 30, "turn 1 resolved")
    record = TurnRecord.objects.get(game=game, number=1)
    _purge(real_broker, "gm-mail")  # every wake-up for mail is gone
    assert not Outbox.objects.filter(kind=Kind.REPORT).exists()
    pending = set(Notice.objects.filter(game=game, handled__isnull=True)
                  .values_list("kind", "object_id"))
    assert (Notice.Kind.TURN_PUBLISHED, record.pk) in pending
    # The periodic job, from the database alone:
    later = timezone.now() + timedelta(minutes=2)
    assert notices.catch_up(now=later) >= 2
    outbox.deliver_pending(now=later)
    seats = list(game.seats.select_related("user"))
    reports = Outbox.objects.filter(kind=Kind.REPORT, status=Outbox.Status.SENT)
    assert sorted(reports.values_list("to", flat=True)) == sorted(s.user.email for s in seats)
    opened = Outbox.objects.filter(kind=Kind.TURN_OPENED, turn=game.current_turn(),
                                   status=Outbox.Status.SENT)
    assert opened.count() == len(seats)
    assert sink.count() == Outbox.objects.filter(status=Outbox.Status.SENT).count()
    assert not Notice.objects.filter(game=game, handled__isnull=True).exists()


def _purge(app, queue: str) -> None:
    with app.connection_for_write() as conn, contextlib.suppress(Exception):
        conn.default_channel.queue_purge(queue)  # an empty queue may not exist at all


# --- a database blip between the SMTP hand-off and the SENT mark --------------------------
def test_a_database_blip_after_the_hand_off_does_not_resend(smtp, gm_user, players,
                                                            real_broker, settings):
    settings.GM_MAIL_MARK_RETRY_SECONDS = 10
    game = _game(gm_user, players)
    notices.catch_up(now=timezone.now() + timedelta(minutes=2))  # the turn-opened rows
    row = Outbox.objects.filter(kind=Kind.TURN_OPENED).first()
    assert row is not None
    Outbox.objects.exclude(pk=row.pk).update(status=Outbox.Status.SENT)  # keep one in play
    Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.PENDING)
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        my_pid = cur.fetchone()[0]
    url = database_url().replace("postgres://", "postgresql://")

    def blip() -> None:  # the database drops this process's session mid-delivery
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [my_pid])

    sink = smtp(on_data=blip)
    assert outbox.deliver(row.pk) is True
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and sink.count() == 1
    # Neither the broker's redelivery nor the periodic job, much later, sends it again.
    sink.on_data = None
    assert outbox.deliver(row.pk) is False
    assert outbox.deliver_pending(now=timezone.now() + timedelta(hours=2)) == 0
    assert sink.count() == 1
    assert Outbox.objects.filter(turn__game=game, status=Outbox.Status.SENT).count() >= 1


# --- the broker is down when the order that completes a turn arrives ---------------------
def test_broker_down_the_player_gets_the_receipt_and_the_sweep_resolves(
        workers, gm_user, players, real_broker, tmp_path, settings):
    """Also the worker side: it keeps running through the outage and reconnects when
    the broker comes back (the celery/kombu 5.7.0 reconnect crash, issue 17)."""
    redis = PrivateRedis(tmp_path).start()
    shared = real_broker.conf.broker_url
    try:
        use_broker(redis.url)
        worker = workers("outage", env={"CELERY_BROKER_URL": redis.url})
        game = _game(gm_user, players)
        clients = {s.name: _api(s.user) for s in game.seats.select_related("user")}
        first = _play_turn(game, clients)
        wait_for(lambda: _resolved(first), 30, "turn 1 resolved before the outage")
        redis.stop()
        time.sleep(1)
        turn = game.current_turn()
        started = time.monotonic()
        _play_turn(game, clients)  # asserts 201 for every order, the last completes it
        assert time.monotonic() - started < 15
        assert Turn.objects.get(pk=turn.pk).status == Turn.Status.DUE
        sub = Submission.objects.filter(turn=turn).latest("id")
        assert len(sub.receipt) == 64
        time.sleep(2)
        assert worker.alive, worker.output()[-3000:]
        redis.start()  # same port: the broker is back, empty
        wait_for(lambda: "Connected to redis" in worker.output().split("lost")[-1], 60,
                 "the worker to reconnect")

        def resolved() -> bool:
            actions.sweep_deadlines()  # re-queues the claim once its lease is over
            return _resolved(turn)

        wait_for(resolved, 60, "the sweep and the worker to resolve the turn")
        assert worker.alive
        assert TurnRecord.objects.filter(game=game, number=turn.number).count() == 1
        assert "AttributeError" not in worker.output()
    finally:
        use_broker(shared)
        redis.stop()


# --- an order sent at the deadline names its turn -----------------------------------------
def test_orders_at_the_deadline_never_move_to_the_next_turn(workers, gm_user, players):
    workers("deadline")
    game = _game(gm_user, players, process_early=False)
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(seconds=1.5))
    seat = game.seats.select_related("user").get(user=players[0])
    client = _api(seat.user)
    stop = threading.Event()

    def sweeper() -> None:
        try:
            while not stop.is_set():
                actions.sweep_deadlines()
                stop.wait(0.05)
        finally:
            connection.close()

    thread = threading.Thread(target=sweeper)
    thread.start()
    accepted, refused = [], None
    try:
        for _ in range(2000):
            resp = client.post(f"/api/games/{game.pk}/orders/",
                               {"text": _orders(game, seat.name), "turn": 1}, format="json")
            if resp.status_code == 201:
                accepted.append(resp.json())
                continue
            refused = resp
            break
        wait_for(lambda: Turn.objects.filter(game=game, number=2).exists(), 30,
                 "turn 2 to open")
        # Keep sending for turn 1 after turn 2 opened: still refused, never moved.
        late = client.post(f"/api/games/{game.pk}/orders/",
                           {"text": _orders(game, seat.name), "turn": 1}, format="json")
    finally:
        stop.set()
        thread.join()
    assert accepted and refused is not None
    assert refused.status_code == 409, refused.content
    body = late.json()
    assert late.status_code == 409 and body["turn"] == 1 and body["open_turn"] == 2
    assert body["standing"]["receipt"] == accepted[-1]["receipt"]
    assert all(a["turn"] == 1 for a in accepted)
    assert not Submission.objects.filter(turn__game=game, turn__number=2).exists()
    record = TurnRecord.objects.get(game=game, number=1)
    assert seat.name not in record.defaulted
    assert Orders.from_json(record.orders[seat.name]).receipt == accepted[-1]["receipt"]


# --- a database restored from a backup taken while mail was pending -----------------------
def test_a_restored_backup_does_not_mail_again(smtp, gm_user, players, real_broker, settings,
                                               tmp_path):
    from .stack import BROKER_URL

    settings.GM_MAIL_LEDGER_URL = BROKER_URL
    sink = smtp()
    game = _game(gm_user, players)
    notices.catch_up(now=timezone.now() + timedelta(minutes=2))
    pending = list(Outbox.objects.filter(status=Outbox.Status.PENDING,
                                         turn__game=game).values_list("pk", flat=True))
    assert len(pending) == 2
    url = database_url().replace("postgres://", "postgresql://")
    backup = tmp_path / "outbox.sql"
    subprocess.run(["pg_dump", "--data-only", "-t", "gm_mail_outbox", "-f", str(backup), url],
                   check=True, timeout=60)
    assert outbox.deliver_pending() == 2 and sink.count() == 2
    # Restore: the outbox as the backup had it, every row pending again.
    with connection.cursor() as cur:
        cur.execute("TRUNCATE gm_mail_outbox")
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-f", str(backup), url],
                   check=True, timeout=60, capture_output=True)
    assert Outbox.objects.filter(pk__in=pending, status=Outbox.Status.PENDING).count() == 2
    assert outbox.deliver_pending(now=timezone.now() + timedelta(minutes=5)) == 0
    assert sink.count() == 2  # nobody got a second copy
    assert Outbox.objects.filter(pk__in=pending, status=Outbox.Status.SENT).count() == 2


# --- the database goes away while a turn is being resolved --------------------------------
_LOG_LINE = (r"^\[(?P<at>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): \w+/[^\]]+\] "
             r"Task gm\.play\.tasks\.resolve_turn\[(?P<id>[^\]]+)\] ")


def _resolve_lines(output: str, what: str) -> list[tuple[datetime, str, str]]:
    """(worker clock time, task id, rest of the line) of the worker's log lines for
    resolve_turn that go on with `what` ("retry: Retry in ", "succeeded in ")."""
    found = []
    for match in re.finditer(_LOG_LINE + re.escape(what) + r"(?P<rest>.*)$", output,
                             flags=re.MULTILINE):
        at = datetime.strptime(match["at"], "%Y-%m-%d %H:%M:%S,%f")
        found.append((at, match["id"], match["rest"]))
    return found


def test_resolve_retries_ride_out_a_database_outage(workers, gm_user, players):
    """Retries were spent within 17 s of a 30 s outage (1, 2, 4, 8 s apart); now the
    first waits 15 s, so a short outage costs one try and the task itself finishes.

    The window comes from the configured policy (tasks.RESOLVE_RETRY: the first retry's
    countdown) and the outage is the test's: it starts once the worker is ready and ends
    a third of that countdown after the worker's first failed try, as the worker's own
    log times it. Meanwhile the worker must not try again; after it, the retry resolves
    the turn, not sooner than the countdown after the failure (worker log times both,
    so a loaded machine that is slow to look changes nothing; it used to fail at load
    13 on a 14 s window that started before the worker was even up). That the countdown
    itself is long enough is the policy's test (tests/gm/play/test_retries.py)."""
    from celery.utils.time import get_exponential_backoff_interval

    from gm.play import tasks

    from .stack import TcpProxy

    task = tasks.resolve_turn
    first_wait = get_exponential_backoff_interval(
        factor=task.retry_backoff, retries=0, maximum=task.retry_backoff_max,
        full_jitter=task.retry_jitter)
    s = connection.settings_dict
    proxy = TcpProxy(s.get("HOST") or "127.0.0.1", int(s.get("PORT") or 5432))
    try:
        proxied = database_url().replace(f":{s.get('PORT') or 5432}/", f":{proxy.port}/")
        worker = workers("outage-db", env={"DATABASE_URL": proxied})
        wait_for(lambda: " ready." in worker.output(), 120, "the worker to be ready")
        game = _game(gm_user, players, process_early=False)
        turn = game.current_turn()
        proxy.cut(refuse=True)  # the database host gone away
        assert actions.mark_due(Turn.objects.get(pk=turn.pk))  # queues the resolution
        # Its first try fails at once (refused) or after connect_timeout (5 s).
        wait_for(lambda: _resolve_lines(worker.output(), "retry: Retry in "), 120,
                 "the first try to fail")
        failed_at, task_id, rest = _resolve_lines(worker.output(), "retry: Retry in ")[0]
        assert rest.startswith(f"{first_wait}s: OperationalError"), rest
        # The outage goes on for a third of the countdown, by the worker's clock.
        hold = (failed_at - datetime.now()).total_seconds() + first_wait / 3
        time.sleep(max(hold, 0))
        assert len(_resolve_lines(worker.output(), "retry: Retry in ")) == 1, \
            worker.output()[-3000:]
        assert not _resolved(turn)
        proxy.restore()
        wait_for(lambda: _resolved(turn), first_wait + 120,
                 "the retried task to resolve the turn")
        wait_for(lambda: _resolve_lines(worker.output(), "succeeded in "), 30,
                 "the worker to log the retry's success")
        tries = _resolve_lines(worker.output(), "retry: Retry in ")
        assert len(tries) == 1, worker.output()[-3000:]  # the retry itself resolved it
        done_at, done_id, rest = _resolve_lines(worker.output(), "succeeded in ")[0]
        assert done_id == task_id and rest.endswith(": True"), rest
        # log times are to the millisecond and the eta is set just before the retry line
        assert (done_at - failed_at).total_seconds() >= first_wait - 0.5
        assert TurnRecord.objects.filter(game=game, number=turn.number).count() == 1
    finally:
        proxy.close()
