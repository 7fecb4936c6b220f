"""Outgoing mail as a mail client receives it over SMTP: the bytes on the wire, parsed as
a client would, for every kind a player gets (turn notice, receipt, refusal, report, game
over): headers, threading per game, encodings, the 72-column text part and a safe HTML
part."""

from __future__ import annotations

import re
from email import message_from_bytes, policy

import pytest

from gm.mail import inbound
from gm.mail.mime import Envelope
from gm.mail.models import Kind, Outbox
from gm.play import actions

from . import mimeshapes as shapes
from .conftest import seat

pytestmark = pytest.mark.django_db

TITLE = 'Duel at the “Bridge” <script>alert(1)</script> & <a href="http://evil.example">co</a>'


def _play(make_game, on_commit, play_defaults, title=TITLE):
    game = make_game("combat_dice", 2, title=title)
    p1 = seat(game, "P1")
    with on_commit():
        inbound.process(shapes.plain("EQUIP SWORDD", sender=p1.user.email,
                                     to=p1.reply_address, subject="Re: Zügе für Runde 1",
                                     message_id="<bad@client.example>"),
                        envelope=Envelope([p1.reply_address], p1.user.email))
        inbound.process(shapes.plain("EQUIP SWORD", sender=p1.user.email,
                                     to=p1.reply_address, subject="Re: Zügе für Runde 1",
                                     message_id="<good@client.example>",
                                     in_reply_to="<elsewhere@client.example>"),
                        envelope=Envelope([p1.reply_address], p1.user.email))
    play_defaults(game)
    return game, p1


def _received(sink, to):
    """(raw bytes, parsed message, outbox row) of every mail `to` got, in order."""
    out = []
    for raw, (_from, rcpts, msg) in zip(sink.raw, sink.messages):
        if to in rcpts:
            row = Outbox.objects.get(message_id=msg["Message-ID"])
            out.append((raw, message_from_bytes(raw, policy=policy.default), row))
    return out


def test_every_kind_on_the_wire(make_game, on_commit, play_defaults, smtp_sink):
    game, p1 = _play(make_game, on_commit, play_defaults)
    got = _received(smtp_sink, p1.user.email)
    kinds = [row.kind for _raw, _msg, row in got]
    assert {Kind.TURN_OPENED, Kind.RECEIPT, Kind.REPORT} <= set(kinds), kinds
    for raw, msg, row in got:
        head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")  # headers are 7-bit
        # encoded words decode to the subject (folded before the first one: the parser
        # keeps that fold's space, clients do not show it)
        assert msg["Subject"].lstrip() == row.subject
        assert re.fullmatch(r"<[^<>@\s]+@gm\.example>", msg["Message-ID"])
        assert msg["From"] == "gm@gm.example" and msg["To"] == p1.user.email
        assert msg["Reply-To"] == p1.reply_address
        assert msg["X-Auto-Response-Suppress"] == "All"
        unsubscribe = msg.get("List-Unsubscribe")
        if unsubscribe is not None:  # one <https?://...> as RFC 2369 has it, no encoded word
            assert re.fullmatch(r"<http://gm\.example/mail/unsubscribe/\S+/>", unsubscribe.strip())
            assert "List-Unsubscribe: =?" not in head and "List-Unsubscribe:  =?" not in head
        text = msg.get_body(("plain",))
        assert text.get_content_charset() == "utf-8"
        body = text.get_content()
        assert "“Bridge”" in body  # UTF-8 text, read back as written
        if row.kind == Kind.RECEIPT:
            assert msg["Auto-Submitted"] == "auto-replied"
            assert msg.get_content_type() == "text/plain"
            assert msg["In-Reply-To"] in ("<bad@client.example>", "<good@client.example>")
            assert msg["In-Reply-To"] in msg["References"]
            assert msg["Subject"].lstrip().startswith("Re: Zügе für Runde 1 [")
            assert "List-Id" not in msg
        else:
            assert msg["Auto-Submitted"] == "auto-generated"
            assert msg["List-Id"] == f'"game {game.pk}" <game-{game.pk}.gm.example>'
            assert msg["In-Reply-To"] == msg["References"] == f"<game-{game.pk}@gm.example>"
        if row.kind == Kind.REPORT:
            assert msg.get_content_type() == "multipart/alternative"
            html = msg.get_body(("html",)).get_content()
            # the title's markup is shown as the text it is, never run or linked
            assert "<script" not in html.lower() and '<a href="http://evil.example"' not in html
            assert "&lt;a href=" in html and 'href="http://evil.example">co</a>: turn 1' in body
            wide = [line for line in body.splitlines() if len(line) > 72 and " " in line]
            assert all("  " in line for line in wide), wide  # only tables are wider
        else:  # within 72 columns; only a link longer than that stands alone on its line
            assert all(len(line) <= 72 or " " not in line.strip()
                       for line in body.splitlines()), body


def test_notices_thread_per_game_and_a_reply_to_one_still_names_its_turn(
        make_game, on_commit, play_defaults, smtp_sink, mailoutbox):
    one, p1 = _play(make_game, on_commit, play_defaults, title="Bridge")
    other = make_game("combat_dice", 2, title="Ford")
    roots = {row.headers.get("References") for row in Outbox.objects.filter(
        turn__game=one).exclude(kind=Kind.RECEIPT)}
    assert roots == {f"<game-{one.pk}@gm.example>"}
    assert Outbox.objects.filter(turn__game=other, kind=Kind.TURN_OPENED).first().headers[
        "References"] == f"<game-{other.pk}@gm.example>"
    assert Outbox.objects.filter(kind=Kind.TURN_OPENED, turn__game=one).first().headers[
        "List-Id"] == f'"Bridge" <game-{one.pk}.gm.example>'
    # a client's reply to turn 1's notice: References = the root, then the notice
    notice = Outbox.objects.filter(kind=Kind.TURN_OPENED, turn__game=one, turn__number=1,
                                   user=p1.user).get()
    assert actions.engine_for(one) and one.current_turn().number == 2
    raw = shapes.plain("EQUIP SWORD", sender=p1.user.email, to=p1.reply_address,
                       message_id="<late@client.example>", in_reply_to=notice.message_id,
                       extra={"References": f"<game-{one.pk}@gm.example> "
                                            f"{notice.message_id}"})
    del_refs = raw.replace(f"References: {notice.message_id}\n".encode(), b"", 1)
    with on_commit():
        result = inbound.process(del_refs, envelope=Envelope([p1.reply_address],
                                                             p1.user.email))
    assert result.outcome == "late", result.detail
