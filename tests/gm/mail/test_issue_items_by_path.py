"""Each inbound item of the mail issue through the two doors an MTA uses: the pipe
(`manage.py ingest_email`) and the SMTP listener, with client-shaped messages (CRLF on
the wire, quoted-printable, base64, 8bit, HTML only, format=flowed, forwards)."""

from __future__ import annotations

import io
import smtplib
import sys
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from gm.mail import prefs
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome
from gm.mail.smtp_server import controller
from gm.play import actions
from gm.play.models import Submission, Turn

from . import mimeshapes as shapes
from .conftest import free_port, seat
from .test_inbound_paths import crlf


def _pipe(raw: bytes, rcpt: str, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    call_command("ingest_email", "--recipient", rcpt, stdout=io.StringIO())


def _smtp(raw: bytes, rcpt: str, monkeypatch) -> None:
    port = free_port()
    ctrl = controller("127.0.0.1", port)
    ctrl.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            smtp.sendmail("bounce@client.example", [rcpt], crlf(raw))
    finally:
        ctrl.stop()


PATHS = {"ingest_email": _pipe, "smtp": _smtp}


@pytest.fixture(params=list(PATHS))
def send(request, monkeypatch, transactional_db):
    def run(raw: bytes, rcpt: str) -> InboundMessage:
        before = set(InboundMessage.objects.values_list("pk", flat=True))
        PATHS[request.param](raw, rcpt, monkeypatch)
        return InboundMessage.objects.exclude(pk__in=before).get()
    return run


def _mail_to(mailoutbox, addr):
    return [m for m in mailoutbox if addr in m.to]


def test_latin1_byte_in_a_utf8_mail_is_read(tally_game, send, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.raw_bytes("ADD 2 # à bientôt\r\n".encode("latin-1"), sender=p1.user.email,
                           to=p1.reply_address, charset="UTF-8")
    row = send(raw, p1.reply_address)
    assert row.outcome == Outcome.ACCEPTED, row.detail
    assert "à bientôt" in Submission.objects.get(pk=row.submission_id).text


def test_forged_sender_gets_nothing_the_owner_a_notice(tally_game, send, mailoutbox):
    p1 = seat(tally_game, "P1")
    row = send(shapes.outlook("ADD 3", sender="forger@evil.example", to=p1.reply_address),
               p1.reply_address)
    assert row.outcome == Outcome.WRONG_SENDER
    assert _mail_to(mailoutbox, "forger@evil.example") == []
    assert "Security notice" in _mail_to(mailoutbox, p1.user.email)[-1].body


def test_unknown_token_from_a_stranger_gets_nothing(tally_game, send, mailoutbox):
    row = send(shapes.gmail("ADD 3", sender="who@else.example", to="play+nosuch@gm.example"),
               "play+nosuch@gm.example")
    assert row.outcome == Outcome.UNKNOWN_ADDRESS
    assert _mail_to(mailoutbox, "who@else.example") == []


@pytest.mark.parametrize("client", ["gmail", "apple", "thunderbird", "outlook"])
def test_forward_is_answered_no_orders_found(tally_game, send, mailoutbox, client):
    p1 = seat(tally_game, "P1")
    row = send(shapes.forward("ADD 3", client=client, sender=p1.user.email,
                              to=p1.reply_address), p1.reply_address)
    assert row.outcome == Outcome.EMPTY
    assert _mail_to(mailoutbox, p1.user.email)[-1].body.startswith(
        "No orders found: forwarded mail is not read as orders.")


def test_receipts_off_errors_still_answered(tally_game, send, mailoutbox):
    p1 = seat(tally_game, "P1")
    prefs.set_pref(p1.user, Kind.RECEIPT, False)
    row = send(shapes.thunderbird_flowed("ADD 9", sender=p1.user.email, to=p1.reply_address),
               p1.reply_address)
    assert row.outcome == Outcome.INVALID and row.reply_suppressed == ""
    assert "were NOT accepted" in _mail_to(mailoutbox, p1.user.email)[-1].body


def test_answer_to_the_too_late_refusal_counts_for_the_open_turn(tally_game, send,
                                                                 mailoutbox):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    notice_1 = Outbox.objects.get(kind=Kind.TURN_OPENED, to=p1.user.email, turn__number=1)
    for s, n in ((p1, 1), (p2, 1)):
        actions.submit_orders(tally_game, s, f"ADD {n}", source="web", author=s.user)
    assert tally_game.current_turn().number == 2
    late = send(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address,
                             in_reply_to=notice_1.message_id, cte="quoted-printable"),
                p1.reply_address)
    assert late.outcome == Outcome.LATE
    refusal = Outbox.objects.get(inbound=late)
    again = send(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address,
                              cte="base64",
                              extra={"In-Reply-To": refusal.message_id,
                                     "References": f"{notice_1.message_id} "
                                                   f"{refusal.message_id}"}),
                 p1.reply_address)
    assert again.outcome == Outcome.ACCEPTED, again.detail
    assert Submission.objects.get(pk=again.submission_id).turn.number == 2


def test_past_deadline_is_late_and_answered(tally_game, send, mailoutbox):
    p1 = seat(tally_game, "P1")
    Turn.objects.filter(game=tally_game).update(deadline=timezone.now() - timedelta(minutes=1))
    row = send(shapes.html_only("<p>ADD 1</p>", sender=p1.user.email, to=p1.reply_address),
               p1.reply_address)
    assert row.outcome == Outcome.LATE
    assert "Nothing from this message was kept." in _mail_to(mailoutbox, p1.user.email)[-1].body
