"""Every kind of bad mail: the exact outcome, the exact reply (or none), nothing lost.

Each test first has P1's orders accepted by mail, then sends the bad message and checks
that P1's accepted orders are still the latest, untouched.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.mail.models import InboundMessage, Outbox, Outcome
from gm.play.models import Game, Submission, Turn

from . import mimeshapes as shapes
from .conftest import seat


@pytest.fixture
def accepted(tally_game, feed):
    """P1 has `ADD 2` accepted by mail; returns that submission."""
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                               message_id="<first@client.example>"))
    assert result.outcome == Outcome.ACCEPTED
    return Submission.objects.get(pk=result.submission_id)


def assert_kept(sub: Submission) -> None:
    latest = Submission.objects.filter(turn=sub.turn, seat=sub.seat).order_by("-version")[0]
    assert latest.pk == sub.pk
    assert latest.orders == {"seat": "P1", "items": [{"order": {"op": "add", "n": 2}}],
                             "text": "ADD 2", "default": False}


def replies_to(mailoutbox, addr):
    """Replies to inbound mail (not notices) sent to `addr`."""
    return [m for m in mailoutbox if m.to == [addr]
            and m.extra_headers.get("Auto-Submitted") == "auto-replied"]


def test_forged_token(tally_game, accepted, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 3", sender=p1.user.email, to="play+forged123@gm.example"))
    assert result.outcome == Outcome.UNKNOWN_ADDRESS
    assert result.submission_id is None
    assert "does not belong to any seat" in mailoutbox[-1].body
    assert mailoutbox[-1].reply_to == []
    assert_kept(accepted)


def test_missing_token_explains_signon(tally_game, accepted, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 3", sender=p1.user.email, to="play@gm.example"))
    assert result.outcome == Outcome.UNKNOWN_ADDRESS
    assert "SIGNON <seat> <token>" in mailoutbox[-1].body
    assert_kept(accepted)


def test_signon_with_wrong_token_or_seat(tally_game, accepted, feed):
    p1 = seat(tally_game, "P1")
    p2 = seat(tally_game, "P2")
    for body in ("SIGNON P1 wrongtoken\nADD 3", f"SIGNON P1 {p2.mail_token}\nADD 3"):
        result = feed(shapes.plain(body, sender=p1.user.email, to="play@gm.example"))
        assert result.outcome == Outcome.UNKNOWN_ADDRESS
    assert_kept(accepted)


def test_unknown_game(tally_game, accepted, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("GAME 99999\nSIGNON P1 x\nADD 3", sender=p1.user.email,
                               to="play@gm.example"))
    assert result.outcome == Outcome.UNKNOWN_GAME
    assert "there is no game 99999" in mailoutbox[-1].body
    assert_kept(accepted)


def test_wrong_sender_is_never_answered_the_seat_owner_gets_a_notice(tally_game, accepted,
                                                                      feed, mailoutbox):
    """A forged From gets no mail at all; the seat's registered address is warned."""
    p1 = seat(tally_game, "P1")
    before = len(mailoutbox)
    result = feed(shapes.plain("ADD 3", sender="mallory@evil.example", to=p1.reply_address))
    assert result.outcome == Outcome.WRONG_SENDER
    assert replies_to(mailoutbox, "mallory@evil.example") == []
    assert all(m.to != ["mallory@evil.example"] for m in mailoutbox[before:])
    notice = replies_to(mailoutbox, p1.user.email)[-1]
    assert notice.subject.startswith("[security notice")
    assert "mallory@evil.example" in notice.body and "NOT read as orders" in notice.body
    assert p1.mail_token not in notice.body
    assert notice.reply_to == [] and "In-Reply-To" not in notice.extra_headers
    assert "List-Unsubscribe" not in notice.extra_headers
    row = InboundMessage.objects.get(pk=result.inbound_id)
    assert row.seat_id == p1.pk and row.reply_suppressed == ""
    assert_kept(accepted)


