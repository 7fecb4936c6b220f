"""Deadline sweep benchmark: claim and queue 1,000 due turns, with and without 100,000
idle games beside them, set-based (gm.play.sweep) against the per-turn loop it replaced.

    .venv/bin/python bench/sweep.py                 # 1000 due, 100000 idle
    .venv/bin/python bench/sweep.py --due 200 --idle 20000

A fresh PostgreSQL database (DROPPED and re-created) gets one real Combat Dice game
started through gm.play.actions; its game and turn rows are then copied with
INSERT ... SELECT generate_series (the copies are idle: deadlines in 48 hours). Each
round moves `--due` turns' deadlines into the past, runs a sweep in this process and
publishes the resolve tasks to a private queue of a Redis broker (nobody consumes it),
then counts the queued messages, and puts the turns back to OPEN. Printed: wall and CPU
time of each round (the machine is shared: read the ratios within one run), statements,
and messages queued. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turns import cleanup_broker, recreate_database  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--due", type=int, default=1000, help="turns due at once")
    p.add_argument("--idle", type=int, default=100_000, help="idle games beside them")
    p.add_argument("--loop-sample", type=int, default=200,
                   help="due turns claimed by the old per-turn loop (slow: a sample)")
    p.add_argument("--database-url", default=os.environ.get(
        "GM_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_bench"),
        help="a database that is DROPPED and re-created")
    p.add_argument("--broker-url", default=os.environ.get(
        "GM_BENCH_BROKER_URL", "redis://127.0.0.1:6379/6"))
    return p.parse_args(argv)


def copy_games(template_game: int, n: int) -> list[int]:
    """n copies of the template game and its open turn; their turn ids."""
    from django.db import connection

    with connection.cursor() as cur:
        def columns(table: str) -> list[str]:
            cur.execute("SELECT column_name FROM information_schema.columns WHERE "
                        "table_name = %s AND column_name <> 'id' ORDER BY ordinal_position",
                        [table])
            return [r[0] for r in cur.fetchall()]

        gcols = columns("play_game")
        cur.execute(f"INSERT INTO play_game ({', '.join(gcols)}) SELECT {', '.join(gcols)} "
                    "FROM play_game, generate_series(1, %s) WHERE id = %s RETURNING id",
                    [n, template_game])
        ids = [r[0] for r in cur.fetchall()]
        tcols = columns("play_turn")
        picked = ", ".join("g.id" if c == "game_id" else f"t.{c}" for c in tcols)
        cur.execute(f"INSERT INTO play_turn ({', '.join(tcols)}) SELECT {picked} "
                    "FROM play_turn t, play_game g WHERE t.game_id = %s AND g.id >= %s "
                    "AND g.id <= %s RETURNING id", [template_game, min(ids), max(ids)])
        return [r[0] for r in cur.fetchall()]


def old_sweep(now) -> list[int]:
    """The per-turn loop the set-based sweep replaced (kept here to compare)."""
    from django.db import transaction

    from gm.play import actions
    from gm.play.models import Turn

    claimed = []
    due = Turn.objects.filter(status=Turn.Status.OPEN, deadline__lte=now,
                              superseded=False).values_list("pk", flat=True)
    for pk in list(due[:500]):
        with transaction.atomic():
            if Turn.objects.filter(pk=pk, status=Turn.Status.OPEN, superseded=False,
                                   deadline__lte=now).update(status=Turn.Status.DUE,
                                                             claimed_at=now):
                claimed.append(pk)
                actions._enqueue_resolve(pk)
    return claimed


def round_(label: str, due_ids: list[int], sweep, broker, queue: str) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from gm.play.models import Turn

    now = timezone.now()
    Turn.objects.filter(pk__in=due_ids).update(deadline=now - timedelta(seconds=1))
    broker.delete(queue)
    w0, c0 = time.perf_counter(), time.process_time()
    with CaptureQueriesContext(connection) as ctx:
        claimed = []
        while True:  # the old loop takes 500 per call
            batch = sweep(now)
            claimed += batch
            if sweep is not old_sweep or len(batch) < 500:
                break
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    queued = broker.llen(queue)
    Turn.objects.filter(pk__in=due_ids).update(status=Turn.Status.OPEN, claimed_at=None,
                                               deadline=now + timedelta(hours=48))
    broker.delete(queue)
    row = {"label": label, "due": len(due_ids), "claimed": len(claimed), "queued": queued,
           "wall": wall, "cpu": cpu, "statements": len(ctx.captured_queries)}
    print(f"  {label:44s} {len(claimed):5d} claimed {queued:5d} queued "
          f"{1000 * wall:9.1f} ms wall {1000 * cpu:8.1f} ms CPU "
          f"{len(ctx.captured_queries):5d} statements  "
          f"({1000 * wall / max(1, len(claimed)):.3f} ms wall per turn)")
    return row


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    queue = f"gm_bench_sweep_{secrets.token_hex(4)}"
    tmp = Path(tempfile.mkdtemp(prefix="gm_bench_sweep_"))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": args.database_url, "CELERY_BROKER_URL": args.broker_url,
        "CELERY_QUEUE": queue, "EMAIL_URL": "dummymail://", "GM_VAR_DIR": str(tmp),
        "LOG_LEVEL": "ERROR"})
    recreate_database(args.database_url)
    load_before = os.getloadavg()
    try:
        import subprocess

        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, check=True)
        import django

        django.setup()
        import redis
        from django.contrib.auth import get_user_model

        from gm.play import actions, sweep
        from gm.play.models import Turn

        users = get_user_model()
        gm_user = users.objects.create_user("gm", "gm@example.org", "x" * 20)
        game = actions.create_game(gm_user, ruleset="combat_dice", title="Template",
                                   process_early=False)
        for i in (1, 2):
            actions.join_game(game, users.objects.create_user(f"p{i}", f"p{i}@x.org",
                                                              "x" * 20))
        game = actions.start_game(game, gm_user)
        broker = redis.Redis.from_url(args.broker_url)
        broker.delete(queue)
        due = copy_games(game.pk, args.due)
        Turn.objects.filter(game=game).update(superseded=True)  # the template plays no part
        t0 = time.perf_counter()
        print(f"Deadline sweep on PostgreSQL: {args.due} due turns; idle games added "
              f"afterwards: {args.idle}")
        rows = [round_("set-based, no idle games", due, sweep.sweep, broker, queue)]
        sample = due[:args.loop_sample]
        rows.append(round_(f"per-turn loop (before), {len(sample)} due", sample, old_sweep,
                           broker, queue))
        copy_games(game.pk, args.idle)
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute("ANALYZE play_turn")
        print(f"  ({args.idle} idle games copied in {time.perf_counter() - t0:.1f} s)")
        rows.append(round_(f"set-based, {args.idle} idle games", due, sweep.sweep, broker,
                           queue))
        publish = sweep.publish_resolves
        sweep.publish_resolves = lambda ids, timed=(): None
        rows.append(round_("  of which the claim alone (nothing queued)", due, sweep.sweep,
                           broker, queue))
        sweep.publish_resolves = publish
        w0 = time.perf_counter()
        for _ in range(20):
            sweep.sweep(django.utils.timezone.now())
        empty = (time.perf_counter() - w0) / 20
        print(f"  an empty sweep among {args.idle} idle games: {1000 * empty:.2f} ms wall")
        a, b, c, d = rows
        per_old = b["wall"] / max(1, b["claimed"])
        print(f"  set-based {a['due']} turns: {a['wall']:.3f} s wall (target < 1 s: "
              f"{'MET' if a['wall'] < 1 and c['wall'] < 1 else 'NOT MET'}); per turn "
              f"{per_old / (a['wall'] / max(1, a['claimed'])):.0f}x faster than the loop")
        print(f"  with / without {args.idle} idle games: wall {c['wall'] / a['wall']:.2f}x, "
              f"CPU {c['cpu'] / max(a['cpu'], 1e-9):.2f}x, statements "
              f"{c['statements']} / {a['statements']}")
        print(f"  the claim statement: {1000 * d['wall']:.1f} ms wall for {d['claimed']} turns;"
              f" publishing: {1000 * (c['cpu'] - d['cpu']) / max(1, c['claimed']):.3f} ms CPU "
              "per task")
        print(f"  machine: {os.cpu_count()} CPUs, load average before/after "
              f"{load_before[0]:.2f}/{os.getloadavg()[0]:.2f}")
    finally:
        from django.db import connections

        connections.close_all()
        cleanup_broker(args.broker_url, queue)
        recreate_database(args.database_url, drop_only=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
