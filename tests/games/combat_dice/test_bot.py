"""The Combat Dice seat bot: legal, blind to hidden state, deterministic, better than random."""

from __future__ import annotations

from games.combat_dice.engine import ENGINE
from games.core.botmatch import bot_vs_random
from games.core.bots import bot_text
from games.core.replay import run_setup, secret_rng

from ..botcheck import beats_random, check_bot


def test_bot_orders_legal_and_blind_to_hidden_state():
    seen = check_bot(ENGINE, range(40))
    assert seen["decisions"] > 300 and seen["perturbed"] > 300


def test_bot_orders_legal_when_asked_to_reroll():
    seen = check_bot(ENGINE, range(40, 70), options={"reroll": "ask",
                                                     "combatants": "advanced"})
    assert seen["decisions"] > 100


def test_bot_deterministic_in_its_seed():
    state = run_setup(ENGINE, ["P1", "P2"], ENGINE.new_game_options({"combatants": "advanced"}),
                      secret_rng("x" * 64, None)).state
    texts = {bot_text(ENGINE, state, "P1", f"seed{i}") for i in range(12)}
    assert all(bot_text(ENGINE, state, "P1", "seed0") == bot_text(ENGINE, state, "P1", "seed0")
               for _ in range(3))
    assert len(texts) > 1  # the seed does choose (the specialty dice's rotation)


def test_bot_beats_random():
    result = bot_vs_random(ENGINE, 30, seed="test")
    assert beats_random(result.scores, 0.3), result.line("combat_dice")
