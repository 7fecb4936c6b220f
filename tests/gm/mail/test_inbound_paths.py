"""The entry points into the one pipeline: MTA pipe, SMTP listener, webhook, IMAP poll."""

from __future__ import annotations

import hashlib
import hmac
import io
import smtplib
import sys
import time
from dataclasses import dataclass, field

import pytest
from django.core.management import call_command
from imap_tools import MailMessage

from gm.mail import imap, inbound
from gm.mail.models import InboundMessage, Outcome
from gm.mail.smtp_server import controller
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import free_port, seat


# --- manage.py ingest_email < message.eml -------------------------------------------------
def _ingest(monkeypatch, raw: bytes, *args: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("ingest_email", *args, stdout=out)
    return out.getvalue().strip()


def test_ingest_email_command(tally_game, monkeypatch, on_commit, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.outlook("ADD 3", sender=p1.user.email, to="play@gm.example",
                         message_id="<pipe@client.example>")
    with on_commit():
        out = _ingest(monkeypatch, raw, "--recipient", p1.reply_address)
    assert out == "pipe@client.example: accepted"
    sub = Submission.objects.get(seat=p1)
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 3}}] and sub.source == "email"
    assert InboundMessage.objects.get(message_id="pipe@client.example").transport == "pipe"
    assert any("Receipt (SHA-256 of the orders):\n    " + sub.receipt in m.body
               for m in mailoutbox)
    with on_commit():
        again = _ingest(monkeypatch, raw, "--recipient", p1.reply_address)
    assert again == "pipe@client.example: accepted (duplicate, already processed)"


def test_ingest_email_tempfails_when_processing_breaks(tally_game, monkeypatch):
    p1 = seat(tally_game, "P1")

    def broken(*a, **k):
        raise OSError("database is gone")

    monkeypatch.setattr(inbound, "process", broken)
    with pytest.raises(SystemExit) as exit_:
        _ingest(monkeypatch, shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))
    assert exit_.value.code == 75


def crlf(raw: bytes) -> bytes:
    """SMTP wire format: clients send CRLF line ends (smtplib leaves bytes as they are)."""
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


# --- manage.py smtpd (aiosmtpd) -------------------------------------------------------
@pytest.fixture
def listener(transactional_db):
    port = free_port()
    ctrl = controller("127.0.0.1", port)
    ctrl.start()
    yield port
    ctrl.stop()


def test_smtp_listener_takes_orders_from_any_client(tally_game, listener, mailoutbox):
    p2 = seat(tally_game, "P2")
    raw = shapes.apple("ADD 1", sender=p2.user.email, to=p2.reply_address,
                       message_id="<smtp-in@client.example>")
    with smtplib.SMTP("127.0.0.1", listener) as client:
        refused = client.sendmail(p2.user.email, [p2.reply_address], crlf(raw))
    assert refused == {}
    row = InboundMessage.objects.get(message_id="smtp-in@client.example")
    assert (row.outcome, row.transport) == (Outcome.ACCEPTED, "smtp")
    sub = Submission.objects.get(seat=p2)
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 1}}]


def test_smtp_listener_never_relays(tally_game, listener):
    with smtplib.SMTP("127.0.0.1", listener) as client, pytest.raises(
            smtplib.SMTPRecipientsRefused) as refused:
        client.sendmail("x@example.org", ["victim@elsewhere.example"], b"Subject: x\n\nhi")
    code, text = refused.value.recipients["victim@elsewhere.example"]
    assert code == 550 and b"no relaying" in text


def test_smtp_listener_answers_451_when_processing_fails(tally_game, listener, monkeypatch):
    from gm.mail import smtp_server

    def broken(raw, env):
        raise OSError("database is gone")

    monkeypatch.setattr(smtp_server, "_process", broken)
    p1 = seat(tally_game, "P1")
    with smtplib.SMTP("127.0.0.1", listener) as client, pytest.raises(
            smtplib.SMTPDataError) as err:
        client.sendmail(p1.user.email, [p1.reply_address],
                        crlf(shapes.plain("ADD 1", sender=p1.user.email,
                                          to=p1.reply_address)))
    assert err.value.smtp_code == 451


def test_smtpd_command_runs_the_listener(tally_game, monkeypatch):
    """The command starts a controller on the given host/port and stops it on exit."""
    from gm.mail.management.commands import smtpd

    seen = {}

    class FakeController:
        def __init__(self, host, port):
            seen["addr"] = (host, port)

        def start(self):
            seen["started"] = True

        def stop(self):
            seen["stopped"] = True

    class Stop:
        def set(self):
            pass

        def wait(self):
            raise KeyboardInterrupt

    monkeypatch.setattr(smtpd, "controller", FakeController)
    monkeypatch.setattr(smtpd.threading, "Event", Stop)
    out = io.StringIO()
    call_command("smtpd", "--host", "0.0.0.0", "--port", "2525", stdout=out)
    assert seen == {"addr": ("0.0.0.0", 2525), "started": True, "stopped": True}
    assert "listening for mail on 0.0.0.0:2525" in out.getvalue()


