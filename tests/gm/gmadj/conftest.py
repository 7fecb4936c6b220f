"""A three-seat GM-adjudicated game, started, its seats named by the GM."""

from __future__ import annotations

import pytest

SEATS = "France, England, Germany"


@pytest.fixture
def adj_game(make_game):
    def make(**options):
        opts = {"seats": SEATS, **options}
        return make_game("gm_adjudicated", 3, options=opts, turn_hours=24)
    return make


@pytest.fixture
def send_all(on_commit):
    """Each seat of `game` sends `texts[seat]` for the open turn."""
    def send(game, texts):
        from gm.play import actions
        with on_commit():
            for seat in game.seats.filter(name__in=list(texts)):
                actions.submit_orders(game, seat, texts[seat.name])
        game.refresh_from_db()
        return game
    return send
