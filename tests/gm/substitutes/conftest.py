"""Substitute fixtures: a running tally game (alice P1, bob P2), volunteers, signal taps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.play import actions, signals
from gm.play.models import Game, Turn


@pytest.fixture(autouse=True)
def mail_site(settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    settings.SITE_URL = "http://gm.example"
    return settings


@pytest.fixture
def tally(make_game):
    return make_game("tally", 2, turn_hours=48, options={"max_turns": 10, "target": 100})


@pytest.fixture
def notables():
    """Every gm.play.signals.notable sent during the test, as dicts."""
    got: list[dict] = []

    def tap(sender, **kwargs):
        got.append(kwargs)

    signals.notable.connect(tap, dispatch_uid="test_substitutes_tap")
    yield got
    signals.notable.disconnect(dispatch_uid="test_substitutes_tap")


@pytest.fixture
def miss(on_commit):
    """miss(game, {"P1": "ADD 2"}): the seats named send orders, the deadline passes,
    the others get default orders (a miss)."""
    def run(game, orders):
        turn = game.current_turn()
        with on_commit():
            for name, text in orders.items():
                actions.submit_orders(game, game.seats.get(name=name), text)
        turn = Turn.objects.get(pk=turn.pk)
        if turn.status == Turn.Status.OPEN:
            with on_commit():
                actions.sweep_deadlines(turn.deadline + timedelta(seconds=1))
        return Game.objects.get(pk=game.pk)
    return run


def hours_left(game) -> float:
    turn = game.current_turn()
    return (turn.deadline - timezone.now()).total_seconds() / 3600