@pytest.mark.parametrize("to", ["play+forged123@gm.example", "play@gm.example"])
def test_unknown_or_missing_token_from_a_stranger_gets_no_answer(tally_game, accepted, feed,
                                                                mailoutbox, to):
    before = len(mailoutbox)
    result = feed(shapes.plain("ADD 3", sender="stranger@else.example", to=to))
    assert result.outcome == Outcome.UNKNOWN_ADDRESS
    assert mailoutbox[before:] == []
    row = InboundMessage.objects.get(pk=result.inbound_id)
    assert row.reply_suppressed == "unknown sender"
    assert_kept(accepted)


def test_finished_game(make_game, feed, mailoutbox):
    game = make_game("tally", 2, options={"max_turns": 1}, title="Short")
    for name in ("P1", "P2"):
        s = seat(game, name)
        assert feed(shapes.plain("ADD 1", sender=s.user.email, to=s.reply_address)).outcome \
            == Outcome.ACCEPTED
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    before = Submission.objects.count()
    p1 = seat(game, "P1")
    result = feed(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.FINISHED
    assert Submission.objects.count() == before
    assert f"Short (game {game.pk}) is over" in replies_to(mailoutbox, p1.user.email)[-1].body


def test_late_orders_keep_nothing_for_the_closed_turn(tally_game, accepted, feed, mailoutbox):
    Turn.objects.filter(game=tally_game).update(deadline=timezone.now() - timedelta(minutes=1))
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.LATE
    body = replies_to(mailoutbox, p1.user.email)[-1].body
    assert "the deadline for turn 1 has passed" in body
    assert "Nothing from this message was kept." in body
    assert_kept(accepted)


def test_paused_game_is_refused(tally_game, accepted, feed, mailoutbox):
    Game.objects.filter(pk=tally_game.pk).update(status=Game.Status.PAUSED)
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.REFUSED
    assert "paused" in replies_to(mailoutbox, p1.user.email)[-1].body
    assert_kept(accepted)


def test_empty_body_after_stripping_the_quote(tally_game, accepted, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.gmail("", sender=p1.user.email, to=p1.reply_address)
    result = feed(raw)
    assert result.outcome == Outcome.EMPTY
    assert "had no orders in it" in replies_to(mailoutbox, p1.user.email)[-1].body
    assert_kept(accepted)


def test_attachments_only(tally_game, accepted, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.attachment_only(b"ADD 3\n", sender=p1.user.email,
                                         to=p1.reply_address))
    assert result.outcome == Outcome.NO_TEXT
    assert "attachments are not read" in replies_to(mailoutbox, p1.user.email)[-1].body
    assert_kept(accepted)


def test_size_cap_polite_refusal(tally_game, accepted, feed, mailoutbox, settings):
    settings.GM_MAIL_MAX_BYTES = 4096
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 3\n" + "x" * 10000, sender=p1.user.email, to=p1.reply_address)
    result = feed(raw)
    assert result.outcome == Outcome.TOO_LARGE
    body = replies_to(mailoutbox, p1.user.email)[-1].body
    assert "the limit is 4 KB, so it was not read" in body
    row = InboundMessage.objects.get(pk=result.inbound_id)
    assert row.size == len(raw) and len(bytes(row.raw)) == 4096
    assert_kept(accepted)


@pytest.mark.parametrize("charset,body,comment", [
    ("x-klingon", "ADD 1 # é".encode("latin-1"), "é"),
    ("utf-8", "ADD 1 # déjà".encode("latin-1"), "déjà"),
    ("utf-8", "ADD 1 # ça va, déjà ".encode() + "vu".encode("latin-1") + b" \x81", "\x81"),
    ("us-ascii", "ADD 1 # Grüße".encode("cp1252") + b" \x93q\x94", "Grüße “q”"),
], ids=["unknown-charset", "latin1-labelled-utf8", "mixed-utf8-and-latin1", "cp1252-as-ascii"])
def test_mislabelled_charset_is_read_leniently(tally_game, accepted, feed, mailoutbox, charset,
                                               body, comment):
    """Clients call Latin-1 text UTF-8 and believe they sent UTF-8: read it anyway."""
    p1 = seat(tally_game, "P1")
    result = feed(shapes.raw_bytes(body, sender=p1.user.email, to=p1.reply_address,
                                   charset=charset))
    assert result.outcome == Outcome.ACCEPTED, result.detail
    sub = Submission.objects.get(pk=result.submission_id)
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 1}}]
    assert comment.replace("\x81", "\x81") in sub.text
    assert "resend" not in replies_to(mailoutbox, p1.user.email)[-1].body.lower()


