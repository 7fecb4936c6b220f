"""In-process profile of one turn's work: resolve_turn, then the notices it triggers.

    .venv/bin/python bench/profile_turn.py --ruleset combat_dice --games 30
    .venv/bin/python bench/profile_turn.py --ruleset dungeonquest --games 30 --top 25

A fresh PostgreSQL database (DROPPED and re-created); `--games` games with two players
each get random legal orders (engine.bot_orders) through actions.submit_orders, are marked
due, then resolved one by one in this process: the first half without a profiler (plain
CPU and wall per turn), the second under cProfile. What a resolution queues on commit is
collected instead of run; afterwards the mail side runs as its worker would: the
on-commit signals are sent with the mail tasks' publication captured (counted, not sent
to a broker), then every captured `gm.mail.tasks.notify` body runs, then every captured
`gm.mail.tasks.deliver` body (Django's locmem mail backend). Printed: CPU ms and SQL
statements per turn for each part, the engine's own CPU (run_turn), the markdown
conversions per turn (resolution and mail apart), per resolved turn the notify tasks
published, outbox rows written and deliver tasks published, the mail bodies' CPU in
their statements (client side) and in python-markdown, `--sql` one turn's statements,
`--mail-sql` one notify and one deliver task's, `--mail-top N` the mail side's top
functions (`--mail-stats FILE` writes its cProfile stats for pstats), and the top
functions by cumulative time. Figures only.

`--database-url sqlite:///path` runs on SQLite (the file is removed and re-created).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import random
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turns import recreate_database  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ruleset", default="combat_dice")
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--top", type=int, default=0, help="print the top N functions")
    p.add_argument("--sql", action="store_true", help="print one turn's statements")
    p.add_argument("--mail-top", type=int, default=0,
                   help="profile the mail side (notify and deliver bodies, CPU time) and "
                        "print its top N functions")
    p.add_argument("--mail-stats", default="",
                   help="write the mail side's cProfile stats to this file (pstats)")
    p.add_argument("--mail-sql", action="store_true",
                   help="print the first notify task's and the first deliver task's "
                        "statements")
    p.add_argument("--database-url", default=os.environ.get(
        "GM_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_bench"))
    args = p.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="gm_prof_")
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": args.database_url, "CELERY_BROKER_URL": "",
        "EMAIL_URL": "dummymail://", "GM_VAR_DIR": tmp, "LOG_LEVEL": "ERROR"})
    sqlite = args.database_url.startswith("sqlite:")
    if sqlite:
        Path(args.database_url.split("///", 1)[1]).unlink(missing_ok=True)
    else:
        recreate_database(args.database_url)
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, check=True)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from games.core import registry
        from gm.play import actions, rendering
        from gm.play.models import Turn

        engine = registry.get(args.ruleset)
        users = get_user_model()
        gm_user = users.objects.create_user("gm", "gm@example.org", "x" * 20, is_staff=True)
        players = [users.objects.create_user(f"p{i}", f"p{i}@example.org", "x" * 20)
                   for i in (1, 2)]
        rng = random.Random(1)
        turns = []
        queued: list = []
        # every actions module that queues work for after the commit holds _on_commit
        holders = [m for m in vars(actions).values()
                   if getattr(m, "__name__", "").startswith("gm.play.actions.")
                   and hasattr(m, "_on_commit")]
        real_on_commit = actions._on_commit
        for module in holders:
            module._on_commit = lambda func, *a, **kw: queued.append((func, a, kw))
        for i in range(args.games):
            game = actions.create_game(gm_user, ruleset=args.ruleset, title=f"G{i}",
                                       process_early=False)
            for user in players:
                actions.join_game(game, user)
            game = actions.start_game(game, gm_user, entropy=rng.randbytes(32))
            turn = game.current_turn()
            state = engine.from_json(game.state)
            for seat in game.seats.filter(name__in=turn.owing):
                with contextlib.suppress(Exception):  # refused: the seat plays its defaults
                    actions.submit_orders(game, seat, engine.bot_orders(
                        state, seat.name, rng.choice))
            actions.mark_due(Turn.objects.get(pk=turn.pk))
            turns.append(turn.pk)
        queued.clear()  # what the setup queued (mail of turn 1) is not the turns' work
        engine_cpu = [0.0]
        real_run_turn = actions.turns.run_turn  # what resolve_turn calls

        def timed_run_turn(*a, **kw):
            c = time.process_time()
            try:
                return real_run_turn(*a, **kw)
            finally:
                engine_cpu[0] += time.process_time() - c

        actions.turns.run_turn = timed_run_turn
        renders = [0]  # python-markdown conversions (the per-process cache emptied)
        real_convert = rendering._convert

        def counted(text: str) -> str:
            renders[0] += 1
            c = time.process_time()
            try:
                return real_convert(text)
            finally:
                MARKDOWN_CPU[0] += time.process_time() - c

        rendering._convert, real_convert = counted, rendering._convert
        rendering._render.cache_clear()
        # the first half without the profiler (plain CPU and wall per turn), the second
        # half under cProfile (where the time goes; its overhead inflates the figures)
        plain, profiled = turns[:len(turns) // 2], turns[len(turns) // 2:]
        with CaptureQueriesContext(connection) as ctx0:
            c0, w0 = time.process_time(), time.perf_counter()
            for pk in plain:
                actions.resolve_turn(pk)
            plain_cpu, plain_wall = time.process_time() - c0, time.perf_counter() - w0
        if args.sql:
            per_turn = len(ctx0.captured_queries) // max(len(plain), 1)
            for q in ctx0.captured_queries[:per_turn]:
                print(f"    {q['sql'][:160]}")
        prof = cProfile.Profile(time.process_time)  # CPU, not waiting on the database
        with CaptureQueriesContext(connection) as ctx:
            c0 = time.process_time()
            prof.enable()
            for pk in profiled:
                actions.resolve_turn(pk)
            prof.disable()
            cpu = time.process_time() - c0
        n = len(profiled)
        resolve_statements = len(ctx.captured_queries)
        resolve_renders = renders[0]
        for module in holders:
            module._on_commit = real_on_commit
        actions.turns.run_turn = real_run_turn
        mail_prof = cProfile.Profile(time.process_time) \
            if args.mail_top or args.mail_stats else None
        mail = _mail_side(connection, queued, mail_prof, show_sql=args.mail_sql)
        rendering._convert = real_convert
        m = len(plain) + n
        vendor = "SQLite" if sqlite else "PostgreSQL"
        print(f"{args.ruleset}: {m} turns resolved in-process on {vendor} "
              f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
        if plain:
            print(f"  resolve_turn       {1000 * plain_cpu / len(plain):7.2f} ms CPU/turn, "
                  f"{1000 * plain_wall / len(plain):.2f} ms wall ({len(plain)} turns, no "
                  f"profiler), {len(ctx0.captured_queries) / len(plain):5.1f} statements/turn")
        print(f"  resolve_turn       {1000 * cpu / n:7.2f} ms CPU/turn "
              f"(under cProfile, {n} turns), {resolve_statements / n:5.1f} statements/turn")
        print(f"  engine run_turn    {1000 * engine_cpu[0] / m:7.2f} ms CPU/turn "
              f"({plain_cpu / max(engine_cpu[0] * len(plain) / m, 1e-9):.1f}x is the "
              "service's share)")
        print(f"  markdown renders   {resolve_renders / m:7.2f} per turn in resolve_turn, "
              f"{(renders[0] - resolve_renders) / m:.2f} in notify (rendered on first read)")
        print(f"  notify (mail side) {1000 * mail['notify_cpu'] / m:7.2f} ms CPU/turn, "
              f"{mail['notify_tasks'] / m:.2f} tasks/turn, "
              f"{mail['notify_statements'] / m:5.1f} statements/turn, "
              f"{mail['rows'] / m:.2f} outbox rows/turn")
        print(f"    of which         {1000 * mail['notify_statement_cpu'] / m:7.2f} ms in "
              f"its statements (client side), {1000 * mail['notify_markdown_cpu'] / m:.2f} "
              "ms in python-markdown")
        print(f"  deliver (mail)     {1000 * mail['deliver_cpu'] / m:7.2f} ms CPU/turn, "
              f"{mail['deliver_tasks'] / m:.2f} tasks/turn, "
              f"{mail['deliver_statements'] / m:5.1f} statements/turn, "
              f"{mail['sent'] / m:.2f} mails/turn")
        print(f"    of which         {1000 * mail['deliver_statement_cpu'] / m:7.2f} ms in "
              "its statements (client side)")
        if args.top:
            pstats.Stats(prof).sort_stats("cumulative").print_stats(args.top)
            pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)
        if mail_prof is not None and args.mail_stats:
            mail_prof.dump_stats(args.mail_stats)
        if mail_prof is not None and args.mail_top:
            print("  mail side under cProfile (CPU; notify and deliver bodies):")
            pstats.Stats(mail_prof).sort_stats("cumulative").print_stats(args.mail_top)
            pstats.Stats(mail_prof).sort_stats("tottime").print_stats(args.mail_top)
    finally:
        from django.db import connections

        connections.close_all()
        if not sqlite:
            recreate_database(args.database_url, drop_only=True)
    return 0


MARKDOWN_CPU = [0.0]  # python-markdown's CPU (the conversions counted above)


def _mail_side(connection, queued: list, prof: cProfile.Profile | None = None,
               show_sql: bool = False) -> dict[str, float]:
    """Run what the resolutions queued on commit as the mail worker would: the signals
    with the mail tasks' publication captured, then the captured task bodies, timed
    (and profiled into `prof` when given: its overhead inflates the CPU figures)."""
    from django.conf import settings
    from django.core import mail as django_mail
    from django.test.utils import CaptureQueriesContext
    from django.urls import get_resolver

    from gm.mail import tasks
    from gm.mail.models import Outbox

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # A worker imports the URLconf (every app's views: DRF, the schema) once, at its first
    # unsubscribe link: about 1 s here, not a cost of any turn, so paid before timing.
    get_resolver().reverse_dict  # noqa: B018
    django_mail.outbox = []
    published: dict[str, list] = {"notify": [], "deliver": []}

    def capture(name: str):
        def delay(*args, **kwargs):
            published[name].append((args, kwargs))

        def apply_async(args=None, kwargs=None, **options):
            published[name].append((tuple(args or ()), dict(kwargs or {})))
        return delay, apply_async

    for name in published:
        task = getattr(tasks, name)
        task.delay, task.apply_async = capture(name)
    try:
        for func, args, kwargs in queued:  # the signals, not the next resolutions
            if getattr(func, "__name__", "") == "send":
                func(*args, **kwargs)
        rows_before = Outbox.objects.count()
        figures: dict[str, float] = {"notify_tasks": len(published["notify"])}
        for name in ("notify", "deliver"):
            task = getattr(tasks, name)
            done = 0
            statement_cpu = [0.0]

            def timed(execute, sql, params, many, context, spent=statement_cpu):
                c = time.process_time()
                try:
                    return execute(sql, params, many, context)
                finally:
                    spent[0] += time.process_time() - c

            MARKDOWN_CPU[0] = 0.0
            with CaptureQueriesContext(connection) as ctx, connection.execute_wrapper(timed):
                c = time.process_time()
                if prof is not None:
                    prof.enable()
                while done < len(published[name]):  # a run may publish more
                    args, kwargs = published[name][done]
                    task.run(*args, **kwargs)
                    done += 1
                if prof is not None:
                    prof.disable()
                figures[f"{name}_cpu"] = time.process_time() - c
            figures[f"{name}_statement_cpu"] = statement_cpu[0]
            figures[f"{name}_markdown_cpu"] = MARKDOWN_CPU[0]
            figures[f"{name}_statements"] = len(ctx.captured_queries)
            if show_sql and done:
                per_task = len(ctx.captured_queries) // done
                print(f"  one {name} task's statements:")
                for q in ctx.captured_queries[:per_task]:
                    print(f"    {q['sql'][:200]}")
            figures[f"{name}_tasks"] = done
            if name == "notify":
                figures["rows"] = Outbox.objects.count() - rows_before
    finally:
        for name in published:
            task = getattr(tasks, name)
            del task.delay, task.apply_async
    figures["sent"] = len(django_mail.outbox)
    return figures


if __name__ == "__main__":
    sys.exit(main())
