"""Orders on a game that has not started (issue 29): a clear 409 "the game has not
started" from the live preview, and the same words from the form and by mail, with no
traceback logged (it was a 503 "stored state cannot be read")."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from gm.mail import inbound
from gm.mail.models import InboundMessage, Outcome
from gm.play.models import Submission
from tests.gm.mail import mimeshapes as shapes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tally", "combat_dice", "dungeonquest"])
def test_preview_on_a_game_not_started_is_a_clear_409(make_game, players, caplog, ruleset):
    game = make_game(ruleset, 2, start=False)
    client = Client()
    client.force_login(players[0])
    with caplog.at_level(logging.WARNING):
        response = client.post(f"/games/{game.pk}/orders/preview.json", {"text": "ADD 1"})
    assert response.status_code == 409
    assert response.json() == {"detail": "the game has not started: orders can be written "
                                         "once its GM starts it"}
    assert not [r for r in caplog.records if r.exc_info], "no traceback for this"
    sent = client.post(f"/games/{game.pk}/orders/", {"text": "ADD 1"}, follow=True)
    assert "the game has not started" in sent.content.decode()
    assert not Submission.objects.exists()


def test_orders_by_mail_to_a_game_not_started_are_refused_in_words(make_game, players,
                                                                   settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    game = make_game("tally", 2, start=False)
    seat = game.seats.select_related("user").get(user=players[0])
    result = inbound.process(shapes.plain("ADD 1", sender=players[0].email,
                                          to=seat.reply_address))
    row = InboundMessage.objects.get(pk=result.inbound_id)
    assert row.outcome == Outcome.REFUSED, row.detail
    assert "the game has not started" in row.detail
