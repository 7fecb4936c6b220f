"""The Dice Age seat bot: legal at every level 1-7, blind to hidden state (standing
orders, Generals and reserves), deterministic, better than random."""

from __future__ import annotations

import pytest

from games.core.botmatch import bot_vs_random
from games.core.bots import bot_text
from games.dice_age.engine import ENGINE

from ..botcheck import beats_random, check_bot, walk


@pytest.mark.parametrize("level", range(1, 8))
def test_bot_orders_legal_and_blind_to_hidden_state(level):
    seen = check_bot(ENGINE, range(level * 100, level * 100 + 6), options={"level": level},
                     max_turns=150)
    assert seen["decisions"] > 60 and seen["perturbed"] > 60


def test_bot_deterministic_in_its_seed():
    differs = False
    for state, seats, _ in walk(ENGINE, 7, options={"level": 1}, max_turns=40):
        for seat in seats:
            a = bot_text(ENGINE, state, seat, "a")
            assert a == bot_text(ENGINE, state, seat, "a")
            differs |= a != bot_text(ENGINE, state, seat, "b")
    assert differs  # the seed breaks ties between equally good dice


def test_bot_beats_random():
    result = bot_vs_random(ENGINE, 28, options_for=lambda i: {"level": 1 + i % 7},
                           seed="test")
    assert beats_random(result.scores, 0.25), result.line("dice_age")
