"""poll_imap against a real IMAP server (Dovecot), started by the test.

Needs Debian's dovecot-imapd; marked `services` (runs with GM_TEST_SERVICES=1) and
skipped when dovecot is not installed.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path

import pytest
from django.core.management import call_command
from imap_tools import AND, MailBoxUnencrypted

from gm.mail.models import InboundMessage, Outcome
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import free_port, seat
from .imapserver import DOVECOT, Dovecot

pytestmark = [pytest.mark.services,
              pytest.mark.skipif(DOVECOT is None, reason="dovecot-imapd is not installed")]


@pytest.fixture
def dovecot(settings):
    # Not pytest's tmp_path: its parents are private, and Dovecot's auth and mail
    # processes run as other users when the tests run as root.
    root = Path(tempfile.mkdtemp(prefix="gm-dovecot-"))
    server = Dovecot(root, free_port()).start()
    settings.GM_IMAP_HOST = "127.0.0.1"
    settings.GM_IMAP_PORT = server.port
    settings.GM_IMAP_SECURITY = "none"
    settings.GM_IMAP_USER = server.user
    settings.GM_IMAP_PASSWORD = server.password
    settings.GM_IMAP_FOLDER = "INBOX"
    settings.GM_IMAP_DONE_FOLDER = ""
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def _box(server):
    return MailBoxUnencrypted("127.0.0.1", server.port).login(server.user, server.password)


def test_poll_imap_reads_unseen_and_flags_after_commit(tally_game, dovecot, on_commit,
                                                       mailoutbox, settings):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    with _box(dovecot) as box:
        box.append(shapes.gmail("ADD 2", sender=p1.user.email, to=p1.reply_address,
                                message_id="<imap1@c>"), "INBOX")
        box.append(shapes.outlook("ADDD 1", sender=p2.user.email, to=p2.reply_address,
                                  message_id="<imap2@c>"), "INBOX")
        box.append(shapes.plain("out of office", sender=p2.user.email, to=p2.reply_address,
                                message_id="<imap3@c>",
                                extra={"Auto-Submitted": "auto-replied"}), "INBOX")
    out = io.StringIO()
    with on_commit():
        call_command("poll_imap", stdout=out)
    assert out.getvalue().splitlines() == ["imap1@c: accepted", "imap2@c: invalid",
                                           "imap3@c: loop"]
    assert Submission.objects.get(seat=p1).orders["items"] == [
        {"order": {"op": "add", "n": 2}}]
    assert not Submission.objects.filter(seat=p2).exists()
    assert InboundMessage.objects.get(message_id="imap1@c").transport == "imap"
    with _box(dovecot) as box:
        assert list(box.uids(AND(seen=False))) == []
        assert len(list(box.uids(AND(seen=True)))) == 3
    out = io.StringIO()
    call_command("poll_imap", stdout=out)
    assert out.getvalue() == ""  # nothing unseen left


def test_poll_imap_moves_to_done_folder(tally_game, dovecot, on_commit, settings):
    settings.GM_IMAP_DONE_FOLDER = "Processed"
    p1 = seat(tally_game, "P1")
    with _box(dovecot) as box:
        box.folder.create("Processed")
        box.append(shapes.apple("ADD 1", sender=p1.user.email, to=p1.reply_address,
                                message_id="<imap4@c>"), "INBOX")
    with on_commit():
        call_command("poll_imap", stdout=io.StringIO())
    assert InboundMessage.objects.get(message_id="imap4@c").outcome == Outcome.ACCEPTED
    with _box(dovecot) as box:
        assert list(box.uids()) == []
        box.folder.set("Processed")
        assert len(list(box.uids())) == 1
