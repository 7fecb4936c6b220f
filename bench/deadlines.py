"""Deadline-to-report benchmark: beat and one worker, deadlines spread over a window.

    .venv/bin/python bench/deadlines.py --active 100 --spread 30            # p95 < 1 s goal
    .venv/bin/python bench/deadlines.py --active 10000 --idle 90000 --spread 3600  # scale run

A fresh PostgreSQL database (DROPPED and re-created) gets one real Combat Dice game
started through gm.play.actions (two players, default orders); its game and open-turn
rows are copied with INSERT ... SELECT generate_series into `--active` games whose
deadlines are spread uniformly over `--spread` seconds (starting once the lookahead
window can see them) and `--idle` games whose deadlines are 48 hours away. Then ONE
`celery -A gm worker --pool=solo` and ONE `celery -A gm beat` (the production schedule:
the sweep every GM_SWEEP_SECONDS) run until every active turn is resolved, beside ONE web
process (`gunicorn -c deploy/gunicorn.conf.py` with one worker, as deployed) that a
client thread here reads at `--web-rate` requests/s: a random active game's page, its
game API and its live.json in turn (`--web-rate 0`: no web process).

Copies have no seat rows: every turn is resolved on the engine's default orders and
mails nobody, so this measures the deadline path (timed task or sweep, claim, engine,
record, reports, next turn), not mail. With `--turn-minutes N` the next turn of each game
is due N minutes later and is counted too when its deadline falls inside the window
(this exercises the task queued when a turn opens).

Printed: from each deadline to the turn's `resolved_at` (stored in the transaction that
writes the reports): p50/p95/p99/max and a histogram; the worker's CPU time per turn and
the timed tasks it ran per turn (1.0 = no duplicate); the web requests' latency
percentiles per kind, errors, and the web process's CPU per request; the load average.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sweep import copy_games  # noqa: E402
from turns import BIN, Worker, cleanup_broker, percentile, recreate_database  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--active", type=int, default=200, help="games with a deadline in the window")
    p.add_argument("--idle", type=int, default=0, help="games whose deadline is far away")
    p.add_argument("--spread", type=float, default=60.0,
                   help="seconds over which the active deadlines are spread")
    p.add_argument("--turn-minutes", type=int, default=0,
                   help="length of the turns that open after each resolution (0 = 48 h)")
    p.add_argument("--sweep-seconds", type=float, default=5.0, help="GM_SWEEP_SECONDS")
    p.add_argument("--lookahead", type=float, default=60.0,
                   help="GM_DEADLINE_LOOKAHEAD_SECONDS")
    p.add_argument("--no-eta", action="store_true",
                   help="the sweep alone (GM_DEADLINE_LOOKAHEAD_SECONDS=-1): the 'before'")
    p.add_argument("--web-rate", type=float, default=2.0,
                   help="web requests per second read during the run (0 = no web process)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database-url", default=os.environ.get(
        "GM_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_bench"),
        help="a database that is DROPPED and re-created")
    p.add_argument("--broker-url", default=os.environ.get(
        "GM_BENCH_BROKER_URL", "redis://127.0.0.1:6379/6"))
    return p.parse_args(argv)


def cpu_seconds(pid: int, children: bool = False) -> float:
    """User + system CPU of a process; with `children`, plus that of its exited children
    (gunicorn replaces its worker every GM_WEB_MAX_REQUESTS requests)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Web:
    """ONE gunicorn web process (the deploy config, one worker) and a client thread
    reading pages of active games at a steady rate, one request at a time."""

    PATHS = {"game page": "/games/{}/", "game API": "/api/games/{}/",
             "live.json": "/games/{}/live.json"}

    def __init__(self, env: dict[str, str], log_path: Path, games: list[int], rate: float,
                 seed: int) -> None:
        self.port = free_port()
        web_env = dict(env, GM_BIND=f"127.0.0.1:{self.port}", GM_WEB_WORKERS="1",
                       GM_ACCESS_LOG=str(log_path.with_suffix(".access")))
        self.log_path = log_path
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py"], cwd=ROOT,
                env=web_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.games, self.rate, self.rng = games, rate, random.Random(seed)
        self.latencies: dict[str, list[float]] = {k: [] for k in self.PATHS}
        self.errors: dict[str, int] = {}
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise SystemExit(f"the web process exited:\n{self.log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/games/"
                                            f"{self.games[0]}/live.json", timeout=5):
                    return
            except (OSError, urllib.error.URLError):
                time.sleep(0.2)
        raise SystemExit("the web process did not answer")

    def cpu(self) -> float:
        """CPU of the web process: the gunicorn master, its exited workers, the live one."""
        total = cpu_seconds(self.proc.pid, children=True)
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                    if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                        total += cpu_seconds(int(entry.name))
                except (OSError, ValueError, IndexError):
                    continue
        return total

    def _run(self) -> None:
        kinds = list(self.PATHS)
        n = 0
        next_at = time.monotonic()
        while not self.stop_event.is_set():
            kind = kinds[n % len(kinds)]
            n += 1
            url = f"http://127.0.0.1:{self.port}" + self.PATHS[kind].format(
                self.rng.choice(self.games))
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(url, timeout=30) as resp:
                    resp.read()
                self.latencies[kind].append(time.perf_counter() - t0)
            except (OSError, urllib.error.URLError) as exc:
                key = f"{kind}: {getattr(exc, 'code', type(exc).__name__)}"
                self.errors[key] = self.errors.get(key, 0) + 1
            next_at += 1 / self.rate
            self.stop_event.wait(max(0.0, next_at - time.monotonic()))

    def stop(self) -> None:
        self.stop_event.set()
        if self.thread.is_alive():
            self.thread.join(35)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait(5)

    def report(self, seconds: float, cpu: float) -> None:
        total = sum(len(v) for v in self.latencies.values())
        print(f"web (one gunicorn worker, read while the deadlines ran): {total} requests in "
              f"{seconds:.0f} s ({total / max(seconds, 1e-9):.2f}/s), errors "
              f"{sum(self.errors.values())} {self.errors or ''}")
        for kind, values in self.latencies.items():
            if values:
                ms = [1000 * x for x in values]
                print(f"  {kind:10s} {len(ms):6d}  p50 {percentile(ms, 0.5):6.0f} ms  "
                      f"p95 {percentile(ms, 0.95):6.0f} ms  p99 {percentile(ms, 0.99):6.0f} ms"
                      f"  max {max(ms):6.0f} ms")
        if total:
            print(f"  web process CPU (gunicorn master and workers) {cpu:.1f} s "
                  f"({1000 * cpu / total:.1f} ms per request)")


