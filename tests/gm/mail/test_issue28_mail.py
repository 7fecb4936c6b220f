"""The mail items of issue 28, each over a real SMTP peer (tests/gm/mail/conftest.py)."""

from __future__ import annotations

import pytest

from games.core.types import Orders
from gm.mail import compose
from gm.mail.models import Outcome
from tests.gm.engines import TallyEngine

from . import mimeshapes as shapes
from .conftest import seat

pytestmark = pytest.mark.django_db(transaction=True)

LONG = ("ADD 2 IF THE OPPONENT'S TOTAL IS AT LEAST TWELVE AND MY OWN TOTAL IS STILL "
        "LOWER, hp > 3 AND NOT OTHERWISE")


def _text(message) -> str:
    return message.get_body(("plain",)).get_content()


def test_wrap_never_starts_a_continuation_with_a_quote_mark():
    for width in range(40, 90):
        line = "    " + "x" * (width - 50) + " word word word word word word word > 3 THEN GO"
        for piece in compose.wrap(line).split("\n")[1:]:
            assert not piece.lstrip().startswith(">"), (line, piece)


def test_the_receipt_echoes_long_orders_unwrapped(tally_game, feed, smtp_sink, monkeypatch):
    """Echoed orders are pasted back by players: a re-wrapped order is two lines, and a
    continuation "> 3 AND ..." reads as a quote."""
    parse = TallyEngine.parse_orders

    def long_text(self, state, seat_name, text):
        orders = parse(self, state, seat_name, text.split(" IF ")[0])
        return Orders(orders.seat, orders.items, LONG)

    monkeypatch.setattr(TallyEngine, "parse_orders", long_text)
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.ACCEPTED
    (receipt,) = smtp_sink.to(p1.user.email)
    lines = _text(receipt).splitlines()
    assert f"    {LONG}" in lines
    assert not any(line.lstrip().startswith(">") for line in lines)


def _finish(make_game, on_commit, turns: int = 2):
    from gm.play import actions

    game = make_game("tally", 2, turn_hours=48, options={"max_turns": turns})
    for _turn in range(turns):
        with on_commit():
            for name in ("P1", "P2"):
                s = seat(game, name)
                actions.submit_orders(game, s, "ADD 1", source="email", author=s.user)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def test_the_last_report_does_not_ask_for_orders(make_game, on_commit, smtp_sink):
    game = _finish(make_game, on_commit)
    p1 = seat(game, "P1")
    reports = {m["Subject"]: m for m in smtp_sink.to(p1.user.email)
               if "report for turn" in m["Subject"]}
    first, last = (reports[s] for s in sorted(reports))
    assert "Reply to this mail to send orders" in _text(first)
    assert "send orders" not in _text(last).lower()
    assert "The game is over: no more orders are taken." in _text(last)
    assert "Reply to this mail to send orders" not in last.get_body(("html",)).get_content()


def test_the_game_over_mail_says_the_result_once(make_game, on_commit, smtp_sink):
    game = _finish(make_game, on_commit)
    p1 = seat(game, "P1")
    (over,) = [m for m in smtp_sink.to(p1.user.email) if "game over" in m["Subject"]]
    text = _text(over)
    summary = game.result["summary"]
    assert text.count(summary) == 1
    for winner in game.result["winners"]:
        assert text.count(winner) == 1 or f"seat {winner}" in text, text
    assert "Winner(s)" not in text


def test_the_receipt_does_not_echo_the_quoted_notice(tally_game, feed, smtp_sink):
    p1 = seat(tally_game, "P1")
    raw = shapes.gmail("ADD 2\n\nCheers,\nAlice", sender=p1.user.email, to=p1.reply_address)
    assert feed(raw).outcome == Outcome.ACCEPTED
    (receipt,) = smtp_sink.to(p1.user.email)
    text = _text(receipt)
    not_read = text.split("Not read")[-1]
    for line in shapes.QUOTED_NOTICE.split("\n"):
        if line.strip():
            assert line.strip() not in not_read, line
    assert "wrote:" not in not_read
    assert "quoted lines of an earlier mail, not shown]" in not_read
    assert "    > Alice" in text  # the player's own words are still listed back


