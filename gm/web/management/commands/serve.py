"""The embedded default: the web server with the deadline sweep running beside it."""

from __future__ import annotations

import logging
import os
import threading
import time

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from gm.play.periodic import Loop


class _NoTracebackBelow500(logging.Filter):
    """A 403 or 404 is an answer, not a fault: log its one line, not a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True


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
        parser.add_argument("--smtp-port", type=int, default=8025,
                            help="also accept order mail over SMTP on 127.0.0.1 at this port "
                                 "(0: no listener); replies go through EMAIL_URL")

    def handle(self, *args, addrport="127.0.0.1:8000", smtp_port=8025, **opts):
        logging.getLogger("django.request").addFilter(_NoTracebackBelow500())
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)  # a line per task
        if settings.DEBUG and logging.getLogger("django").handlers:
            # Django's own console handler already prints its records; do not print twice.
            logging.getLogger("django").propagate = False
        if "SITE_URL" not in os.environ:
            # Links in pages and mail point at the address served, not at a default port.
            host = addrport if ":" in addrport else f"127.0.0.1:{addrport}"
            settings.SITE_URL = f"http://{host}"
        smtp = None
        if smtp_port and apps.is_installed("gm.mail"):
            from gm.mail.smtp_server import controller

            smtp = controller("127.0.0.1", smtp_port)
            try:
                smtp.start()
            except OSError as exc:  # port taken: the web server still runs
                self.stderr.write(f"no SMTP listener on port {smtp_port}: {exc}")
                smtp = None
        stop = threading.Event()
        sweeper = threading.Thread(target=_sweep_forever, args=(settings.GM_SWEEP_SECONDS, stop),
                                   daemon=True, name="deadline-sweep")
        sweeper.start()
        self.stdout.write(self.style.SUCCESS(
            f"Serving on http://{addrport}/  (deadline sweep every {settings.GM_SWEEP_SECONDS}s; "
            "demo logins: gm, alice, bob, carol / demo-pass-123)"))
        if smtp is not None:
            self.stdout.write(f"Order mail: SMTP on 127.0.0.1:{smtp_port} (e.g. swaks --server "
                              f"127.0.0.1:{smtp_port} --to play+<seat token>@"
                              f"{settings.GM_MAIL_DOMAIN} ...); outgoing mail: "
                              f"{settings.EMAIL_BACKEND.rsplit('.', 2)[-2]} backend")
        time.sleep(0.1)
        try:
            call_command("runserver", addrport, use_reloader=False)
        finally:
            stop.set()
            if smtp is not None:
                smtp.stop()
