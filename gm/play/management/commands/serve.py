"""The embedded default: the web server with the deadline sweep running beside it."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from gm.play.periodic import Loop


def _sweep_forever(interval: float, stop: threading.Event) -> None:
    loop = Loop()
    while not stop.is_set():
        try:
            loop.tick()
        except Exception:  # keep the loop alive; the error is logged
            logging.getLogger(__name__).exception("deadline sweep failed")
        finally:
            close_old_connections()
        stop.wait(interval)


class Command(BaseCommand):
    help = "Run the development web server plus the deadline sweep (tasks in-process)."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, addrport="127.0.0.1:8000", **opts):
        stop = threading.Event()
        sweeper = threading.Thread(target=_sweep_forever, args=(settings.GM_SWEEP_SECONDS, stop),
                                   daemon=True, name="deadline-sweep")
        sweeper.start()
        self.stdout.write(self.style.SUCCESS(
            f"Serving on http://{addrport}/  (deadline sweep every {settings.GM_SWEEP_SECONDS}s; "
            "demo logins: gm, alice, bob, carol / demo-pass-123)"))
        time.sleep(0.1)
        try:
            call_command("runserver", addrport, use_reloader=False)
        finally:
            stop.set()
