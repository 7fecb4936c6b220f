"""`manage.py ingest_email < message.eml`: one message from stdin (an MTA pipe).

Postfix: `play: "|/path/manage.py ingest_email --recipient ${original_recipient}"`.
Exit status 0 when the outcome is committed (whatever it is), 75 (EX_TEMPFAIL) when it
could not be, so the MTA keeps the message and tries again.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from gm.mail import inbound
from gm.mail.mime import Envelope

EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Read one raw email message from stdin and run it through the inbound pipeline."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--recipient", action="append", default=[],
                            help="envelope recipient (repeatable); headers are read too")
        parser.add_argument("--sender", default=None, help="envelope sender")

    def handle(self, *args, **opts) -> None:
        raw = sys.stdin.buffer.read()
        if not raw.strip():
            self.stderr.write("no message on stdin")
            sys.exit(EX_TEMPFAIL)
        try:
            result = inbound.process(raw, envelope=Envelope(opts["recipient"], opts["sender"]),
                                     transport="pipe")
        except Exception as exc:
            self.stderr.write(f"temporary failure: {type(exc).__name__}: {exc}")
            sys.exit(EX_TEMPFAIL)
        dup = " (duplicate, already processed)" if result.duplicate else ""
        self.stdout.write(f"{result.message_id}: {result.outcome}{dup}")
