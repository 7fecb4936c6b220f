"""The Duel of Ages seat bot: legal on every map (the build included), blind to hidden
state (unrevealed cards, the decks, face-down guardians, the enemy's standing orders and
roster before the reveal), deterministic, better than random."""

from __future__ import annotations

import pytest

from games.core.botmatch import bot_vs_random
from games.core.bots import bot_text
from games.duel_of_ages.engine import ENGINE

from ..botcheck import beats_random, check_bot, walk


@pytest.mark.parametrize("board", ["skirmish", "standard", "build"])
def test_bot_orders_legal_and_blind_to_hidden_state(board):
    seen = check_bot(ENGINE, range(4), options={"map": board}, max_turns=60)
    assert seen["decisions"] > 40 and seen["perturbed"] > 40


def test_bot_deterministic_in_its_seed():
    """The same seed, the same orders (the seed only breaks ties between equally
    wounded targets, so two seeds mostly agree)."""
    for seed in range(3):
        for state, seats, _ in walk(ENGINE, seed, options={"map": "skirmish"}, max_turns=40):
            for seat in seats:
                assert bot_text(ENGINE, state, seat, "a") == bot_text(ENGINE, state, seat, "a")


def test_bot_beats_random():
    result = bot_vs_random(ENGINE, 30, options={"map": "skirmish"}, seed="test")
    assert beats_random(result.scores, 0.3), result.line("duel_of_ages")
