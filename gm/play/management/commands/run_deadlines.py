"""Resolve due turns: once, or in a loop for hosts without Celery beat."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from gm.play.periodic import Loop


class Command(BaseCommand):
    help = ("Claim turns past their deadline and queue their resolution; with --loop also "
            "run the periodic jobs (reminders, mail retries) for hosts without beat.")

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="sweep forever")
        parser.add_argument("--interval", type=float, default=settings.GM_SWEEP_SECONDS,
                            help="seconds between sweeps (default: %(default)s)")
        parser.add_argument("--max-sweeps", type=int, default=0,
                            help="with --loop, stop after this many sweeps (0 = never)")

    def handle(self, *args, loop=False, interval=5.0, max_sweeps=0, **opts):
        sweeps = 0
        periodic = Loop()
        while True:
            claimed = periodic.tick()
            if claimed or not loop:
                self.stdout.write(f"{len(claimed)} turn(s) due")
            sweeps += 1
            if not loop or (max_sweeps and sweeps >= max_sweeps):
                return
            time.sleep(interval)
