"""Turn-resolution benchmark: Combat Dice games through the real stack, against a floor.

    .venv/bin/python bench/turns.py                       # 100 games, 50 at a time
    .venv/bin/python bench/turns.py --mail-queue same     # mail in the turn worker too

What it does (see bench/README.md for how to read the figures):

1. creates a fresh PostgreSQL database, migrates it, and starts ONE `celery -A gm worker`
   process (solo pool) on a private queue of a Redis broker;
2. plays --games Combat Dice games, --concurrency of them at a time, in waves. In each
   wave this process submits random legal orders (engine.bot_orders) for every open turn
   through gm.play.actions.submit_orders, the function the API and web form call; then
   moves those turns' deadlines to "now" and runs gm.play.actions.sweep_deadlines (what
   beat runs): every turn is claimed and its resolve task queued at the same instant.
   The worker resolves them (engine, turn record, reports, thread post, next turn, mail
   notices). The wave is over when every turn is stored and the broker queue is empty
   with nothing unacknowledged: the worker is idle. Only that span, deadline to idle,
   counts as worker time;
3. after each wave, with the worker idle, measures a floor in the same database: the
   minimal raw-SQL work one turn needs (claim, read state and orders, insert the record,
   update the game, insert the reports, close the turn, insert the next one), run with
   psycopg directly on the very payloads that wave produced;
4. prints turns/s, p50/p95 from deadline to report stored (the next turn is inserted in
   the same transaction as the reports, so its `opened` time is when they were stored),
   the floor, and the ratio. Figures only: nothing is asserted;
5. mail runs on its own queue by default, as deployed (gm-mail, its own worker): the turn
   worker never sees it. After the play phase a second worker process (solo pool) is
   started on that queue alone and drains what the turns queued (one notify task per
   resolved turn, and the deliver tasks those queue), with the turn worker stopped: its
   CPU, tasks and mails per resolved turn are mail's own figure.
   `--mail-queue same` instead routes mail to the turn worker's queue (one worker does
   everything; the figures then include mail).

Needs PostgreSQL and Redis (for the idle check). Nothing here is part of the test run.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TARGET_TURNS_PER_SECOND = 100.0
TARGET_FLOOR_RATIO = 3.0


# --- setup ---------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=100, help="games played in all")
    p.add_argument("--concurrency", type=int, default=50,
                   help="games in play at once (= turns queued per wave)")
    p.add_argument("--database-url", default=os.environ.get(
        "GM_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_bench"),
        help="a database that is DROPPED and re-created")
    p.add_argument("--broker-url", default=os.environ.get(
        "GM_BENCH_BROKER_URL", "redis://127.0.0.1:6379/6"),
        help="a Redis database used only by the benchmark")
    p.add_argument("--seed", type=int, default=1, help="seed of the random orders")
    p.add_argument("--mail-queue", choices=["same", "separate"], default="separate",
                   help="separate (the default, as deployed): mail goes to its own queue, "
                        "the turn worker only resolves turns, and a mail worker drains "
                        "that queue after the play phase (mail's own figure); same: the "
                        "turn worker also composes and sends the mail notices")
    p.add_argument("--keep-db", action="store_true", help="do not drop the database")
    p.add_argument("--conn-max-age", type=int, default=0,
                   help="keep Django's database connections this many seconds (adds "
                        "?conn_max_age=N to DATABASE_URL; 0 = the settings' default: a new "
                        "connection for every task)")
    p.add_argument("--async-commit", action="store_true",
                   help="ALTER DATABASE ... SET synchronous_commit = off (both the stack "
                        "and the floor): shows the cost without waiting for WAL flushes")
    p.add_argument("--probe", action="store_true",
                   help="run the worker as bench/worker_probe.py (CPU of receipt, task, "
                        "publish, ack, between-task hooks, measured in the worker) and "
                        "print that split per turn")
    p.add_argument("--py-spy", metavar="FLAMEGRAPH",
                   help="sample the worker with py-spy (on PATH or $PY_SPY) during the play "
                        "phase and write its collapsed stacks here (idle waiting excluded): "
                        "where the worker's CPU goes besides resolve_turn")
    return p.parse_args(argv)


def admin_conninfo(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise SystemExit(f"refusing to create/drop a database named {name!r}")
    return urllib.parse.urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


def recreate_database(url: str, *, drop_only: bool = False, async_commit: bool = False
                      ) -> None:
    import psycopg
    from psycopg import sql

    conninfo, name = admin_conninfo(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(name)))
        if not drop_only:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            if async_commit:
                conn.execute(sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(
                    sql.Identifier(name)))


def service_env(args: argparse.Namespace, queue: str, var_dir: str) -> dict[str, str]:
    """Production-like settings shared by this process and the worker."""
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": args.database_url + (
            f"?conn_max_age={args.conn_max_age}&conn_health_checks=true"
            if args.conn_max_age else ""),
        "CELERY_BROKER_URL": args.broker_url,
        "CELERY_QUEUE": queue, "EMAIL_URL": "dummymail://", "GM_VAR_DIR": var_dir,
        "CELERY_MAIL_QUEUE": queue + "-mail" if args.mail_queue == "separate" else queue,
        "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1",
    })
    return env


class Worker:
    """One `celery -A gm worker` process (solo pool: one process does all the work)."""

    def __init__(self, env: dict[str, str], log_path: Path, *, probe: Path | None = None,
                 queues: str | None = None, hostname: str = "bench") -> None:
        self.log_path = log_path
        self.probe = probe
        if probe is not None:
            env = {**env, "GM_BENCH_PROBE": str(probe)}
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [str(BIN / "celery"), "-A", "bench.worker_probe" if probe else "gm", "worker",
                 "--pool=solo", "--loglevel=INFO", f"--hostname={hostname}@%h",
                 "--without-mingle", "--without-gossip", *(["-Q", queues] if queues else [])],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def profile(self, out: str) -> subprocess.Popen:
        """py-spy sampling this worker until stopped (SIGINT), collapsed stacks to `out`."""
        exe = os.environ.get("PY_SPY", "py-spy")
        return subprocess.Popen([exe, "record", "--pid", str(self.proc.pid), "--rate", "250",
                                 "--format", "raw", "--output", out, "--nonblocking"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise SystemExit(f"the worker exited:\n{self.log()[-3000:]}")
            if " ready." in self.log():
                return
            time.sleep(0.1)
        raise SystemExit("the worker did not become ready")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the worker process has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def task_seconds(self, task: str) -> list[float]:
        return [float(m) for m in re.findall(
            rf"Task {re.escape(task)}\[[^\]]+\] succeeded in ([0-9.e-]+)s", self.log())]


# --- the run ---------------------------------------------------------------------------------
@dataclass
class Results:
    turns: int = 0
    games_finished: int = 0
    busy_seconds: float = 0.0           # sum over waves of deadline -> worker idle
    worker_cpu: float = 0.0             # the worker's CPU time over those spans
    wall_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)   # deadline -> report stored
    waves: int = 0
    invalid_orders: int = 0


def play(args: argparse.Namespace, queue: str, floor: Floor, worker: Worker) -> Results:
    """Drive the games wave by wave; the worker does every resolution."""
    import redis
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.core import registry
    from games.core.types import OrdersInvalid
    from gm.play import actions
    from gm.play.models import Game, Submission, Turn

    engine = registry.get("combat_dice")
    users = get_user_model()
    gm_user = users.objects.create_user("bench_gm", "bench_gm@example.org", "x" * 20,
                                        is_staff=True)  # no daily game quota
    players = [users.objects.create_user(f"bench_p{i}", f"bench_p{i}@example.org", "x" * 20)
               for i in (1, 2)]
    broker = redis.Redis.from_url(args.broker_url)
    rng = random.Random(args.seed)
    res = Results()
    active: list[int] = []
    created = 0
    started = time.perf_counter()

    def new_game() -> int:
        game = actions.create_game(gm_user, ruleset="combat_dice", title=f"Bench {created}",
                                   turn_hours=48, process_early=False)
        for user in players:
            actions.join_game(game, user)
        return actions.start_game(game, gm_user, entropy=rng.randbytes(32)).pk

    while active or created < args.games:
        while len(active) < args.concurrency and created < args.games:
            active.append(new_game())
            created += 1
        turn_ids: list[int] = []
        for game in Game.objects.filter(pk__in=active):
            turn = game.current_turn()
            state = engine.from_json(game.state)
            for seat in game.seats.filter(name__in=turn.owing):
                text = engine.bot_orders(state, seat.name, rng.choice)
                try:
                    actions.submit_orders(game, seat, text, source=Submission.Source.API)
                except OrdersInvalid:
                    res.invalid_orders += 1  # the seat plays its default orders
            turn_ids.append(turn.pk)
        drain_queue(broker, queue)  # mail from the order phase is not the wave's work
        deadline = timezone.now()
        cpu0 = worker.cpu_seconds()
        t0 = time.perf_counter()
        Turn.objects.filter(pk__in=turn_ids).update(deadline=deadline)
        claimed = actions.sweep_deadlines(deadline)
        assert sorted(claimed) == sorted(turn_ids), "the sweep missed due turns"
        # Idle = every task acknowledged (acks_late: after its commit) and every turn
        # stored. Polled on Redis, one pipelined round trip every 2 ms; the database is
        # asked only when Redis shows nothing left, so this process takes almost no
        # CPU from the worker and PostgreSQL on a 2-CPU machine (it queried PostgreSQL
        # every 2 ms before, about a fifth of a CPU).
        while True:
            drain_queue(broker, queue)
            if not Turn.objects.filter(pk__in=turn_ids).exclude(
                    status=Turn.Status.RESOLVED).exists():
                break
            time.sleep(0.002)  # a message between BRPOP and its unacked entry
        res.busy_seconds += time.perf_counter() - t0
        res.worker_cpu += worker.cpu_seconds() - cpu0
        res.waves += 1
        res.turns += len(turn_ids)
        stored = dict(Turn.objects.filter(game_id__in=active, number__gt=1,
                                          opened__gte=deadline)
                      .values_list("game_id", "opened"))
        for game in Game.objects.filter(pk__in=active):
            at = game.finished if game.status == Game.Status.FINISHED else stored[game.pk]
            res.latencies.append((at - deadline).total_seconds())
        done = set(Game.objects.filter(pk__in=active, status=Game.Status.FINISHED)
                   .values_list("pk", flat=True))
        res.games_finished += len(done)
        active = [g for g in active if g not in done]
        floor.catch_up()
    res.wall_seconds = time.perf_counter() - started
    return res


@dataclass
class MailResults:
    queued: int                 # messages waiting on the mail queue after the play phase
    seconds: float              # the mail worker's busy time: queue released -> drained
    cpu: float                  # its CPU over that span
    notify: list[float]         # task times from its log
    deliver: list[float]
    mails: int                  # outbox rows written over the span
    sent: int                   # of which sent


def drain_mail(env: dict[str, str], queue: str, tmp: Path, broker_url: str
               ) -> MailResults | None:
    """Mail's own figure: the mail queue the turns filled, drained by its own worker.

    The queue's list is set aside (RENAME) while the worker starts, so its start-up is not
    counted, and handed back once it is ready: from then until the queue is empty with
    nothing unacknowledged, the worker's busy time and CPU are what the turns' mail cost
    (the notify tasks, and the deliver tasks they queue on the same queue)."""
    import redis

    from gm.mail.models import Outbox

    mail_queue = f"{queue}-mail"
    held = f"{mail_queue}.held"
    broker = redis.Redis.from_url(broker_url)
    if not broker.exists(mail_queue):
        return None
    broker.rename(mail_queue, held)
    worker = Worker(env, tmp / "mail-worker.log", queues=mail_queue, hostname="benchmail")
    try:
        worker.wait_ready()
        first = Outbox.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        queued = broker.llen(held)
        cpu0 = worker.cpu_seconds()
        t0 = time.perf_counter()
        broker.rename(held, mail_queue)
        drain_queue(broker, mail_queue, timeout=900)
        seconds = time.perf_counter() - t0
        cpu = worker.cpu_seconds() - cpu0
    finally:
        worker.stop()
    rows = Outbox.objects.filter(pk__gt=first)
    return MailResults(queued, seconds, cpu, worker.task_seconds("gm.mail.tasks.notify"),
                       worker.task_seconds("gm.mail.tasks.deliver"), rows.count(),
                       rows.filter(status=Outbox.Status.SENT).count())


def print_mail(mail: MailResults, turns: int, turn_cpu: float) -> None:
    def tasks(times: list[float]) -> str:
        mean = 1000 * statistics.fmean(times) if times else 0.0
        return f"{len(times)} ({len(times) / turns:.2f}/turn, mean {mean:.2f} ms)"

    print("  mail, on its own queue (drained by its own worker after the play phase, "
          "dummy backend):")
    print(f"    queued by the turns                          {mail.queued:8d} messages "
          f"({mail.queued / turns:.2f}/turn)")
    print(f"    notify tasks                                 {tasks(mail.notify)}")
    print(f"    deliver tasks (batches)                      {tasks(mail.deliver)}")
    print(f"    mails written / sent                         {mail.mails:8d} / {mail.sent} "
          f"({mail.mails / turns:.2f}/turn)")
    print(f"    mail worker CPU per resolved turn            "
          f"{1000 * mail.cpu / turns:8.2f} ms ({mail.cpu / max(turn_cpu, 1e-9):.2f}x the "
          f"turn worker's)")
    print(f"    mail worker busy time                        {mail.seconds:8.2f} s = "
          f"{turns / max(mail.seconds, 1e-9):.0f} resolved turns' mail per second, "
          f"{mail.mails / max(mail.seconds, 1e-9):.0f} mails/s")


def drain_queue(broker: Any, queue: str, timeout: float = 120) -> None:
    """Wait until the worker is idle: nothing queued, nothing delivered but unacknowledged
    (acks_late: a message stays in 'unacked' until its task has finished)."""
    end = time.monotonic() + timeout
    pipe = broker.pipeline(transaction=False)
    while any(pipe.llen(queue).hlen("unacked").execute()):
        if time.monotonic() > end:
            raise SystemExit("the worker did not drain the queue in time")
        time.sleep(0.002)


# --- the floor -------------------------------------------------------------------------------
FLOOR_SCHEMA = """
CREATE TABLE floor_game (id bigint PRIMARY KEY, state jsonb, state_hash varchar(64));
CREATE TABLE floor_turn (id bigserial PRIMARY KEY, game_id bigint NOT NULL,
    number integer NOT NULL, status varchar(12) NOT NULL, decision jsonb NOT NULL,
    deadline timestamptz, opened timestamptz NOT NULL DEFAULT now());
