"""A replayed body (issue 29): the same sender and text to the same seat, again this turn
under a new Message-ID, is refused as a duplicate, so a copied or forged mail cannot put
back orders the player changed; the next turn takes the same text again."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from gm.mail.models import InboundMessage, Outbox, Outcome
from gm.play import actions
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat

pytestmark = pytest.mark.django_db


def _mail(p1, text: str, mid: str) -> bytes:
    return shapes.plain(text, sender=p1.user.email, to=p1.reply_address,
                        message_id=f"<{mid}@client.example>")


def test_a_replayed_body_is_refused_as_a_duplicate(tally_game, feed, on_commit):
    p1 = seat(tally_game, "P1")
    assert feed(_mail(p1, "ADD 2", "first")).outcome == Outcome.ACCEPTED
    assert feed(_mail(p1, "ADD 3", "second")).outcome == Outcome.ACCEPTED
    # A copy of the first mail with a new Message-ID (and spacing changed) puts nothing back.
    replayed = feed(_mail(p1, "ADD  2\n\n", "replayed"))
    assert replayed.outcome == Outcome.DUPLICATE
    assert actions.my_orders(tally_game, seat(tally_game, "P1")).text.strip() == "ADD 3"
    assert Submission.objects.filter(seat=p1).count() == 2
    reply = Outbox.objects.get(inbound_id=replayed.inbound_id)
    assert "[duplicate: not read again]" in reply.subject
    assert "was not read again" in reply.body_text
    assert "Nothing was changed." in reply.body_text
    # A text that was refused (errors) never counts as read: the same one again is read.
    assert feed(_mail(p1, "ADD two", "bad")).outcome == Outcome.INVALID
    assert feed(_mail(p1, "ADD two", "bad-again")).outcome == Outcome.INVALID


def test_another_sender_or_seat_or_turn_is_not_a_duplicate(tally_game, feed, on_commit,
                                                          settings):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    assert feed(_mail(p1, "ADD 2", "a1")).outcome == Outcome.ACCEPTED
    assert feed(shapes.plain("ADD 2", sender=p2.user.email, to=p2.reply_address,
                             message_id="<b1@client.example>")).outcome == Outcome.ACCEPTED
    assert Submission.objects.filter(seat=p2).count() == 1
    assert InboundMessage.objects.exclude(body_digest="").count() == 2
    # Both seats are in: the turn resolves and turn 2 opens; the same text is read again.
    assert tally_game.current_turn().number == 2
    assert feed(_mail(p1, "ADD 2", "a2")).outcome == Outcome.ACCEPTED


def test_check_deploy_warns_without_an_authserv_id(settings):
    settings.GM_MAIL_AUTHSERV_ID = ""
    out = io.StringIO()
    call_command("check", "--deploy", stdout=out, stderr=out)
    assert "gm.W001" in out.getvalue()
    settings.GM_MAIL_AUTHSERV_ID = "mx.gm.example"
    out = io.StringIO()
    call_command("check", "--deploy", stdout=out, stderr=out)
    assert "gm.W001" not in out.getvalue()


def test_a_replayed_gm_answer_to_press_is_not_posted_again(tally_game, gm_user, feed,
                                                         on_commit):
    """A copy of the GM's answer with a new Message-ID (a forged one needs only the GM's
    press reply address) posts nothing; a different text does."""
    from gm.talk import actions as talk
    from gm.talk.models import GM_END, Message

    with on_commit():
        talk.send(tally_game, seat(tally_game, "P1").user, GM_END, "A question?")
    to_gm = Outbox.objects.get(kind="press", to=gm_user.email)

    def answer(text: str, mid: str):
        return feed(shapes.plain(text, sender=gm_user.email, to=to_gm.reply_to,
                                 subject=f"Re: {to_gm.subject}", in_reply_to=to_gm.message_id,
                                 message_id=f"<{mid}@mail.example>"), rcpt=[to_gm.reply_to])

    assert answer("No, it is not.", "gm-1").outcome == Outcome.PRESS
    again = answer("No, it is not.", "gm-2")
    assert again.outcome == Outcome.REFUSED and "duplicate" in again.detail
    assert Message.objects.filter(sender=GM_END).count() == 1
    reply = Outbox.objects.get(inbound_id=again.inbound_id)
    assert "was not posted" in reply.body_text and "already posted to P1" in reply.body_text
    assert answer("No, it is not. Really.", "gm-3").outcome == Outcome.PRESS
    assert Message.objects.filter(sender=GM_END).count() == 2
