"""Fanning one event out to 1,000 readers through gm.notify's budget: CPU and statements,
as a ratio against a trivial baseline measured in the same run.

    .venv/bin/python bench/fanout.py --readers 1000 --rounds 10
    .venv/bin/python bench/fanout.py --database-url postgres://postgres@127.0.0.1:5432/gm_bench_fanout

Without --database-url a throwaway SQLite file is used; with it the database is DROPPED and
re-created. Readers: `--readers` users seated across games of one GM, their settings
mixed as a site would have them (60 % defaults: each event by mail; 20 % daily digest;
10 % only what needs me; 10 % their own webhook channel, with a webhook). One event (a
`notable` vacation notice to everyone) goes through `gm.notify.notes.fan_out`: the readers
with settings, zones and webhooks read, every verdict, the notifications in one INSERT, the
mails in one INSERT, the webhook deliveries in one INSERT. Delivery (SMTP, HTTP) is not
timed: its wake-ups are on-commit callbacks and are not run.

The baseline, timed alternately in the same rounds: the floor of any fan-out, the same
1,000 notification rows built and written with one `bulk_create` and no decisions. The
ratio (fan-out CPU / baseline CPU) is the figure to compare between machines and runs;
the absolute ms move with the machine and its load (printed before and after).
Figures only: nothing is asserted.
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--readers", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--database-url", default=os.environ.get("GM_BENCH_DATABASE_URL", ""))
    args = p.parse_args(argv)
    var = tempfile.mkdtemp(prefix="gm_fanout_")
    url = args.database_url or f"sqlite:///{var}/bench.sqlite3"
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": url, "CELERY_BROKER_URL": "", "EMAIL_URL": "dummymail://",
        "GM_VAR_DIR": var, "LOG_LEVEL": "ERROR", "SECURE_SSL_REDIRECT": "0"})
    if args.database_url:
        from turns import recreate_database
        recreate_database(args.database_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   check=True, env=os.environ)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from gm.mail import outbox
    from gm.notify import budget, notes, webhooks
    from gm.notify.models import Notification, Settings, Webhook
    from gm.play.models import Game
    # delivery is not timed: its wake-ups (eager tasks in this process) do nothing here
    outbox._queue = lambda *a, **k: None
    webhooks._wake = lambda *a, **k: None
    load_before = os.getloadavg()
    User = get_user_model()
    gm = User.objects.create_user("bench-gm", "gm@example.org", "x")
    game = Game.objects.create(ruleset="tally", title="Bench table", gm=gm)
    users = User.objects.bulk_create(
        [User(username=f"reader{i}", email=f"reader{i}@example.org")
         for i in range(args.readers)])
    users = list(User.objects.filter(username__startswith="reader").order_by("pk"))
    mix = []
    for i, user in enumerate(users):
        share = i % 10
        if share in (6, 7):
            mix.append(Settings(user=user, mode="digest"))
        elif share == 8:
            mix.append(Settings(user=user, mode="needs"))
        elif share == 9:
            mix.append(Settings(user=user, channel="webhook"))
    Settings.objects.bulk_create(mix)
    Webhook.objects.bulk_create([Webhook(owner_id=s.user_id, url="https://example.org/h")
                                 for s in mix if s.channel == "webhook"])
    ids = [u.pk for u in users]

    def fan(n: int) -> None:
        event_key = f"bench:{n}"

        def make(pk: int) -> budget.Event:
            return budget.Event("vacation", event_key, "Bench table: the GM is away", game.pk,
                                "/games/1/")
        with transaction.atomic():
            notes.fan_out(ids, make)

    def baseline(n: int) -> None:
        now = timezone.now()
        with transaction.atomic():
            Notification.objects.bulk_create([Notification(
                user_id=pk, game_id=game.pk, key=f"base:{n}", kind="vacation",
                text="Bench table: the GM is away", url="/games/1/", created=now)
                for pk in ids])

    fan(-1)  # warm: imports, template and URL caches
    baseline(-1)
    times: dict[str, list[float]] = {"fan-out": [], "baseline": []}
    statements: dict[str, int] = {}
    for n in range(args.rounds):
        for name, job in (("fan-out", fan), ("baseline", baseline)):
            with CaptureQueriesContext(connection) as ctx:
                start = time.process_time()
                job(n)
                times[name].append(time.process_time() - start)
            statements[name] = len(ctx.captured_queries)
    load_after = os.getloadavg()
    from gm.mail.models import Outbox
    from gm.notify.models import WebhookDelivery
    per = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(f"database: {connection.vendor}; readers: {args.readers}; rounds: {args.rounds}")
    print(f"load average before: {load_before[0]:.2f}  after: {load_after[0]:.2f}")
    for name in ("fan-out", "baseline"):
        print(f"{name:9s} CPU median {per[name]:8.2f} ms  "
              f"({per[name] * 1000 / args.readers:6.1f} us per reader), "
              f"{statements[name]} statements")
    print(f"ratio (fan-out / baseline CPU): {per['fan-out'] / per['baseline']:.2f}x")
    print(f"per round: {Outbox.objects.count() // (args.rounds + 1)} mails, "
          f"{WebhookDelivery.objects.count() // (args.rounds + 1)} webhook posts queued, "
          f"{Notification.objects.filter(key__startswith='bench:').count() // (args.rounds + 1)}"
          " notifications")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