def test_unreadable_bytes_in_an_order_line_are_its_error_not_a_refusal(tally_game, accepted,
                                                                      feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.raw_bytes(b"ADD 3 \xff\xfe", sender=p1.user.email,
                                   to=p1.reply_address, charset="utf-8"))
    assert result.outcome == Outcome.INVALID
    body = replies_to(mailoutbox, p1.user.email)[-1].body
    assert "line 1: ADD 3 ÿþ" in body and "ADD needs one number" in body
    assert_kept(accepted)


def test_unknown_charset_that_is_really_utf8_is_read(tally_game, feed):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.raw_bytes("ADD 3 # é".encode(), sender=p1.user.email,
                                   to=p1.reply_address, charset="x-unknown"))
    assert result.outcome == Outcome.ACCEPTED


@pytest.mark.parametrize("extra,envelope_sender", [
    ({"Auto-Submitted": "auto-replied"}, None),
    ({"Auto-Submitted": "auto-generated; type=vacation"}, None),
    ({"Precedence": "bulk"}, None),
    ({"Precedence": "list"}, None),
    ({"Precedence": "junk"}, None),
    ({"List-Id": "<players.lists.example>"}, None),
    ({"Return-Path": "<>"}, None),
    ({"X-Autoreply": "yes"}, None),
    ({}, ""),
], ids=["auto-replied", "vacation", "bulk", "list", "junk", "list-id", "return-path",
        "x-autoreply", "null-envelope"])
def test_loop_mail_is_never_answered_nor_read(tally_game, accepted, feed, mailoutbox, extra,
                                              envelope_sender):
    p1 = seat(tally_game, "P1")
    before = len(mailoutbox)
    raw = shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address, extra=extra)
    result = feed(raw, sender=envelope_sender)
    assert result.outcome == Outcome.LOOP
    assert len(mailoutbox) == before
    assert not Outbox.objects.filter(inbound_id=result.inbound_id).exists()
    assert_kept(accepted)


@pytest.mark.parametrize("extra", [{"Auto-Submitted": "no"},
                                   {"X-Auto-Response-Suppress": "All"}],
                         ids=["auto-submitted-no", "exchange-suppress"])
def test_a_person_is_not_a_loop(tally_game, feed, mailoutbox, extra):
    p2 = seat(tally_game, "P2")
    raw = shapes.plain("ADD 3", sender=p2.user.email, to=p2.reply_address, extra=extra)
    assert feed(raw).outcome == Outcome.ACCEPTED
    assert len(replies_to(mailoutbox, p2.user.email)) == 1