CREATE INDEX floor_turn_due ON floor_turn (status, deadline);
CREATE TABLE floor_submission (id bigserial PRIMARY KEY, turn_id bigint NOT NULL,
    seat varchar(40) NOT NULL, version integer NOT NULL, orders jsonb);
CREATE INDEX floor_submission_turn ON floor_submission (turn_id);
CREATE TABLE floor_record (id bigserial PRIMARY KEY, game_id bigint NOT NULL,
    number integer NOT NULL, orders jsonb, draws jsonb, events jsonb, state_before jsonb,
    state_after jsonb, before_hash varchar(64), after_hash varchar(64),
    UNIQUE (game_id, number));
CREATE TABLE floor_report (id bigserial PRIMARY KEY, record_id bigint NOT NULL,
    audience varchar(40) NOT NULL, markdown text NOT NULL, html text,
    UNIQUE (record_id, audience));
"""


class Floor:
    """Replays each wave's turns as bare SQL right after the wave, while the worker is
    idle, so the stack and the floor are measured under the same machine load."""

    def __init__(self, database_url: str) -> None:
        import psycopg
        from psycopg.types.json import Jsonb

        self.Jsonb = Jsonb
        conninfo = urllib.parse.urlsplit(database_url)._replace(scheme="postgresql").geturl()
        self.conn = psycopg.connect(conninfo)
        self.conn.execute(FLOOR_SCHEMA)
        self.conn.commit()
        self.last_record = 0
        self.turns = 0
        self.seconds = 0.0

    def catch_up(self) -> None:
        """Time the floor for every turn record written since the last call."""
        conn, Jsonb = self.conn, self.Jsonb
        rows = conn.execute(
            "SELECT r.id, r.number, r.orders, r.draws, r.events, r.state_before,"
            " r.state_after, r.before_hash, r.after_hash, t.decision"
            " FROM play_turnrecord r JOIN play_turn t ON t.id = r.turn_id"
            " WHERE r.id > %s ORDER BY r.id", (self.last_record,)).fetchall()
        if not rows:
            return
        reports: dict[int, list[tuple[str, str, str]]] = {}
        for rec, audience, md, html in conn.execute(
                "SELECT record_id, audience, markdown, html FROM play_report"
                " WHERE record_id > %s", (self.last_record,)):
            reports.setdefault(rec, []).append((audience, md, html))
        work = []
        for rid, number, orders, draws, events, before, after, bh, ah, decision in rows:
            conn.execute("INSERT INTO floor_game VALUES (%s, %s, %s)", (rid, Jsonb(before), bh))
            tid = conn.execute(
                "INSERT INTO floor_turn (game_id, number, status, decision, deadline)"
                " VALUES (%s, %s, 'open', %s, now()) RETURNING id",
                (rid, number, Jsonb(decision))).fetchone()[0]
            for seat, o in orders.items():
                conn.execute("INSERT INTO floor_submission (turn_id, seat, version, orders)"
                             " VALUES (%s, %s, 1, %s)", (tid, seat, Jsonb(o)))
            work.append((rid, tid, number, draws, events, after, ah, decision,
                         reports.get(rid, [])))
        conn.commit()
        start = time.perf_counter()
        for gid, tid, number, draws, events, after, ah, decision, reps in work:
            floor_turn(conn, Jsonb, gid, tid, number, draws, events, after, ah, decision, reps)
        self.seconds += time.perf_counter() - start
        self.turns += len(work)
        self.last_record = rows[-1][0]

    def close(self) -> None:
        self.conn.close()


def floor_turn(conn: Any, Jsonb: Any, gid: int, tid: int, number: int, draws: Any,
               events: Any, after: Any, after_hash: str, decision: Any,
               reports: list[tuple[str, str, str]]) -> None:
    """One turn, minimal: claim (its own commit, like the sweep), then one transaction."""
    conn.execute("UPDATE floor_turn SET status = 'due' WHERE id = %s AND status = 'open'",
                 (tid,))
    conn.commit()
    with conn.transaction():
        cur = conn.execute("UPDATE floor_turn SET status = 'resolving'"
                           " WHERE id = %s AND status = 'due'", (tid,))
        assert cur.rowcount == 1
        state, state_hash = conn.execute(
            "SELECT state, state_hash FROM floor_game WHERE id = %s FOR UPDATE",
            (gid,)).fetchone()
        orders = {seat: o for seat, o in conn.execute(
            "SELECT DISTINCT ON (seat) seat, orders FROM floor_submission WHERE turn_id = %s"
            " ORDER BY seat, version DESC", (tid,))}
        rid = conn.execute(
            "INSERT INTO floor_record (game_id, number, orders, draws, events, state_before,"
            " state_after, before_hash, after_hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
            " %s) RETURNING id",
            (gid, number, Jsonb(orders), Jsonb(draws), Jsonb(events), Jsonb(state),
             Jsonb(after), state_hash, after_hash)).fetchone()[0]
        conn.execute("UPDATE floor_game SET state = %s, state_hash = %s WHERE id = %s",
                     (Jsonb(after), after_hash, gid))
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO floor_report (record_id, audience, markdown, html)"
                            " VALUES (%s, %s, %s, %s)",
                            [(rid, a, md, html) for a, md, html in reports])
        conn.execute("UPDATE floor_turn SET status = 'resolved' WHERE id = %s", (tid,))
        conn.execute("INSERT INTO floor_turn (game_id, number, status, decision, deadline)"
                     " VALUES (%s, %s, 'open', %s, now() + interval '48 hours')",
                     (gid, number + 1, Jsonb(decision)))


# --- report ----------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def print_report(args: argparse.Namespace, res: Results, floor_turns: int,
                 floor_seconds: float, resolve_times: list[float],
                 deliver_times: list[float]) -> None:
    rate = res.turns / res.busy_seconds
    per_turn_ms = 1000 * res.busy_seconds / res.turns
    floor_ms = 1000 * floor_seconds / floor_turns
    ratio = per_turn_ms / floor_ms
    ms = [1000 * x for x in res.latencies]
    print(f"Combat Dice through the real stack: {res.games_finished} games, {res.turns} turns "
          f"in {res.waves} waves of up to {args.concurrency} simultaneous deadlines; "
          f"one worker process (solo pool); {res.invalid_orders} random orders refused")
    print(f"  turns resolved per second (worker busy time)   {rate:8.1f}   "
          f"target >= {TARGET_TURNS_PER_SECOND:.0f}  "
          f"{'MET' if rate >= TARGET_TURNS_PER_SECOND else 'NOT MET'}")
    print(f"  per turn, deadline to worker idle              {per_turn_ms:8.2f} ms")
    print(f"  worker CPU per turn (its whole process)        "
          f"{1000 * res.worker_cpu / res.turns:8.2f} ms "
          f"(= {res.turns / max(res.worker_cpu, 1e-9):.0f} turns/s if it had a core alone)")
    if resolve_times:
        print(f"  resolve_turn task alone: mean / p50            "
              f"{1000 * statistics.fmean(resolve_times):8.2f} / "
              f"{1000 * percentile(resolve_times, 0.5):.2f} ms")
    if deliver_times:
        print(f"  mail deliver tasks: per turn / mean            "
              f"{len(deliver_times) / res.turns:8.2f} / "
              f"{1000 * statistics.fmean(deliver_times):.2f} ms")
    print(f"  deadline -> report stored: p50 / p95 / max     {percentile(ms, 0.5):8.1f} / "
          f"{percentile(ms, 0.95):.1f} / {max(ms):.1f} ms "
          f"(a wave's last turn waits for the {args.concurrency - 1} before it)")
    print(f"  floor (raw SQL via psycopg, same payloads)     {floor_ms:8.2f} ms per turn "
          f"({floor_turns} turns, {1000 / floor_ms:.0f} turns/s)")
    print(f"  ratio to the floor                             {ratio:8.1f}x  "
          f"target <= {TARGET_FLOOR_RATIO:.0f}x  "
          f"{'MET' if ratio <= TARGET_FLOOR_RATIO else 'NOT MET'}")
    print(f"  wall time of the play phase (all included)   {res.wall_seconds:8.1f} s")


def print_probe(path: Path, turns: int) -> None:
    """The worker's own CPU split (bench/worker_probe.py), per turn, whole worker life."""
    import json

    data = json.loads(path.read_text())
    parts = data["totals"]
    rest = data["process"] - sum(parts.values())
    print(f"  worker CPU split per turn (from ready to shutdown, {data['process']:.2f} s CPU):")
    for name in ("task", "publish", "receive", "ack", "signals"):
        print(f"    {name:8s} {1000 * parts.get(name, 0.0) / turns:7.2f} ms   "
              f"({data['counts'].get(name, 0)} calls)")
    print(f"    {'rest':8s} {1000 * rest / turns:7.2f} ms   (event loop, timers, idle polls "
          "between waves)")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    queue = f"gm_bench_{secrets.token_hex(4)}"
    tmp = Path(tempfile.mkdtemp(prefix="gm_bench_"))
    env = service_env(args, queue, str(tmp / "var"))
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    recreate_database(args.database_url, async_commit=args.async_commit)
    load_before = os.getloadavg()
    worker = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True)
        import django

        django.setup()
        worker = Worker(env, tmp / "worker.log",
                        probe=tmp / "probe.json" if args.probe else None)
        worker.wait_ready()
        floor = Floor(args.database_url)
        spy = worker.profile(args.py_spy) if args.py_spy else None
        res = play(args, queue, floor, worker)
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait(timeout=30)
        worker.stop()
        floor.close()
        mail = (drain_mail(env, queue, tmp, args.broker_url)
                if args.mail_queue == "separate" else None)
        print_report(args, res, floor.turns, floor.seconds,
                     worker.task_seconds("gm.play.tasks.resolve_turn"),
                     worker.task_seconds("gm.mail.tasks.deliver"))
        if worker.probe is not None:
            print_probe(worker.probe, res.turns)
        if mail is not None:
            print_mail(mail, res.turns, res.worker_cpu)
        print(f"  machine: {os.cpu_count()} CPUs, load average before/after "
              f"{load_before[0]:.2f}/{os.getloadavg()[0]:.2f}; synchronous_commit "
              f"{'off' if args.async_commit else 'on'}; CONN_MAX_AGE {args.conn_max_age}; "
              f"worker log: {worker.log_path}")
    finally:
        if worker is not None:
            worker.stop()
        cleanup_broker(args.broker_url, queue)
        if not args.keep_db:
            from django.db import connections

            connections.close_all()
            recreate_database(args.database_url, drop_only=True)
    return 0


def cleanup_broker(url: str, queue: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"*{queue}*", count=1000))
    if keys:
        client.delete(*keys)


if __name__ == "__main__":
    sys.exit(main())
