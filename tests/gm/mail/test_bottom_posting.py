"""Replies written below the quote (bottom-posting) and interleaved replies: the quote the
mail starts with is skipped, the first unquoted block after it is read, and a later quote
ends the orders (README, "Playing", Email). Through the pipeline, `ingest_email` and the
real SMTP listener."""

from __future__ import annotations

import functools

import pytest

from gm.mail.bodytext import leading_quote, strip_reply
from gm.mail.models import InboundMessage, Outcome
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat
from .test_shapes_by_path import PATHS

ORDERS = "Hi GM,\nADD 3\nCheers"

BELOW = {
    "thunderbird-plain": shapes.thunderbird_plain_below,
    "mutt-flowed": shapes.mutt,
    "apple-mail": shapes.apple_mail_below,
    **{f"attribution-{key}": functools.partial(shapes.below_quote, attribution=key)
       for key in shapes.ATTRIBUTIONS},
    "crlf-8bit": lambda orders, **kw: shapes.below_quote(orders, cte="8bit", crlf=True, **kw),
    "crlf-base64": lambda orders, **kw: shapes.below_quote(orders, cte="base64", crlf=True,
                                                          **kw),
    "latin1-qp": lambda orders, **kw: shapes.below_quote(
        orders.replace("Cheers", "À bientôt"), attribution="gmail-fr", charset="iso-8859-1",
        **kw),
}


def _items(game, name):
    sub = Submission.objects.filter(seat__game=game, seat__name=name).order_by(
        "-version").first()
    return sub.orders["items"] if sub is not None else None


@pytest.mark.parametrize("shape", list(BELOW))
def test_reply_below_the_quote_is_read(tally_game, feed, mailoutbox, shape):
    p1 = seat(tally_game, "P1")
    raw = BELOW[shape](ORDERS, sender=p1.user.email, to=p1.reply_address)
    result = feed(raw)
    assert result.outcome == Outcome.ACCEPTED, result.detail
    assert _items(tally_game, "P1") == [{"order": {"op": "add", "n": 3}}]
    reply = mailoutbox[-1].body
    assert "    ADD 3\n" in reply
    # the greeting and sign-off are listed back; the quote of our own notice is counted
    # as not read, not echoed back line by line (issue 28)
    assert "    > Hi GM,\n" in reply
    assert "Not read (after END, your signature, quoted or forwarded text)" in reply
    not_read = reply.split("Not read (after END")[1]
    assert "quoted lines of an earlier mail, not shown]" in not_read
    assert "Example: ADD 2" not in not_read and "wrote:" not in not_read


@pytest.mark.parametrize("shape", ["thunderbird-plain", "mutt-flowed", "apple-mail",
                                   "attribution-gmail-de", "crlf-8bit"])
@pytest.mark.parametrize("path", ["pipe", "smtp"])
def test_reply_below_the_quote_through_path(transactional_db, tally_game, client, monkeypatch,
                                            shape, path):
    p1 = seat(tally_game, "P1")
    mid = f"below-{shape}-{path}@client.example"
    raw = BELOW[shape](ORDERS, sender=p1.user.email, to=p1.reply_address,
                       message_id=f"<{mid}>")
    PATHS[path](raw, p1.reply_address, client, monkeypatch)
    row = InboundMessage.objects.get(message_id=mid)
    assert row.outcome == Outcome.ACCEPTED, row.detail
    assert _items(tally_game, "P1") == [{"order": {"op": "add", "n": 3}}]


INTERLEAVED = ("On Tue, 1 Dec 2026 at 14:00, GM <play+abc@gm.example> wrote:\n"
               "> Test combat_dice (game 1), turn 1 is open.\n> You play seat P1.\n\n"
               "ADD 3\n\n> Example: ADD 2\n\nADD 1 is what I meant above, not 2\n")


def test_interleaved_reply_reads_the_first_block_and_stops_at_the_next_quote(
        tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain(INTERLEAVED, sender=p1.user.email, to=p1.reply_address,
                               cte="quoted-printable"))
    assert result.outcome == Outcome.ACCEPTED, result.detail
    assert _items(tally_game, "P1") == [{"order": {"op": "add", "n": 3}}]
    reply = mailoutbox[-1].body
    not_read = reply.split("Not read (after END, your signature, quoted or forwarded text)")[1]
    # the player's own words after the second quote are listed back; the quotes of our
    # notice (and its "On ... wrote:" line) only counted (issue 28)
    assert "    > ADD 1 is what I meant above, not 2\n" in not_read
    assert "[3 quoted lines of an earlier mail, not shown]" in not_read
    assert "Example: ADD 2" not in not_read and "You play seat P1." not in not_read
    assert "wrote:" not in not_read


