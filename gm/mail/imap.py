"""Polling a mailbox (imap-tools): unseen messages through the pipeline.

A message is flagged \\Seen (or moved to the done folder) only after its outcome has
been committed; when processing fails it stays unseen and the next poll retries it. A
crash between the commit and the flag makes the next poll see it again, and the
pipeline's Message-ID record turns that into a no-op duplicate.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.conf import settings
from imap_tools import AND, MailBox, MailBoxStartTls, MailBoxUnencrypted
from imap_tools.consts import MailMessageFlags

from . import inbound

log = logging.getLogger(__name__)


@dataclass
class PollReport:
    processed: list[inbound.Result] = field(default_factory=list)
    failed: int = 0


def poll(mailbox, *, done_folder: str = "", limit: int | None = None) -> PollReport:
    """Process unseen messages of a logged-in imap-tools mailbox."""
    report = PollReport()
    for msg in mailbox.fetch(AND(seen=False), mark_seen=False, limit=limit, bulk=False):
        try:
            result = inbound.process(msg.obj.as_bytes(), transport="imap")
        except Exception:
            log.exception("IMAP message uid %s could not be processed; left unseen", msg.uid)
            report.failed += 1
            continue
        if done_folder:
            mailbox.move(msg.uid, done_folder)
        else:
            mailbox.flag(msg.uid, MailMessageFlags.SEEN, True)
        report.processed.append(result)
    return report


def connect():
    """A logged-in mailbox from the GM_IMAP_* settings."""
    host = getattr(settings, "GM_IMAP_HOST", "localhost")
    security = getattr(settings, "GM_IMAP_SECURITY", "ssl")  # ssl | starttls | none
    port = getattr(settings, "GM_IMAP_PORT", None)
    if security == "none":
        box = MailBoxUnencrypted(host, port or 143)
    elif security == "starttls":
        box = MailBoxStartTls(host, port or 143)
    else:
        box = MailBox(host, port or 993)
    return box.login(getattr(settings, "GM_IMAP_USER", ""),
                     getattr(settings, "GM_IMAP_PASSWORD", ""),
                     initial_folder=getattr(settings, "GM_IMAP_FOLDER", "INBOX"))
