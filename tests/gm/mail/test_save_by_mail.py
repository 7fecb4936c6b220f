"""Orders by mail may be saved, not ready: a first line "SAVE" does what the web form's
Save button does. They count at the deadline, the turn does not close early for them,
and the receipt says so; the same orders sent without SAVE close it."""

from __future__ import annotations

import pytest

from gm.mail.models import Outcome
from gm.play.models import Submission, Turn

from . import mimeshapes as shapes
from .conftest import seat
from .test_answers import answers

pytestmark = pytest.mark.django_db


def test_save_line_keeps_the_turn_open_and_ready_closes_it(tally_game, feed, mailoutbox,
                                                           on_commit):
    from gm.play import actions

    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    with on_commit():
        actions.submit_orders(tally_game, p1, "ADD 1")
    turn = tally_game.current_turn()
    result = feed(shapes.plain("Save\nADD 2", sender=p2.user.email, to=p2.reply_address))
    assert result.outcome == Outcome.ACCEPTED, result.detail
    saved = Submission.objects.filter(turn=turn, seat=p2).latest("version")
    assert saved.ready is False and saved.text == "ADD 2"  # the SAVE line is not an order
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN  # all in, not all ready
    reply = answers(mailoutbox, p2.user.email)[-1]
    assert "Saved, not ready (your first line was SAVE)" in reply.body
    assert "    ADD 2" in reply.body and "Not read" not in reply.body

    result = feed(shapes.plain("ADD 2", sender=p2.user.email, to=p2.reply_address))
    assert result.outcome == Outcome.ACCEPTED, result.detail
    assert Submission.objects.filter(turn=turn, seat=p2).latest("version").ready is True
    assert Turn.objects.get(pk=turn.pk).status != Turn.Status.OPEN  # closed early
    assert "Saved, not ready" not in answers(mailoutbox, p2.user.email)[-1].body
