"""`manage.py smtpd [--host 127.0.0.1] [--port 8025]`: the SMTP listener for orders."""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from gm.mail.smtp_server import controller


class Command(BaseCommand):
    help = "Listen for order mail over SMTP (aiosmtpd) and run it through the pipeline."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8025)

    def handle(self, *args, **opts) -> None:
        server = controller(opts["host"], opts["port"])
        server.start()
        self.stdout.write(f"listening for mail on {opts['host']}:{opts['port']} (Ctrl-C stops)")
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
        finally:
            server.stop()
