"""`manage.py poll_imap [--loop] [--interval 60]`: read order mail from an IMAP mailbox.

Settings: GM_IMAP_HOST, GM_IMAP_PORT, GM_IMAP_SECURITY (ssl|starttls|none), GM_IMAP_USER,
GM_IMAP_PASSWORD, GM_IMAP_FOLDER (INBOX), GM_IMAP_DONE_FOLDER ("" = flag as seen).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from gm.mail import imap


class Command(BaseCommand):
    help = "Process unseen messages of the configured IMAP mailbox."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--loop", action="store_true", help="keep polling")
        parser.add_argument("--interval", type=float, default=60.0)
        parser.add_argument("--limit", type=int, default=None)

    def handle(self, *args, **opts) -> None:
        while True:
            with imap.connect() as box:
                report = imap.poll(box, limit=opts["limit"],
                                   done_folder=getattr(settings, "GM_IMAP_DONE_FOLDER", ""))
            for result in report.processed:
                dup = " (duplicate)" if result.duplicate else ""
                self.stdout.write(f"{result.message_id}: {result.outcome}{dup}")
            if report.failed:
                self.stderr.write(f"{report.failed} message(s) failed; left unseen for retry")
            if not opts["loop"]:
                return
            time.sleep(opts["interval"])
