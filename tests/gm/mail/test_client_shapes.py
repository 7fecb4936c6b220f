"""Real client-shaped MIME through the pipeline: the orders, and only the orders, are kept."""

from __future__ import annotations

import pytest

from gm.mail.models import InboundMessage, Outbox, Outcome
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat


def _latest(game, name):
    return Submission.objects.filter(seat__game=game, seat__name=name).order_by(
        "-version").first()


@pytest.mark.parametrize("builder", [shapes.gmail, shapes.outlook, shapes.apple],
                         ids=["gmail", "outlook", "apple"])
def test_client_reply_with_quote_and_signature_is_accepted(tally_game, feed, mailoutbox,
                                                           builder):
    p1 = seat(tally_game, "P1")
    raw = builder("add 2", sender=f"Alice <{p1.user.email}>", to=p1.reply_address)
    result = feed(raw)
    assert result.outcome == Outcome.ACCEPTED
    sub = _latest(tally_game, "P1")
    assert sub.source == "email" and sub.text.strip().lower() == "add 2"
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 2}}]
    reply = [m for m in mailoutbox if m.to == [p1.user.email]][-1]
    assert "    ADD 2\n" in reply.body
    assert f"Receipt (SHA-256 of the orders):\n    {sub.receipt}\n" in reply.body


@pytest.mark.parametrize("cte", ["quoted-printable", "base64", "8bit", "7bit"])
@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-1"])
def test_transfer_encodings_and_charsets(tally_game, feed, cte, charset):
    p1 = seat(tally_game, "P1")
    body = "ADD 3   # für Ärger: à bientôt\nEND\nTschüß"
    if cte == "7bit":
        body = "ADD 3\nEND\nbye"
    raw = shapes.plain(body, sender=p1.user.email, to=p1.reply_address, charset=charset,
                       cte=cte)
    assert feed(raw).outcome == Outcome.ACCEPTED
    sub = _latest(tally_game, "P1")
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 3}}]
    assert "Tschüß" not in sub.text and "bye" not in sub.text


def test_iso_8859_1_text_is_decoded_not_mangled(tally_game, feed):
    p1 = seat(tally_game, "P1")
    raw = shapes.raw_bytes("ADD 1 # déjà vu\n".encode("iso-8859-1"), sender=p1.user.email,
                           to=p1.reply_address, charset="iso-8859-1")
    assert feed(raw).outcome == Outcome.ACCEPTED
    assert "déjà vu" in _latest(tally_game, "P1").text


def test_html_only_mail_is_converted_and_quote_dropped(tally_game, feed):
    p2 = seat(tally_game, "P2")
    html = ("<html><body><p>ADD&nbsp;1</p><blockquote type=\"cite\">ADD 3<br>old</blockquote>"
            "</body></html>")
    result = feed(shapes.html_only(html, sender=p2.user.email, to=p2.reply_address))
    assert result.outcome == Outcome.ACCEPTED
    assert _latest(tally_game, "P2").orders["items"] == [{"order": {"op": "add", "n": 1}}]


def test_alternative_with_empty_plain_part_falls_back_to_html(tally_game, feed):
    from email.mime.multipart import MIMEMultipart
    from email.mime.text import MIMEText

    p1 = seat(tally_game, "P1")
    msg = MIMEMultipart("alternative")
    msg.attach(MIMEText(" \n", "plain", "utf-8"))
    msg.attach(MIMEText("<div>ADD 2</div>", "html", "utf-8"))
    msg["From"], msg["To"], msg["Subject"] = p1.user.email, p1.reply_address, "x"
    msg["Message-ID"] = "<alt-empty@client.example>"
    assert feed(msg.as_bytes()).outcome == Outcome.ACCEPTED
    assert _latest(tally_game, "P1").orders["items"] == [{"order": {"op": "add", "n": 2}}]


def test_reply_is_threaded_and_carries_reply_to(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<m1@client.example>",
                       in_reply_to="<notice@gm.example>")
    result = feed(raw)
    reply = mailoutbox[-1]
    assert reply.extra_headers["In-Reply-To"] == "<m1@client.example>"
    assert reply.extra_headers["References"] == "<notice@gm.example> <m1@client.example>"
    assert reply.extra_headers["Auto-Submitted"] == "auto-replied"
    assert reply.reply_to == [p1.reply_address]
    assert reply.subject == "Re: turn 1 [orders accepted]"
    row = InboundMessage.objects.get(pk=result.inbound_id)
    assert row.outcome == Outcome.ACCEPTED and row.seat_id == p1.pk
    assert Outbox.objects.get(inbound=row).status == Outbox.Status.SENT