# --- provider webhooks (anymail inbound signal) -----------------------------------------
def _mailgun_post(client, raw: bytes, recipient: str, key: str = "mg-signing-key"):
    timestamp, token = str(int(time.time())), "tok-" + hashlib.md5(raw).hexdigest()
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(),
                         hashlib.sha256).hexdigest()
    return client.post("/mail/anymail/mailgun/inbound_mime/", {
        "body-mime": raw.decode("utf-8"), "recipient": recipient, "sender": "x@example.org",
        "timestamp": timestamp, "token": token, "signature": signature},
        HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")  # user:pass


@pytest.fixture
def mailgun(settings):
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": "mg-signing-key",
                        "WEBHOOK_SECRET": "user:pass"}
    settings.GM_MAIL_WEBHOOKS = ["mailgun"]  # only enabled webhooks exist (webhook_gate)


def test_mailgun_webhook_reaches_the_pipeline(tally_game, client, mailgun, on_commit):
    p1 = seat(tally_game, "P1")
    raw = shapes.gmail("ADD 2", sender=p1.user.email, to="play@gm.example",
                       message_id="<hook@client.example>")
    with on_commit():
        response = _mailgun_post(client, raw, p1.reply_address)
    assert response.status_code == 200
    row = InboundMessage.objects.get(message_id="hook@client.example")
    assert (row.outcome, row.transport) == (Outcome.ACCEPTED, "webhook:Mailgun")
    assert Submission.objects.get(seat=p1).orders["items"] == [
        {"order": {"op": "add", "n": 2}}]
    with on_commit():
        assert _mailgun_post(client, raw, p1.reply_address).status_code == 200  # retry
    assert Submission.objects.filter(seat=p1).count() == 1


def test_mailgun_webhook_with_bad_signature_is_rejected(tally_game, client, mailgun):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address)
    response = _mailgun_post(client, raw, p1.reply_address, key="wrong")
    assert response.status_code == 400
    assert not InboundMessage.objects.exists()


# --- manage.py poll_imap, against a small fake with the imap-tools interface ----------
@dataclass
class FakeMailbox:
    """The part of imap_tools.BaseMailBox that poll() uses, over a dict of messages."""

    messages: dict[str, bytes]
    seen: set[str] = field(default_factory=set)
    moved: dict[str, str] = field(default_factory=dict)

    def fetch(self, criteria, mark_seen=True, limit=None, bulk=False):
        assert str(criteria) == "(UNSEEN)" and mark_seen is False
        for uid, raw in list(self.messages.items())[:limit]:
            if uid not in self.seen and uid not in self.moved:
                msg = MailMessage.from_bytes(raw)
                msg.__dict__["uid"] = uid
                yield msg

    def flag(self, uid, flag, value):
        assert flag == "\\Seen" and value is True
        self.seen.add(uid)

    def move(self, uid, folder):
        self.moved[uid] = folder


def test_poll_flags_only_after_the_outcome_is_committed(tally_game, monkeypatch, on_commit):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    box = FakeMailbox({
        "1": shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address,
                          message_id="<i1@c>"),
        "2": shapes.plain("ADD 2", sender=p2.user.email, to=p2.reply_address,
                          message_id="<i2@c>")})
    real = inbound.process

    def fail_second(raw, **kw):
        if b"<i2@c>" in raw:
            raise OSError("database is gone")
        return real(raw, **kw)

    monkeypatch.setattr(inbound, "process", fail_second)
    with on_commit():
        report = imap.poll(box)
    assert [r.outcome for r in report.processed] == [Outcome.ACCEPTED] and report.failed == 1
    assert box.seen == {"1"}  # the failed one stays unseen for the next poll
    monkeypatch.setattr(inbound, "process", real)
    with on_commit():
        report = imap.poll(box, done_folder="Processed")
    assert [r.outcome for r in report.processed] == [Outcome.ACCEPTED]
    assert box.moved == {"2": "Processed"}
    assert Submission.objects.filter(seat__game=tally_game).count() == 2


def test_poll_after_crash_before_flag_is_a_duplicate(tally_game, on_commit):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address,
                       message_id="<i3@c>")
    with on_commit():
        inbound.process(raw, transport="imap")  # committed, then "crashed" before flagging
        report = imap.poll(FakeMailbox({"7": raw}))
    assert report.processed[0].duplicate
    assert Submission.objects.filter(seat=p1).count() == 1


def test_poll_imap_command(tally_game, monkeypatch, on_commit):
    p1 = seat(tally_game, "P1")
    box = FakeMailbox({"1": shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address,
                                         message_id="<i4@c>")})

    class Ctx:
        def __enter__(self):
            return box

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(imap, "connect", Ctx)
    out = io.StringIO()
    with on_commit():
        call_command("poll_imap", stdout=out)
    assert out.getvalue().strip() == "i4@c: accepted" and box.seen == {"1"}
