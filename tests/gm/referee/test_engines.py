"""Rerun, rollback and verify over every registered engine, through the registry only."""

import random

import pytest

from games.core import registry
from games.core.verify import verify_record
from gm.play import actions as play
from gm.referee import actions

ENGINES = sorted(name for name in registry.engines() if name != "toy_race")


def play_some(game, on_commit, turns: int, seed: int = 7):
    """Play up to `turns` turns with the engine's random legal orders; return their texts."""
    engine = registry.get(game.ruleset)
    rnd = random.Random(seed)
    texts = []
    for _ in range(turns):
        game.refresh_from_db()
        turn = game.current_turn()
        if turn is None or game.status != "running" or turn.status != "open":
            break
        state = engine.from_json(game.state)
        orders = {seat: engine.random_orders(state, seat, lambda seq: rnd.choice(list(seq)))
                  for seat in turn.owing}
        texts.append(orders)
        for seat, text in orders.items():
            with on_commit():
                play.submit_orders(game, game.seats.get(name=seat), text)
    game.refresh_from_db()
    return texts


def hashes(game):
    return [r.after_hash for r in game.records.filter(superseded=False).order_by("number")]


@pytest.mark.parametrize("ruleset", ENGINES)
def test_rerun_and_rollback_reproduce_hashes(ruleset, make_game, gm_user, on_commit):
    engine = registry.get(ruleset)
    for seed in range(20):  # a game that is still running after three turns
        game = make_game(ruleset, engine.min_seats)
        texts = play_some(game, on_commit, 3, seed)
        if game.status == "running":
            break
    assert game.status == "running"
    before = hashes(game)
    assert len(before) >= 2, "the engine should last at least two turns"
    with on_commit():
        actions.rerun_from(game, gm_user, "same again", 1)
    game.refresh_from_db()
    assert hashes(game)[:len(before)] == before
    with on_commit():
        actions.rollback_to(game, gm_user, "again from 2", 2)
    game.refresh_from_db()
    assert hashes(game) == before[:1]
    for orders in texts[1:]:
        for seat, text in orders.items():
            with on_commit():
                play.submit_orders(game, game.seats.get(name=seat), text)
    game.refresh_from_db()
    assert hashes(game)[:len(before)] == before
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error
