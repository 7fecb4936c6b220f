"""The GM answers press by mail: press to the GM end is mailed to the GM and each co-GM
with a reply address of that message and reader's own (play+gm-<message>-<user>-<mac>);
a reply from the reader's registered address is posted as press from the GM back to the
seat, with a receipt, through the one inbound pipeline (record, claim, dedupe). Any
other sender posts nothing and is never answered: the GM gets a security notice."""

from __future__ import annotations

import pytest

from gm.accounts.confirmation import mark_unconfirmed
from gm.mail import press
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome
from gm.play.models import Submission
from gm.talk import actions as talk
from gm.talk.models import GM_END, Message

from . import mimeshapes as shapes
from .conftest import seat

pytestmark = pytest.mark.django_db
QUOTE = "\n\nOn Sun, Nov 29, 2026 alice wrote:\n> Is a tie a win for both of us?\n"


@pytest.fixture
def to_gm(tally_game, gm_user, on_commit):
    """alice (P1) asks the GM something; the press mail to the GM."""
    with on_commit():
        talk.send(tally_game, seat(tally_game, "P1").user, GM_END,
                  "Is a tie a win for both of us?")
    return Outbox.objects.get(kind=Kind.PRESS, to=gm_user.email)


def _reply(notice, body: str, sender: str, **kw) -> bytes:
    return shapes.plain(body, sender=sender, to=notice.reply_to,
                        subject=f"Re: {notice.subject}", in_reply_to=notice.message_id, **kw)


