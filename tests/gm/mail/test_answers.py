"""Who is answered, and for which turn a mail counts: forwards, the receipts switch,
threads that name a closed turn or the service's own refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.mail import prefs
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome
from gm.play import actions
from gm.play.models import Submission, Turn

from . import mimeshapes as shapes
from .conftest import seat


def answers(mailoutbox, addr):
    return [m for m in mailoutbox if m.to == [addr]
            and m.extra_headers.get("Auto-Submitted") == "auto-replied"]


@pytest.mark.parametrize("client", ["gmail", "apple", "thunderbird", "outlook"])
def test_forwarded_orders_are_not_read(tally_game, feed, mailoutbox, client):
    p1 = seat(tally_game, "P1")
    raw = shapes.forward("ADD 3\nEND", client=client, sender=p1.user.email,
                         to=p1.reply_address)
    result = feed(raw)
    assert result.outcome == Outcome.EMPTY, result.detail
    body = answers(mailoutbox, p1.user.email)[-1].body
    assert body.startswith("No orders found: forwarded mail is not read as orders.")
    assert "Errors:" not in body and "line 1" not in body  # no confusing per-line errors
    assert not Submission.objects.filter(seat=p1).exists()


@pytest.mark.parametrize("client", ["gmail", "apple", "thunderbird"])
def test_orders_written_above_a_forward_are_read(tally_game, feed, client):
    p1 = seat(tally_game, "P1")
    raw = shapes.forward("ADD 3", client=client, sender=p1.user.email, to=p1.reply_address,
                         above="ADD 1")
    assert feed(raw).outcome == Outcome.ACCEPTED
    sub = Submission.objects.get(seat=p1)
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 1}}]


def test_receipts_switched_off_still_answers_every_error(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    prefs.set_pref(p1.user, Kind.RECEIPT, False)
    ok = feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address))
    assert ok.outcome == Outcome.ACCEPTED and ok.reply_id is None
    assert InboundMessage.objects.get(pk=ok.inbound_id).reply_suppressed == "preference"
    bad = feed(shapes.plain("ADD 7", sender=p1.user.email, to=p1.reply_address))
    assert bad.outcome == Outcome.INVALID and bad.reply_id is not None
    error = answers(mailoutbox, p1.user.email)[-1]
    assert "were NOT accepted" in error.body
    # nothing to switch off on an error: no unsubscribe header or footer
    assert "List-Unsubscribe" not in error.extra_headers and "Stop them" not in error.body
    Turn.objects.filter(game=tally_game).update(deadline=timezone.now() - timedelta(minutes=1))
    late = feed(shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))
    assert late.outcome == Outcome.LATE and late.reply_id is not None


def _turn_2(game, on_commit):
    p2 = seat(game, "P2")
    with on_commit():
        for s, n in ((seat(game, "P1"), 2), (p2, 1)):
            actions.submit_orders(game, s, f"ADD {n}", source="web", author=s.user)
    assert game.current_turn().number == 2


def test_answering_the_too_late_refusal_orders_for_the_open_turn(tally_game, feed,
                                                                 mailoutbox, on_commit):
    p1 = seat(tally_game, "P1")
    notice_1 = Outbox.objects.get(kind=Kind.TURN_OPENED, to=p1.user.email, turn__number=1)
    _turn_2(tally_game, on_commit)
    first = feed(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address,
                              message_id="<late-1@client.example>",
                              in_reply_to=notice_1.message_id))
    assert first.outcome == Outcome.LATE
    refusal = Outbox.objects.get(pk=first.reply_id)
    assert refusal.turn_id is None
    # The player answers the refusal: References still name turn 1's notice.
    raw = shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address,
                       message_id="<late-2@client.example>",
                       extra={"In-Reply-To": refusal.message_id,
                              "References": f"{notice_1.message_id} <late-1@client.example> "
                                            f"{refusal.message_id}"})
    second = feed(raw)
    assert second.outcome == Outcome.ACCEPTED, second.detail
    assert Submission.objects.get(pk=second.submission_id).turn.number == 2


def test_a_mail_naming_no_closed_turn_is_read_for_the_open_turn(tally_game, feed, on_commit):
    p1 = seat(tally_game, "P1")
    _turn_2(tally_game, on_commit)
    other = "<something@other.example>"
    for i, extra in enumerate(({}, {"In-Reply-To": other, "References": other})):
        # a text of its own each time (the same text again this turn is a duplicate)
        result = feed(shapes.plain(f"ADD {i + 1}", sender=p1.user.email,
                                   to=p1.reply_address,
                                   message_id=f"<open-{i}@client.example>", extra=extra))
        assert result.outcome == Outcome.ACCEPTED
        assert Submission.objects.get(pk=result.submission_id).turn.number == 2


def test_answering_an_accepted_receipt_of_a_closed_turn_is_late(tally_game, feed, on_commit):
    p1 = seat(tally_game, "P1")
    ok = feed(shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))
    receipt = Outbox.objects.get(pk=ok.reply_id)
    assert receipt.turn.number == 1
    _turn_2(tally_game, on_commit)
    again = feed(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address,
                              in_reply_to=receipt.message_id))
    assert again.outcome == Outcome.LATE
    assert not Submission.objects.filter(seat=p1, turn__number=2).exists()


def test_a_stranger_writing_to_a_seat_is_never_answered_through_any_outcome(
        tally_game, feed, mailoutbox, settings):
    """Too large, no text, wrong sender: the forger's address never gets mail."""
    p1 = seat(tally_game, "P1")
    settings.GM_MAIL_MAX_BYTES = 4096
    for raw in (shapes.plain("ADD 1\n" + "x" * 9000, sender="eve@evil.example",
                             to=p1.reply_address),
                shapes.attachment_only(b"ADD 1", sender="eve@evil.example",
                                       to=p1.reply_address),
                shapes.plain("ADD 1", sender="eve@evil.example", to=p1.reply_address)):
        feed(raw)
    assert all(m.to != ["eve@evil.example"] for m in mailoutbox)


def test_an_unconfirmed_address_gets_no_mail_and_does_not_count_as_the_seats(
        make_game, feed, mailoutbox, players):
    from gm.accounts.confirmation import mark_unconfirmed

    mark_unconfirmed(players[0])
    game = make_game("tally", 2)
    p1, p2 = seat(game, "P1"), seat(game, "P2")
    assert p1.user == players[0]
    notices_to = {tuple(m.to) for m in mailoutbox}
    assert (p1.user.email,) not in notices_to and (p2.user.email,) in notices_to
    result = feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.WRONG_SENDER
    assert all(m.to != [p1.user.email] for m in mailoutbox)  # nobody confirmed to warn
    assert not Submission.objects.filter(seat=p1).exists()
