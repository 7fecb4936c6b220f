"""A mail over the order-size limit is answered with the limit, also when no line of it
may be an order: the size is checked before greetings are read (rule 0 of
gm.mail.greetings, the rule the web form follows too), never "no orders found" with the
whole text echoed back as "not read"."""

from __future__ import annotations

import pytest

from gm.mail.models import InboundMessage, Outcome
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat
from .test_shapes_by_path import PATHS


def _text(settings) -> str:
    # words, not order words of tally: every line would be skipped as a greeting
    return ("Hi GM, a long story about my week follows.\n"
            * (settings.GM_ORDERS_MAX_CHARS // 40 + 1))


def _limit(settings) -> str:
    return f"orders can be at most {settings.GM_ORDERS_MAX_CHARS} characters"


def test_oversized_mail_without_orders_is_refused_for_its_size(tally_game, feed, mailoutbox,
                                                                settings):
    p1 = seat(tally_game, "P1")
    text = _text(settings)
    result = feed(shapes.plain(text, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.REFUSED, result.detail
    assert _limit(settings) in result.detail
    body = mailoutbox[-1].body
    assert _limit(settings) in body and "no orders" not in body.lower()
    assert "a long story" not in body and len(body) < 2000  # nothing echoed back
    assert not Submission.objects.exists()


def test_oversized_mail_below_a_quote_is_refused_for_its_size(tally_game, feed, settings):
    """The size counted is the player's text, after the quote is taken off."""
    p1 = seat(tally_game, "P1")
    text = _text(settings)
    result = feed(shapes.below_quote(text, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.REFUSED and _limit(settings) in result.detail
    # a long quote below short orders is not counted (it was, as part of the orders)
    quoted = "ADD 2\n" + "> quoted\n" * (settings.GM_ORDERS_MAX_CHARS // 9 + 1)
    result = feed(shapes.plain(quoted, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.ACCEPTED, result.detail


@pytest.mark.parametrize("path", ["pipe", "smtp"])
def test_oversized_mail_through_path(transactional_db, tally_game, client, monkeypatch,
                                     settings, path):
    p1 = seat(tally_game, "P1")
    mid = f"size-{path}@client.example"
    raw = shapes.plain(_text(settings), sender=p1.user.email, to=p1.reply_address,
                       message_id=f"<{mid}>", cte="quoted-printable")
    PATHS[path](raw, p1.reply_address, client, monkeypatch)
    row = InboundMessage.objects.get(message_id=mid)
    assert row.outcome == Outcome.REFUSED and _limit(settings) in row.detail
    assert not Submission.objects.exists()
