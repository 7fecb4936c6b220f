"""Order POST against a trivial token-authenticated DRF view: CPU and statements, one run.

    .venv/bin/python bench/orders.py --requests 300

A fresh PostgreSQL database (DROPPED and re-created); one Combat Dice game with two
players (process_early off, so the turn stays open and every POST stores a new version).
In this process, through the whole Django stack (middleware, DRF, token authentication;
rest_framework.test.APIClient, no sockets), requests alternate between
POST /api/games/<id>/orders/ and POST to a trivial view that only authenticates the same
token and answers {"ok": true}. Printed: CPU ms per request (time.process_time, so other
load on the machine does not count), statements per request, and the ratio (goal: the
order POST within 2x the trivial view). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turns import recreate_database  # noqa: E402

urlpatterns: list = []  # filled in main(): this module is the benchmark's ROOT_URLCONF


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--requests", type=int, default=300, help="of each kind")
    p.add_argument("--profile", type=int, default=0, metavar="N",
                   help="after the run, profile the order POSTs (CPU time) and print the "
                        "N functions with the most cumulative time")
    p.add_argument("--show-statements", action="store_true",
                   help="print the statements of one order POST first")
    p.add_argument("--database-url", default=os.environ.get(
        "GM_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_bench"))
    args = p.parse_args(argv)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": args.database_url, "CELERY_BROKER_URL": "",
        "EMAIL_URL": "dummymail://", "GM_VAR_DIR": tempfile.mkdtemp(prefix="gm_orders_"),
        "LOG_LEVEL": "ERROR", "SECURE_SSL_REDIRECT": "0"})
    recreate_database(args.database_url)
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, check=True)
        import django

        django.setup()
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test.utils import CaptureQueriesContext, setup_test_environment
        from django.urls import include, path
        from rest_framework import permissions
        from rest_framework.decorators import api_view, permission_classes
        from rest_framework.response import Response
        from rest_framework.test import APIClient

        from games.core import registry
        from gm.accounts import tokens
        from gm.play import actions

        @api_view(["POST"])
        @permission_classes([permissions.IsAuthenticated])
        def trivial(request):
            return Response({"ok": True})

        urlpatterns[:] = [path("bench/trivial/", trivial), path("", include("gm.urls"))]
        settings.ROOT_URLCONF = __name__
        setup_test_environment()
        settings.ALLOWED_HOSTS = ["testserver"]
        throttles = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        for scope in throttles:  # the bench sends far more than a player may
            throttles[scope] = "1000000/minute"

        users = get_user_model()
        gm_user = users.objects.create_user("gm", "gm@example.org", "x" * 20, is_staff=True)
        players = [users.objects.create_user(f"p{i}", f"p{i}@example.org", "x" * 20)
                   for i in (1, 2)]
        game = actions.create_game(gm_user, ruleset="combat_dice", title="Orders",
                                   process_early=False)
        for user in players:
            actions.join_game(game, user)
        game = actions.start_game(game, gm_user)
        engine = registry.get("combat_dice")
        text = engine.default_orders(engine.from_json(game.state), "P1").text
        client = APIClient()
        _token, key = tokens.issue(players[0])
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        order_url, trivial_url = f"/api/games/{game.pk}/orders/", "/bench/trivial/"

        def one(url: str, body: dict) -> tuple[float, int]:
            with CaptureQueriesContext(connection) as ctx:
                c0 = time.process_time()
                resp = client.post(url, body, format="json")
                cpu = time.process_time() - c0
            assert resp.status_code in (200, 201), resp.content[:300]
            return cpu, len(ctx.captured_queries)

        for _ in range(20):  # warm-up: imports, caches, the token's first use
            one(order_url, {"text": text})
            one(trivial_url, {})
        if args.show_statements:
            with CaptureQueriesContext(connection) as ctx:
                client.post(order_url, {"text": text}, format="json")
            print("statements of one order POST:")
            for query in ctx.captured_queries:
                print(f"  {(query['sql'] or 'COMMIT')[:160]}")
        orders, trivials = [], []
        for _ in range(args.requests):
            orders.append(one(order_url, {"text": text}))
            trivials.append(one(trivial_url, {}))
        o_cpu = statistics.median(c for c, _ in orders)
        t_cpu = statistics.median(c for c, _ in trivials)
        o_sql = statistics.median(n for _, n in orders)
        t_sql = statistics.median(n for _, n in trivials)
        print(f"{args.requests} requests of each kind, alternating, in-process (PostgreSQL)")
        print(f"  order POST      {1000 * o_cpu:7.2f} ms CPU (median)  {o_sql:4.0f} statements")
        print(f"  trivial DRF     {1000 * t_cpu:7.2f} ms CPU (median)  {t_sql:4.0f} statements")
        print(f"  ratio           {o_cpu / t_cpu:7.2f}x  (goal <= 2x: "
              f"{'MET' if o_cpu <= 2 * t_cpu else 'NOT MET'}); load average "
              f"{os.getloadavg()[0]:.2f}")
        if args.profile:
            _profile(lambda: one(order_url, {"text": text}), args.requests, args.profile)
    finally:
        from django.db import connections

        connections.close_all()
        recreate_database(args.database_url, drop_only=True)
    return 0


def _profile(request, n: int, top: int) -> None:
    import cProfile
    import pstats

    profile = cProfile.Profile(time.process_time)  # CPU time: waiting is not counted
    profile.enable()
    for _ in range(n):
        request()
    profile.disable()
    print(f"profile of {n} order POSTs (CPU time, cumulative):")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(top)


if __name__ == "__main__":
    sys.exit(main())