def test_the_date_header_is_utc_with_plus_zero(tally_game, feed, smtp_sink):
    """"-0000" says "zone unknown" (RFC 5322 3.3); our clock is UTC: "+0000"."""
    import re

    p1 = seat(tally_game, "P1")
    feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address))
    raw = b"\n".join(smtp_sink.raw)
    dates = re.findall(rb"^Date: (.+?)\r?$", raw, re.MULTILINE)
    assert dates and all(d.endswith(b" +0000") for d in dates), dates


def _late_answer(tally_game, feed, on_commit, *, orders_in_turn_2: bool):
    from gm.mail.models import Outbox
    from gm.play import actions

    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    ok = feed(shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))
    receipt = Outbox.objects.get(pk=ok.reply_id)
    with on_commit():
        actions.submit_orders(tally_game, p2, "ADD 2", source="web", author=p2.user)
    assert tally_game.current_turn().number == 2
    if orders_in_turn_2:
        actions.submit_orders(tally_game, p1, "ADD 3", source="web", author=p1.user)
    late = feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                             in_reply_to=receipt.message_id))
    assert late.outcome == Outcome.LATE
    return Outbox.objects.get(pk=late.reply_id).body_text


@pytest.mark.parametrize("orders_in_turn_2", [True, False])
def test_a_late_answer_names_the_open_turn_its_orders_and_deadline(
        tally_game, feed, on_commit, smtp_sink, orders_in_turn_2):
    from gm.mail import compose

    text = _late_answer(tally_game, feed, on_commit, orders_in_turn_2=orders_in_turn_2)
    turn = tally_game.current_turn()
    p1 = seat(tally_game, "P1")
    deadline = compose.fmt_deadline(turn.deadline, p1.user)
    assert f"Turn 2 is open now, deadline {deadline}." in " ".join(text.split())
    if orders_in_turn_2:
        assert "Your orders in for turn 2 (version 1, receipt" in text
        assert "\n    ADD 3\n" in text
    else:
        assert "You have no orders in for turn 2 yet" in text
    sent = [m for m in smtp_sink.to(p1.user.email) if "too late" in m["Subject"]]
    assert len(sent) == 1 and "Turn 2 is open now" in _text(sent[0])


@pytest.mark.parametrize("owner", [False, True])
def test_sign_up_mails_keep_to_78_columns_over_smtp(smtp_sink, make_user, owner):
    """The sign-up link (and the note to an address's owner) over SMTP: every line within
    78 columns but the link itself, alone on its line (a link cannot be broken)."""
    from django.test import Client

    address = "someone.with.a.fairly.long.address@a-mail-provider.example.org"
    if owner:
        make_user("owner", email=address)
    Client().post("/signup/", {"username": "newcomer-with-a-long-name", "email": address})
    (mail,) = smtp_sink.to(address)
    text = _text(mail)
    links = [line for line in text.splitlines() if "://" in line]
    assert links and all(" " not in line.strip() for line in links)
    wide = [line for line in text.splitlines() if len(line) > 78 and line not in links]
    assert not wide, wide


@pytest.mark.parametrize("backend, says", [
    ("django.core.mail.backends.console.EmailBackend", "in the terminal where the server"),
    ("django.core.mail.backends.filebased.EmailBackend", "as a file in /tmp/gm-mail"),
    ("django.core.mail.backends.locmem.EmailBackend", None)])
def test_locally_the_sign_up_page_says_where_the_mail_went(settings, backend, says):
    from django.test import Client

    settings.EMAIL_BACKEND, settings.EMAIL_FILE_PATH = backend, "/tmp/gm-mail"
    client = Client()
    client.post("/signup/", {"username": "newcomer", "email": "new@example.org"})
    page = client.get("/signup/sent/").content.decode()
    if says is None:
        assert 'id="local-mail"' not in page
    else:
        assert 'id="local-mail"' in page and says in page