@pytest.mark.parametrize("path", ["pipe", "smtp"])
def test_interleaved_reply_through_path(transactional_db, tally_game, client, monkeypatch,
                                        path):
    p1 = seat(tally_game, "P1")
    mid = f"interleaved-{path}@client.example"
    raw = shapes.plain(INTERLEAVED.replace("\n", "\r\n"), sender=p1.user.email,
                       to=p1.reply_address, message_id=f"<{mid}>", cte="8bit")
    PATHS[path](raw, p1.reply_address, client, monkeypatch)
    assert InboundMessage.objects.get(message_id=mid).outcome == Outcome.ACCEPTED
    assert _items(tally_game, "P1") == [{"order": {"op": "add", "n": 3}}]


def test_only_a_quote_is_no_orders_and_is_listed_back(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    body = "On Tue, 1 Dec 2026 at 14:00, GM wrote:\n> Example: ADD 2\n"
    result = feed(shapes.plain(body, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.EMPTY
    assert "> Example: ADD 2" in mailoutbox[-1].body


@pytest.mark.parametrize("text, orders", [
    # top-posting is untouched
    ("ADD 3\n\nOn Tue, 1 Dec 2026, GM wrote:\n> ADD 2\n", "ADD 3"),
    ("ADD 3\n> ADD 2\n", "ADD 3"),  # where order_lines stopped already
    # a line ending in ':' that is no attribution does not hide what follows it
    ("Here are my orders:\n> not a quote of ours\nADD 3\n", "Here are my orders:"),
    # leading blank lines, a blank line between attribution and quote, blanks in the quote
    ("\n\nOn Tue, 1 Dec 2026, GM wrote:\n\n> a\n>\n> b\n\n\nADD 3\n", "ADD 3"),
    # the quote with the signature separator inside it, and the player's own signature
    ("> a\n> -- \n> GM\nADD 3\n-- \nDave", "ADD 3"),
    # a later attribution and quote ends the orders
    ("> a\nADD 3\nOn Mon, GM wrote:\n> b\nADD 1", "ADD 3"),
    # an attribution glued to the last order (no blank line between): a top-posted
    # reply, read above it, whether the attribution is one line or wrapped
    ("ADD 3\nADD 1\nOn Tue, 1 Dec 2026 at 10:00, GM <play+abc@gm.example> wrote:\n> ADD 2\n",
     "ADD 3\nADD 1"),
    ("ADD 3\nOn Tue, 1 Dec 2026, 10:00 GM, <\nplay+abc@gm.example> wrote:\n\n> ADD 2\n",
     "ADD 3"),
    ("\nADD 3\nOn Tue, 1 Dec 2026 at 10:00, GM wrote:\n> ADD 2\n", "ADD 3"),
    ("ADD 3\nAm Di., 1. Dez. 2026 um 10:00 Uhr schrieb GM <play+abc@gm.example>:\n> ADD 2",
     "ADD 3"),
    ("ADD 3\nwt., 1 gru 2026 o 10:00 GM <play+abc@gm.example> napisał(a):\n> ADD 2", "ADD 3"),
    ("a\nb\nADD 3\nOn Tue, GM wrote:\n> ADD 2", "a\nb\nADD 3"),  # more than 3 lines above
])
def test_strip_reply_rule(text, orders):
    assert strip_reply(text).orders == orders


def test_forward_after_a_leading_quote_is_still_a_forward():
    stripped = strip_reply("> a\n\nADD 3\n\n---------- Forwarded message ---------\nADD 1")
    assert stripped.orders == "ADD 3" and stripped.forwarded
    assert strip_reply("Begin forwarded message:\n\n> From: GM\n\nADD 3").orders == ""


def test_press_keeps_interleaved_answers():
    """Press replies drop quoted lines themselves; their later text is not cut."""
    text = "> q1\na1\n> q2\na2"
    assert strip_reply(text, later_quote_ends=False).orders == "a1\n> q2\na2"


def test_leading_quote_counts_lines():
    assert leading_quote(["ADD 3"]) == 0
    assert leading_quote(["> a", "", "ADD 3"]) == 2
    assert leading_quote(["Wrote this:", "ADD 3"]) == 0
    assert leading_quote(["On x,", "GM <a@b>", "wrote:", "> a", "x"]) == 4
    assert leading_quote(["a", "b", "c", "On x wrote:", "> a", "x"]) == 0  # only 3 lines
    assert leading_quote(["ADD 3", "On x wrote:", "> a"]) == 0  # orders glued above it
    assert leading_quote(["ADD 3", "On x, GM <", "a@b.example> wrote:", "> a"]) == 0
    assert leading_quote(["* GM <a@b.example> [2026-12-01 10:00]:", "> a", "ADD 3"]) == 2