def test_mailer_daemon_bounce(tally_game, accepted, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    before = len(mailoutbox)
    raw = shapes.plain("Delivery failed\nADD 3", sender="MAILER-DAEMON@mx.example.org",
                       to=p1.reply_address)
    assert feed(raw).outcome == Outcome.LOOP
    assert len(mailoutbox) == before
    assert_kept(accepted)


def test_mail_from_our_own_address_is_not_answered(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    p1.allow_any_sender = True
    p1.save()
    before = len(mailoutbox)
    result = feed(shapes.plain("ADD 3", sender=p1.reply_address, to=p1.reply_address))
    assert result.outcome == Outcome.ACCEPTED
    assert len(mailoutbox) == before
    assert InboundMessage.objects.get(pk=result.inbound_id).reply_suppressed == "own address"


def test_reply_rate_limit_per_address(tally_game, accepted, feed, mailoutbox, settings):
    settings.GM_MAIL_REPLY_LIMIT = 3  # the fixture's acceptance was reply 1
    p1 = seat(tally_game, "P1")
    outcomes, suppressed = [], []
    for i in range(4):
        r = feed(shapes.plain(f"ADD {i + 4}", sender=p1.user.email, to=p1.reply_address))
        outcomes.append(r.outcome)
        suppressed.append(InboundMessage.objects.get(pk=r.inbound_id).reply_suppressed)
    assert outcomes == [Outcome.INVALID] * 4
    assert suppressed == ["", "", "rate limit", "rate limit"]
    assert len(replies_to(mailoutbox, p1.user.email)) == 3
    assert_kept(accepted)
    # Still processed: a good message while limited is accepted, just not answered.
    r = feed(shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))
    assert r.outcome == Outcome.ACCEPTED and r.reply_id is None
    # Another address is not limited.
    p2 = seat(tally_game, "P2")
    assert feed(shapes.plain("ADD 9", sender=p2.user.email, to=p2.reply_address)).reply_id


def test_errors_reply_lists_line_hint_accepted_part_and_rest(tally_game, accepted, feed,
                                                             mailoutbox):
    p1 = seat(tally_game, "P1")
    body = "ADD 9\nADDD 1\nADD 2\nEND\nthis is after the end\n"
    result = feed(shapes.plain(body, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.INVALID
    reply = replies_to(mailoutbox, p1.user.email)[-1]
    assert reply.subject.endswith("[orders NOT accepted: errors]")
    text = reply.body
    assert "were NOT accepted: nothing from this message was kept." in text
    assert "  line 1: ADD 9\n      ADD amount 9 is out of range\n      hint: use 1..3" in text
    assert "  line 2: ADDD 1\n      unknown order 'ADDD'\n      hint: did you mean ADD?" in text
    assert "These lines read without error" in text and "    ADD 2\n" in text
    assert (f"stay in force (version {accepted.version}):" in text
            and f"Their receipt:\n    {accepted.receipt}\n" in text)
    assert "    > this is after the end" in text
    assert_kept(accepted)


def test_reply_to_a_closed_turns_notice_is_late_not_next_turns_orders(
        tally_game, accepted, feed, mailoutbox, on_commit):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    notice_1 = Outbox.objects.get(kind="turn_opened", to=p2.user.email, turn__number=1)
    # P2's orders arrive by the web; turn 1 resolves and turn 2 opens.
    from gm.play import actions

    with on_commit():
        actions.submit_orders(tally_game, p2, "ADD 1", source="web", author=p2.user)
    assert tally_game.current_turn().number == 2
    # Now P2 answers turn 1's notice: that must not become turn 2's orders.
    result = feed(shapes.plain("ADD 3", sender=p2.user.email, to=p2.reply_address,
                               in_reply_to=notice_1.message_id))
    assert result.outcome == Outcome.LATE
    late = " ".join(replies_to(mailoutbox, p2.user.email)[-1].body.split())  # unwrapped
    assert "turn 1 closed early: every seat's orders were in" in late
    assert "Turn 2 is open now" in late
    assert not Submission.objects.filter(seat=p2, turn__number=2).exists()
    # Answering turn 2's notice works.
    notice_2 = Outbox.objects.get(kind="turn_opened", to=p2.user.email, turn__number=2)
    result = feed(shapes.plain("ADD 3", sender=p2.user.email, to=p2.reply_address,
                               in_reply_to=notice_2.message_id))
    assert result.outcome == Outcome.ACCEPTED
    record = tally_game.records.get(number=1)
    assert record.orders["P1"]["items"] == accepted.orders["items"]  # nothing lost
    assert p1.pk == accepted.seat_id
