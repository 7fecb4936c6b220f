"""`manage.py notify_tick [--loop] [--every SECONDS]`: the notification tick for hosts
without Celery beat (like `run_deadlines --loop`)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from gm.notify import tick


class Command(BaseCommand):
    help = "Send due reminders, held notices, digests and webhook posts."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--loop", action="store_true")
        parser.add_argument("--every", type=float, default=60.0)

    def handle(self, *args, loop: bool = False, every: float = 60.0, **options) -> None:
        while True:
            done = tick.run()
            self.stdout.write(" ".join(f"{k}={v}" for k, v in done.items()))
            if not loop:
                return
            time.sleep(every)