def test_the_gm_answers_press_by_replying_to_its_mail(tally_game, gm_user, to_gm, feed):
    question = Message.objects.get()
    assert to_gm.reply_to == press.gm_reply_address(question.pk, gm_user.pk)
    assert to_gm.reply_to.startswith("play+gm-") and to_gm.reply_to.endswith("@gm.example")
    assert "Reply to this mail to answer P1 privately as GM" in to_gm.body_text
    done = feed(_reply(to_gm, "No: a tie is a loss for both.\n-- \nThe GM" + QUOTE,
                       gm_user.email), rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.PRESS, done.detail
    answer = Message.objects.get(sender=GM_END)
    assert (answer.recipient, answer.author) == ("P1", gm_user)
    assert answer.markdown == "No: a tie is a loss for both."  # signature and quote off
    row = InboundMessage.objects.get(pk=done.inbound_id)
    assert row.seat_id is None and "from GM" in row.detail
    p1 = seat(tally_game, "P1")
    assert not Submission.objects.filter(seat=p1).exists()
    to_alice = Outbox.objects.get(kind=Kind.PRESS, to=p1.user.email)
    assert "GM writes to P1" in to_alice.body_text and to_alice.reply_to == p1.reply_address
    receipt = Outbox.objects.get(inbound=row)
    assert receipt.to == gm_user.email and receipt.user == gm_user
    assert "[private message posted]" in receipt.subject
    assert "Your private message to P1" in receipt.body_text
    assert "    No: a tie is a loss for both." in receipt.body_text
    assert receipt.reply_to == to_gm.reply_to  # writing again answers P1 again
    assert receipt.headers["In-Reply-To"] == f"<{row.message_id}>"
    # alice's reply to the GM's answer goes back to the GM: a conversation by mail
    done = feed(shapes.plain("Thanks!", sender=p1.user.email, to=p1.reply_address,
                             in_reply_to=to_alice.message_id), rcpt=[p1.reply_address])
    assert done.outcome == Outcome.PRESS
    again = Message.objects.get(sender="P1", markdown="Thanks!")
    assert Outbox.objects.get(key=talk.press_key(again.pk, gm_user.pk)).reply_to == \
        press.gm_reply_address(again.pk, gm_user.pk)


def test_the_same_mail_delivered_twice_posts_once(gm_user, to_gm, feed):
    raw = _reply(to_gm, "Once only.", gm_user.email, message_id="<gm-answer-1@mail.example>")
    first = feed(raw, rcpt=[to_gm.reply_to])
    second = feed(raw, rcpt=[to_gm.reply_to])
    assert first.outcome == second.outcome == Outcome.PRESS and second.duplicate
    assert Message.objects.filter(sender=GM_END).count() == 1
    assert Outbox.objects.filter(kind=Kind.RECEIPT, to=gm_user.email).count() == 1


def test_a_forged_sender_posts_nothing_and_only_the_gm_is_told(gm_user, to_gm, feed):
    done = feed(_reply(to_gm, "A tie wins for P1!", "mallory@evil.example"),
                rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.WRONG_SENDER
    assert not Message.objects.filter(sender=GM_END).exists()
    assert not Outbox.objects.filter(to="mallory@evil.example").exists()
    notice = Outbox.objects.get(inbound_id=done.inbound_id)
    assert notice.to == gm_user.email and "security notice" in notice.subject
    assert "mallory@evil.example" in notice.body_text and "NOT posted" in notice.body_text
    assert "In-Reply-To" not in notice.headers and notice.reply_to == ""


def test_a_player_s_address_is_no_gm_s_either(tally_game, to_gm, feed):
    alice = seat(tally_game, "P1").user
    done = feed(_reply(to_gm, "I rule that I win.", alice.email), rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.WRONG_SENDER
    assert not Message.objects.filter(sender=GM_END).exists()
    assert not Outbox.objects.filter(inbound_id=done.inbound_id, to=alice.email).exists()


def test_a_forged_or_altered_gm_address_is_unknown(gm_user, to_gm, feed):
    local, domain = to_gm.reply_to.split("@")  # the mac's last characters changed
    forged = local[:-4] + ("0000" if not local.endswith("0000") else "1111") + "@" + domain
    done = feed(shapes.plain("Hello", sender=gm_user.email, to=forged), rcpt=[forged])
    assert done.outcome == Outcome.UNKNOWN_ADDRESS
    question = Message.objects.get()
    other = press.gm_reply_address(question.pk, gm_user.pk + 1000)  # a valid mac, no user
    done = feed(shapes.plain("Hello", sender=gm_user.email, to=other), rcpt=[other])
    assert done.outcome == Outcome.WRONG_SENDER
    assert not Message.objects.filter(sender=GM_END).exists()


def test_an_empty_answer_is_refused_with_the_reason(gm_user, to_gm, feed):
    done = feed(_reply(to_gm, QUOTE, gm_user.email), rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.REFUSED and "cannot be empty" in done.detail
    answer = Outbox.objects.get(inbound_id=done.inbound_id)
    assert answer.to == gm_user.email and "NOT posted" in answer.subject
    assert "was not posted" in answer.body_text and "cannot be empty" in answer.body_text
    assert Message.objects.count() == 1


def test_co_gms_get_the_press_and_answer_as_the_gm_while_they_are_one(
        tally_game, make_user, on_commit, feed):
    co = make_user("cogm")
    tally_game.co_gms.add(co)
    with on_commit():
        talk.send(tally_game, seat(tally_game, "P2").user, GM_END, "May I pass?")
    mine = Outbox.objects.get(kind=Kind.PRESS, to=co.email)
    question = Message.objects.get()
    assert mine.reply_to == press.gm_reply_address(question.pk, co.pk)
    assert feed(_reply(mine, "Yes.", co.email), rcpt=[mine.reply_to]).outcome == \
        Outcome.PRESS
    answer = Message.objects.get(sender=GM_END)
    assert (answer.recipient, answer.author) == ("P2", co)
    tally_game.co_gms.remove(co)
    done = feed(_reply(mine, "Actually no.", co.email), rcpt=[mine.reply_to])
    assert done.outcome == Outcome.REFUSED and "no longer a GM" in done.detail
    assert "no longer a GM" in Outbox.objects.get(inbound_id=done.inbound_id).body_text
    assert Message.objects.filter(sender=GM_END).count() == 1


def test_an_unconfirmed_gm_address_posts_nothing_and_gets_nothing(gm_user, to_gm, feed):
    mark_unconfirmed(gm_user)
    done = feed(_reply(to_gm, "Yes.", gm_user.email), rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.WRONG_SENDER
    assert not Outbox.objects.filter(inbound_id=done.inbound_id).exists()
    assert not Message.objects.filter(sender=GM_END).exists()


def test_press_between_seats_still_names_no_gm_address(tally_game, on_commit):
    with on_commit():
        talk.send(tally_game, seat(tally_game, "P1").user, "P2", "psst")
    mail = Outbox.objects.get(kind=Kind.PRESS)
    assert mail.reply_to == seat(tally_game, "P2").reply_address