def task_counts(log: str) -> dict[str, int]:
    """Task runs in the worker's log by name and outcome: `resolve_at_deadline False` is a
    timed task that found nothing to do (a duplicate, or a turn the sweep took)."""
    counts: dict[str, int] = {}
    for name, result in re.findall(
            r"Task gm\.play\.tasks\.(\w+)\[[^\]]+\] succeeded in [0-9.e-]+s: (\w+)", log):
        counts[f"{name} {result}"] = counts.get(f"{name} {result}", 0) + 1
    return counts


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    queue = f"gm_bench_dl_{secrets.token_hex(4)}"
    tmp = Path(tempfile.mkdtemp(prefix="gm_bench_dl_"))
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": args.database_url, "CELERY_BROKER_URL": args.broker_url,
        "CELERY_QUEUE": queue, "CELERY_MAIL_QUEUE": queue + "-mail",
        "EMAIL_URL": "dummymail://", "GM_VAR_DIR": str(tmp), "LOG_LEVEL": "WARNING",
        "GM_SWEEP_SECONDS": str(args.sweep_seconds),
        "GM_DEADLINE_LOOKAHEAD_SECONDS": str(-1 if args.no_eta else args.lookahead),
        "SECURE_SSL_REDIRECT": "0",
        "STATICFILES_STORAGE": "django.contrib.staticfiles.storage.StaticFilesStorage",
        "PYTHONUNBUFFERED": "1"})
    os.environ.update(env)
    recreate_database(args.database_url)
    load_before = os.getloadavg()
    worker = beat = web = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True)
        import django

        django.setup()
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.utils import timezone

        from gm.play import actions
        from gm.play.models import Game, Turn

        settings.GM_DEADLINE_LOOKAHEAD_SECONDS = -1  # this process queues nothing timed
        users = get_user_model()
        gm_user = users.objects.create_user("gm", "gm@example.org", "x" * 20)
        game = actions.create_game(gm_user, ruleset="combat_dice", title="Template",
                                   process_early=False, turn_hours=0 if args.turn_minutes
                                   else 48, turn_minutes=args.turn_minutes)
        for i in (1, 2):
            actions.join_game(game, users.objects.create_user(f"p{i}", f"p{i}@x.org",
                                                              "x" * 20))
        game = actions.start_game(game, gm_user)
        t0 = time.perf_counter()
        active = copy_games(game.pk, args.active)
        if args.idle:
            copy_games(game.pk, args.idle)
            Game.objects.filter(pk__gt=max(Turn.objects.filter(pk__in=active).values_list(
                "game_id", flat=True))).update(turn_hours=48, turn_minutes=0)
        Turn.objects.filter(game=game).update(superseded=True)
        with connection.cursor() as cur:
            cur.execute("ANALYZE")
        print(f"{args.active} active and {args.idle} idle games copied in "
              f"{time.perf_counter() - t0:.1f} s")
        worker = Worker(env, tmp / "worker.log")
        worker.wait_ready()
        if args.web_rate > 0:
            web = Web(env, tmp / "web.log", sorted(set(Turn.objects.filter(
                pk__in=active).values_list("game_id", flat=True))), args.web_rate, args.seed)
            web.wait_ready()
        with open(tmp / "beat.log", "wb") as beat_log:
            beat = subprocess.Popen(
                [str(BIN / "celery"), "-A", "gm", "beat", "--loglevel=WARNING",
                 f"--schedule={tmp / 'beat-schedule'}"], cwd=ROOT, env=env,
                stdout=beat_log, stderr=subprocess.STDOUT, start_new_session=True)
        rng = random.Random(args.seed)
        lead = (0 if args.no_eta else args.lookahead) + 2 * args.sweep_seconds + 5
        start = timezone.now() + timedelta(seconds=lead)
        end = start + timedelta(seconds=args.spread)
        with connection.cursor() as cur:  # one statement: the deadlines of every active turn
            cur.executemany("UPDATE play_turn SET deadline = %s WHERE id = %s", [
                (start + timedelta(seconds=rng.uniform(0, args.spread)), pk) for pk in active])
        cpu0 = cpu_seconds(worker.proc.pid)
        web_cpu0 = web.cpu() if web else 0.0
        web_t0 = time.monotonic()
        if web:
            web.thread.start()
        print(f"deadlines from {lead:.0f} s to {lead + args.spread:.0f} s from now; "
              f"sweep every {args.sweep_seconds:g} s; "
              f"{'no timed tasks (sweep only)' if args.no_eta else f'lookahead {args.lookahead:g} s'}")
        pending = Turn.objects.filter(deadline__lte=end, superseded=False).exclude(
            status=Turn.Status.RESOLVED).exclude(game_id=game.pk)
        last = 0.0
        while timezone.now() < end or pending.exists():
            if worker.proc.poll() is not None:
                raise SystemExit(f"the worker exited:\n{worker.log()[-3000:]}")
            if time.monotonic() - last > 30:
                last = time.monotonic()
                done = Turn.objects.filter(status=Turn.Status.RESOLVED).count()
                print(f"  {timezone.now():%H:%M:%S} resolved {done}, load "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
            time.sleep(1)
        cpu = cpu_seconds(worker.proc.pid) - cpu0
        if web:
            web_cpu = web.cpu() - web_cpu0
            web.stop_event.set()
            web.thread.join(35)
        rows = list(Turn.objects.filter(status=Turn.Status.RESOLVED, deadline__lte=end)
                    .exclude(game_id=game.pk).values_list("deadline", "resolved_at"))
        lat = sorted((r - d).total_seconds() for d, r in rows)
        ms = [1000 * x for x in lat]
        print(f"deadline -> turn resolved (reports stored), {len(lat)} turns, one worker:")
        print(f"  p50 {percentile(ms, 0.5):.0f} ms  p95 {percentile(ms, 0.95):.0f} ms  "
              f"p99 {percentile(ms, 0.99):.0f} ms  max {max(ms):.0f} ms  "
              f"(goals: p95 < 1000 ms small, p99 < 5000 ms at scale)")
        edges = [0.1, 0.25, 0.5, 1, 2, 5, 10, float("inf")]
        low = 0.0
        for edge in edges:
            n = sum(low <= x < edge for x in lat)
            print(f"  {low:5.2f} - {edge:5.2f} s  {n:6d}  {100 * n / len(lat):5.1f} %")
            low = edge
        early = sum(x < 0 for x in lat)
        if early:
            print(f"  resolved BEFORE the deadline: {early} (must be 0)")
        counts = task_counts(worker.log())
        print(f"worker CPU {cpu:.1f} s for {len(lat)} turns ({1000 * cpu / len(lat):.1f} ms "
              f"per turn); tasks run: " + ", ".join(
                  f"{k} {v} ({v / len(lat):.2f}/turn)" for k, v in sorted(counts.items())))
        if web:
            web.report(time.monotonic() - web_t0, web_cpu)
        print(f"machine: {os.cpu_count()} CPUs, load average before/after "
              f"{load_before[0]:.2f}/{os.getloadavg()[0]:.2f} (1 min), "
              f"{load_before[1]:.2f}/{os.getloadavg()[1]:.2f} (5 min)")
    finally:
        if web is not None:
            web.stop()
        if beat is not None and beat.poll() is None:
            os.killpg(beat.pid, 15)
            beat.wait(20)
        if worker is not None:
            worker.stop()
        from django.db import connections

        connections.close_all()
        cleanup_broker(args.broker_url, queue)
        cleanup_broker(args.broker_url, queue + "-mail")
        recreate_database(args.database_url, drop_only=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
