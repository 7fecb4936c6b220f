"""Press by mail: the recipient seat gets a mail it can switch off, and replying to it
posts a private message back to the sender seat, routed by the seat's token and the
press mail's Message-ID through the one inbound pipeline (`manage.py ingest_email`),
with the same sender check as orders."""

from __future__ import annotations

import io
import sys

from django.core.management import call_command

from gm.mail import prefs
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome
from gm.play.models import Submission
from gm.talk import actions as talk
from gm.talk.models import Message

from . import mimeshapes as shapes
from .conftest import seat


def ingest(raw: bytes, rcpt: str, monkeypatch) -> InboundMessage:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("ingest_email", "--recipient", rcpt, stdout=out)
    return InboundMessage.objects.get(message_id=out.getvalue().split(": ")[0].strip("<>"))


def _press_to_bob(game):
    p1, p2 = seat(game, "P1"), seat(game, "P2")
    talk.send(game, p1.user, "P2", "Ally with me against the GM's dice?")
    return p1, p2, Outbox.objects.get(kind=Kind.PRESS, to=p2.user.email)


QUOTE = "\n\nOn Sun, Nov 29, 2026 alice wrote:\n> Ally with me against the GM's dice?\n"


def test_a_reply_to_press_mail_posts_press_back_to_the_sender_seat(tally_game, monkeypatch):
    p1, p2, mail = _press_to_bob(tally_game)
    assert mail.reply_to == p2.reply_address  # replying goes to bob's seat token
    assert "List-Unsubscribe" in mail.headers and "Reply to this mail" in mail.body_text
    raw = shapes.plain("Agreed: I ADD 2 this turn, you ADD 1." + QUOTE,
                       sender=p2.user.email, to=p2.reply_address,
                       subject=f"Re: {mail.subject}", in_reply_to=mail.message_id)
    row = ingest(raw, p2.reply_address, monkeypatch)
    assert row.outcome == Outcome.PRESS, row.detail
    back = Message.objects.get(sender="P2")
    assert back.recipient == "P1" and back.author == p2.user
    assert back.markdown == "Agreed: I ADD 2 this turn, you ADD 1."  # quote taken off
    assert not Submission.objects.filter(seat=p2).exists()  # never read as orders
    to_alice = Outbox.objects.get(kind=Kind.PRESS, to=p1.user.email)
    assert "Agreed: I ADD 2" in to_alice.body_text and to_alice.reply_to == p1.reply_address
    receipt = Outbox.objects.get(inbound=row)
    assert receipt.to == p2.user.email and "private message posted" in receipt.subject
    assert "was posted" in receipt.body_text and "Agreed: I ADD 2" in receipt.body_text
    # and alice's reply to that mail goes back to bob: a conversation by mail
    raw = shapes.plain("Deal." + QUOTE, sender=p1.user.email, to=p1.reply_address,
                       in_reply_to=to_alice.message_id)
    assert ingest(raw, p1.reply_address, monkeypatch).outcome == Outcome.PRESS
    assert Message.objects.filter(sender="P1", recipient="P2", markdown="Deal.").exists()


def test_a_forged_sender_cannot_post_press(tally_game, monkeypatch):
    _p1, p2, mail = _press_to_bob(tally_game)
    raw = shapes.plain("Betrayal! Attack P1.", sender="mallory@evil.example",
                       to=p2.reply_address, in_reply_to=mail.message_id)
    row = ingest(raw, p2.reply_address, monkeypatch)
    assert row.outcome == Outcome.WRONG_SENDER
    assert not Message.objects.filter(sender="P2").exists()
    assert not Outbox.objects.filter(to="mallory@evil.example").exists()


def test_press_mail_of_another_seat_does_not_make_a_press_reply(tally_game, monkeypatch):
    """Alice quotes bob's press mail to her own seat address: not her press to answer,
    so the mail is read as orders (and refused as having none)."""
    p1, _p2, mail = _press_to_bob(tally_game)
    raw = shapes.plain("Hello there", sender=p1.user.email, to=p1.reply_address,
                       in_reply_to=mail.message_id)
    row = ingest(raw, p1.reply_address, monkeypatch)
    assert row.outcome == Outcome.EMPTY
    assert Message.objects.count() == 1


def test_an_empty_press_reply_is_refused_with_the_reason(tally_game, monkeypatch):
    _p1, p2, mail = _press_to_bob(tally_game)
    raw = shapes.plain(QUOTE, sender=p2.user.email, to=p2.reply_address,
                       in_reply_to=mail.message_id)
    row = ingest(raw, p2.reply_address, monkeypatch)
    assert row.outcome == Outcome.REFUSED and "cannot be empty" in row.detail
    answer = Outbox.objects.get(inbound=row)
    assert "was not posted" in answer.body_text and "cannot be empty" in answer.body_text
    assert Message.objects.count() == 1


def test_press_mail_can_be_switched_off_like_other_notices(tally_game, client):
    p2 = seat(tally_game, "P2")
    client.force_login(p2.user)
    page = client.get("/mail/preferences/").content.decode()
    assert 'name="press"' in page and "Private messages (press) from other seats or the GM" in page
    form = {k: "on" for k in Kind.values if k != Kind.PRESS}
    assert client.post("/mail/preferences/", form).status_code == 302
    assert not prefs.wants(p2.user, Kind.PRESS) and prefs.wants(p2.user, Kind.REPORT)
    talk.send(tally_game, seat(tally_game, "P1").user, "P2", "psst")
    assert not Outbox.objects.filter(kind=Kind.PRESS).exists()
    assert Message.objects.count() == 1  # still on the page, just not mailed
    prefs.set_pref(p2.user, Kind.PRESS, True)
    talk.send(tally_game, seat(tally_game, "P1").user, "P2", "psst again")
    assert Outbox.objects.filter(kind=Kind.PRESS, to=p2.user.email).count() == 1