def test_signon_fallback_when_plus_address_was_dropped(tally_game, feed):
    p2 = seat(tally_game, "P2")
    body = f"GAME {tally_game.pk}\nSIGNON P2 {p2.mail_token}\nADD 3\n"
    result = feed(shapes.plain(body, sender=p2.user.email, to="play@gm.example"))
    assert result.outcome == Outcome.ACCEPTED
    assert _latest(tally_game, "P2").orders["items"] == [{"order": {"op": "add", "n": 3}}]


def test_envelope_recipient_is_enough(tally_game, feed):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 1", sender=p1.user.email, to="Game Master <play@gm.example>")
    assert feed(raw, rcpt=[p1.reply_address.upper()]).outcome == Outcome.ACCEPTED


def test_extra_registered_address_and_any_sender(tally_game, feed):
    p1 = seat(tally_game, "P1")
    p1.emails = ["Alice.Work@Example.COM"]
    p1.save()
    raw = shapes.plain("ADD 1", sender="alice.work@example.com", to=p1.reply_address)
    assert feed(raw).outcome == Outcome.ACCEPTED
    p2 = seat(tally_game, "P2")
    p2.allow_any_sender = True
    p2.save()
    raw = shapes.plain("ADD 2", sender="anyone@else.example", to=p2.reply_address)
    assert feed(raw).outcome == Outcome.ACCEPTED


def test_text_with_attachment_reads_the_text_not_the_file(tally_game, feed):
    from email.mime.application import MIMEApplication
    from email.mime.multipart import MIMEMultipart
    from email.mime.text import MIMEText

    p1 = seat(tally_game, "P1")
    msg = MIMEMultipart("mixed")
    msg.attach(MIMEText("ADD 1\n", "plain", "utf-8"))
    att = MIMEText("ADD 3\n", "plain", "utf-8")
    att.add_header("Content-Disposition", "attachment", filename="old-orders.txt")
    msg.attach(att)
    msg.attach(MIMEApplication(b"\x89PNG...", "png"))
    msg["From"], msg["To"] = p1.user.email, p1.reply_address
    msg["Subject"] = "=?utf-8?q?Z=C3=BCge_f=C3=BCr_Runde_1?="
    result = feed(msg.as_bytes())
    assert result.outcome == Outcome.ACCEPTED
    assert _latest(tally_game, "P1").orders["items"] == [{"order": {"op": "add", "n": 1}}]
    assert InboundMessage.objects.get(pk=result.inbound_id).subject == "Züge für Runde 1"


def test_forwarded_message_only_is_not_read_as_orders(tally_game, feed, mailoutbox):
    from email.mime.message import MIMEMessage
    from email.mime.multipart import MIMEMultipart
    from email.mime.text import MIMEText

    p1 = seat(tally_game, "P1")
    inner = MIMEText("ADD 3\n", "plain", "utf-8")
    msg = MIMEMultipart("mixed")
    msg.attach(MIMEMessage(inner))
    msg["From"], msg["To"], msg["Subject"] = p1.user.email, p1.reply_address, "Fwd: x"
    assert feed(msg.as_bytes()).outcome == Outcome.EMPTY
    assert _latest(tally_game, "P1") is None
    assert mailoutbox[-1].body.startswith(
        "No orders found: forwarded mail is not read as orders.")


def test_format_flowed_long_line_is_one_order(tally_game, feed):
    """Apple Mail and Thunderbird wrap long lines with format=flowed (RFC 3676)."""
    p1 = seat(tally_game, "P1")
    body = "ADD \r\n3  # a long comment that the client \r\nwrapped for me\r\n\r\nEND\r\n"
    raw = shapes.raw_bytes(body.encode(), sender=p1.user.email, to=p1.reply_address,
                           charset="utf-8; format=flowed")
    assert feed(raw).outcome == Outcome.ACCEPTED
    assert _latest(tally_game, "P1").orders["items"] == [{"order": {"op": "add", "n": 3}}]


def test_unflow_rules():
    from gm.mail.mime import unflow

    assert unflow("a \nb\n-- \nsig") == "a b\n-- \nsig"
    assert unflow("wr \napped", delsp=True) == "wrapped"
    assert unflow(" stuffed") == "stuffed"
    assert unflow("> quoted \nnext") == "> quoted \nnext"
