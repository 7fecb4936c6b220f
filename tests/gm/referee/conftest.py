"""Referee fixtures: the toy engine registered for the test, a running toy game, helpers."""

from __future__ import annotations

import pytest

from games.core import registry

from .toy_engine import ENGINE


@pytest.fixture(autouse=True)
def toy_registered():
    engines = registry.engines()
    engines[ENGINE.name] = ENGINE
    yield ENGINE
    engines.pop(ENGINE.name, None)


@pytest.fixture
def staff(make_user):
    user = make_user("referee")
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def co_gm(make_user):
    return make_user("cogm")


@pytest.fixture
def race(make_game, co_gm):
    """A started 2-seat toy race (alice = P1, bob = P2) with a co-GM."""
    game = make_game("toy_race", 2, options={"rounds": 5})
    game.co_gms.add(co_gm)
    return game


@pytest.fixture
def play_turn(on_commit):
    """play_turn(game, {"P1": "MOVE 2", ...}): submit every seat's orders (resolves)."""
    from gm.play import actions

    def run(game, orders):
        for name, text in orders.items():
            seat = game.seats.get(name=name)
            with on_commit():
                actions.submit_orders(game, seat, text)
        game.refresh_from_db()
        return game
    return run
