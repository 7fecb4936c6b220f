"""POST orders with `"ready": false` (issue 28): saved, not ready; the receipt says which,
and the turn waits for a ready version before it closes early."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from gm.accounts import tokens
from gm.play.models import Game

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    _token, key = tokens.issue(user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_saved_orders_wait_and_ready_ones_close_the_turn(make_game, players,
                                                         django_capture_on_commit_callbacks):
    game = make_game("tally", 2)
    alice, bob = _client(players[0]), _client(players[1])
    url = f"/api/games/{game.pk}/orders/"
    with django_capture_on_commit_callbacks(execute=True):
        first = alice.post(url, {"text": "ADD 2"}, format="json")  # ready by default
        saved = bob.post(url, {"text": "ADD 1", "ready": False}, format="json")
    assert first.status_code == 201 and first.json()["ready"] is True
    assert saved.status_code == 201 and saved.json()["ready"] is False
    assert bob.get(url).json()["ready"] is False
    assert Game.objects.get(pk=game.pk).current_turn().number == 1  # waits for bob
    bad = bob.post(url, {"text": "ADD 1", "ready": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["message"].startswith("ready:")
    with django_capture_on_commit_callbacks(execute=True):
        ready = bob.post(url, {"text": "ADD 1", "ready": True}, format="json")
    assert ready.status_code == 201 and ready.json()["ready"] is True
    assert Game.objects.get(pk=game.pk).current_turn().number == 2
