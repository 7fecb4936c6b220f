"""Deadline-to-report benchmark: beat and one worker, deadlines spread over a window.

    .venv/bin/python bench/deadlines.py --active 200 --spread 60            # p95 < 1 s goal
    .venv/bin/python bench/deadlines.py --active 10000 --idle 90000 --spread 600  # scale run

A fresh PostgreSQL database (DROPPED and re-created) gets one real Combat Dice game
started through gm.play.actions (two players, default orders); its game and open-turn
rows are copied with INSERT ... SELECT generate_series into `--active` games whose
deadlines are spread uniformly over `--spread` seconds (starting once the lookahead
window can see them) and `--idle` games whose deadlines are 48 hours away. Then ONE
`celery -A gm worker --pool=solo` and ONE `celery -A gm beat` (the production schedule:
the sweep every GM_SWEEP_SECONDS) run until every active turn is resolved.

Copies have no seat rows: every turn is resolved on the engine's default orders and
mails nobody, so this measures the deadline path (timed task or sweep, claim, engine,
record, reports, next turn), not mail. With `--turn-minutes N` the next turn of each game
is due N minutes later and is counted too when its deadline falls inside the window
(this exercises the task queued when a turn opens).

Printed: from each deadline to the turn's `resolved_at` (stored in the transaction that
writes the reports): p50/p95/p99/max and a histogram; the worker's CPU time; the load
average. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
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
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database-url", default=os.environ.get(
        "GM_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_bench"),
        help="a database that is DROPPED and re-created")
    p.add_argument("--broker-url", default=os.environ.get(
        "GM_BENCH_BROKER_URL", "redis://127.0.0.1:6379/6"))
    return p.parse_args(argv)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
        "PYTHONUNBUFFERED": "1"})
    os.environ.update(env)
    recreate_database(args.database_url)
    load_before = os.getloadavg()
    worker = beat = None
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
        print(f"worker CPU {cpu:.1f} s for {len(lat)} turns ({1000 * cpu / len(lat):.1f} ms "
              f"per turn); machine: {os.cpu_count()} CPUs, load average before/after "
              f"{load_before[0]:.2f}/{os.getloadavg()[0]:.2f}")
    finally:
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
