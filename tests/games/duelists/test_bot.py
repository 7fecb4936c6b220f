"""The Duelists seat bot: legal, blind to hidden state, deterministic, better than random."""

from __future__ import annotations

from games.core.botmatch import bot_vs_random
from games.core.bots import bot_text
from games.duelists.engine import ENGINE

from ..botcheck import beats_random, check_bot, walk


def test_bot_orders_legal_and_blind_to_hidden_state():
    seen = check_bot(ENGINE, range(40))
    assert seen["decisions"] > 300 and seen["perturbed"] > 300


def test_bot_deterministic_in_its_seed():
    differs = False
    for state, seats, _ in walk(ENGINE, 5, max_turns=30):
        for seat in seats:
            a = bot_text(ENGINE, state, seat, "a")
            assert a == bot_text(ENGINE, state, seat, "a")
            differs |= a != bot_text(ENGINE, state, seat, "b")
    assert differs  # the seed does choose (bluffed dice, guess order)


def test_bot_beats_random():
    result = bot_vs_random(ENGINE, 30, seed="test")
    assert beats_random(result.scores, 0.25), result.line("duelists")
