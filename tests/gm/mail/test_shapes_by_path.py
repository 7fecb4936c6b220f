"""Every client shape through every inbound path: the same orders come out."""

from __future__ import annotations

import hashlib
import hmac
import io
import smtplib
import sys
import time

import pytest
from django.core.management import call_command

from gm.mail import imap
from gm.mail.models import InboundMessage, Outcome
from gm.mail.smtp_server import controller
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import free_port, seat
from .test_inbound_paths import FakeMailbox, crlf

SHAPES = {
    "gmail": shapes.gmail,
    "outlook": shapes.outlook,
    "apple": shapes.apple,
    "html-only": lambda orders, **kw: shapes.html_only(
        f"<p>{orders}</p><blockquote type=\"cite\">ADD 1</blockquote>", **kw),
    "latin1-qp": lambda orders, **kw: shapes.plain(
        f"{orders}  # à toi\n\n-- \nJosé", charset="iso-8859-1", cte="quoted-printable", **kw),
}


def _pipe(raw, rcpt, client, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    call_command("ingest_email", "--recipient", rcpt, stdout=io.StringIO())


def _smtp(raw, rcpt, client, monkeypatch):
    port = free_port()
    ctrl = controller("127.0.0.1", port)
    ctrl.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            smtp.sendmail("someone@example.org", [rcpt], crlf(raw))
    finally:
        ctrl.stop()


def _webhook(raw, rcpt, client, monkeypatch):
    from django.conf import settings

    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": "k", "WEBHOOK_SECRET": "user:pass"}
    monkeypatch.setattr(settings, "GM_MAIL_WEBHOOKS", ["mailgun"], raising=False)
    timestamp, token = str(int(time.time())), "t" + hashlib.md5(raw).hexdigest()
    sig = hmac.new(b"k", f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    response = client.post("/mail/anymail/mailgun/inbound_mime/", {
        "body-mime": raw.decode("ascii"), "recipient": rcpt, "timestamp": timestamp,
        "token": token, "signature": sig}, HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    assert response.status_code == 200


def _imap(raw, rcpt, client, monkeypatch):
    box = FakeMailbox({"1": raw})
    imap.poll(box)
    assert box.seen == {"1"}


PATHS = {"pipe": _pipe, "smtp": _smtp, "webhook": _webhook, "imap": _imap}


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("path", list(PATHS))
def test_shape_through_path(transactional_db, tally_game, client, monkeypatch, settings,
                            shape, path):
    p1 = seat(tally_game, "P1")
    raw = SHAPES[shape]("ADD 3", sender=p1.user.email, to=p1.reply_address,
                        message_id=f"<{shape}-{path}@client.example>")
    PATHS[path](raw, p1.reply_address, client, monkeypatch)
    row = InboundMessage.objects.get(message_id=f"{shape}-{path}@client.example")
    assert row.outcome == Outcome.ACCEPTED, row.detail
    sub = Submission.objects.get(seat=p1)
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 3}}]
    assert sub.source == "email" and row.submission_id == sub.pk
