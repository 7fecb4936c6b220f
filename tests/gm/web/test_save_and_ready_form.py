"""The order card's "Save" and "Send and ready" (issue 28) through the web view: the
receipt line says which, the card and the waiting line show the player's own saved state
(never another seat's), and a save that must first confirm skipped lines stays a save."""

from __future__ import annotations

import html

import pytest

from gm.play.models import Submission
from gm.web.not_read import token as not_read_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_game, tally_engine):
    return make_game("tally", 2, turn_hours=48)


def _latest(game, seat="P1"):
    return Submission.objects.filter(seat__game=game, seat__name=seat).order_by(
        "-version").first()


def test_save_then_ready(game, players, client):
    client.force_login(players[0])
    page = html.unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert 'id="send-orders">Send and ready<' in page and 'id="save-orders"' in page
    saved = client.post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": 1,
                                                       "save": "1"}, follow=True)
    page = html.unescape(saved.content.decode())
    assert _latest(game).ready is False
    assert "Orders saved for turn 1 (version 1" in page and 'id="saved-state"' in page
    assert "yours (P1): saved, not ready" in page
    # bob sees alice's orders in, not whether she is ready
    client.force_login(players[1])
    other = html.unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert "orders in: P1" in other and "saved, not ready" not in other
    client.force_login(players[0])
    ready = client.post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": 1},
                        follow=True)
    page = html.unescape(ready.content.decode())
    assert _latest(game).ready is True and "sent and ready" in page
    assert 'id="ready-state"' in page and 'id="my-saved"' not in page


def test_a_save_confirming_skipped_lines_stays_a_save(game, players, client):
    client.force_login(players[0])
    text = "Hi GM,\nADD 2"
    ask = client.post(f"/games/{game.pk}/orders/", {"text": text, "turn": 1, "save": "1"})
    page = html.unescape(ask.content.decode())
    assert 'id="confirm-send" name="save" value="1">Save, leaving out' in page
    client.post(f"/games/{game.pk}/orders/", {"text": text, "turn": 1, "save": "1",
                                              "confirm_not_read": not_read_token(["Hi GM,"])})
    assert _latest(game).ready is False


def test_no_save_button_when_the_game_waits_for_the_deadline(make_game, tally_engine,
                                                             players, client):
    game = make_game("tally", 2, process_early=False)
    client.force_login(players[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="send-orders"' in page and 'id="save-orders"' not in page


def test_others_see_that_not_all_are_ready_naming_nobody(game, players, client):
    from gm.play import actions

    actions.submit_orders(game, game.seat_of(players[0]), "ADD 2", ready=False)
    actions.submit_orders(game, game.seat_of(players[1]), "ADD 1")
    client.force_login(players[1])
    page = html.unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert 'id="not-all-ready"' in page and "not all ready yet" in page
    assert "saved, not ready" not in page
