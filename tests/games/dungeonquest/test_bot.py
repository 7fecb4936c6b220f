"""The Dungeonquest seat bot: legal, blind to hidden state (the tile bag, the decks, the
ring pool, the hoard, the dragon counters), deterministic, better than random; and the
bot has its own module, which neither imports the engine nor the simulator."""

from __future__ import annotations

import ast
from pathlib import Path

from games.core.botmatch import bot_vs_random
from games.core.bots import bot_text
from games.dungeonquest import bot
from games.dungeonquest.engine import ENGINE
from games.dungeonquest.simulate import bot_orders, race_score

from ..botcheck import beats_random, check_bot, sign_p, walk


def test_bot_orders_legal_and_blind_to_hidden_state():
    seen = check_bot(ENGINE, range(12), max_turns=40)
    assert seen["decisions"] > 200 and seen["perturbed"] > 200


def test_bot_orders_legal_with_heroes_assigned_and_four_heroes():
    seen = check_bot(ENGINE, range(12, 16), count=4, options={"hero_choice": "assigned"},
                     max_turns=30, perturbations=1)
    assert seen["decisions"] > 100


def test_bot_deterministic_in_its_seed():
    for state, seats, _ in walk(ENGINE, 3, max_turns=30):
        for seat in seats:
            assert bot_text(ENGINE, state, seat, "a") == bot_text(ENGINE, state, seat, "a")


def test_the_seat_bot_reads_the_view_as_the_balance_bot_reads_the_state():
    """One player in two uses: from the view (the seat bot's table) the balance plan
    gives exactly the orders it gives from the state."""
    checked = 0
    for state, seats, _ in walk(ENGINE, 11, max_turns=40):
        if state.get("picking"):
            continue
        for seat in seats:
            table = bot.table_from_view(ENGINE.view(state, seat), seat)
            assert bot.bot_orders(table, seat) == bot_orders(state, seat)
            checked += 1
    assert checked > 20


def test_the_bot_module_imports_neither_engine_nor_simulator():
    """Issue 30: engine.py imported simulate.py for its bot, simulate.py the engine, and
    rules/heroes.py the engine: the bot now lives in bot.py, which both use."""
    root = Path(bot.__file__).parent
    for path in [root / "bot.py", *sorted((root / "rules").glob("*.py"))]:
        ours = [n.module or "" for n in ast.walk(ast.parse(path.read_text()))
                if isinstance(n, ast.ImportFrom)
                and (n.level or (n.module or "").startswith("games.dungeonquest"))]
        assert not any(m.split(".")[-1] in ("engine", "simulate") for m in ours), path


def test_bot_beats_random():
    """Most games are drawn (both heroes carry nothing out), so the decided ones are
    judged too: a bot no better than random would win this many of them about once in
    a thousand runs."""
    result = bot_vs_random(ENGINE, 100, seed="test", score=race_score)
    assert beats_random(result.scores, 0.1), result.line("dungeonquest")
    assert sign_p(result.wins, result.losses) < 0.001, result.line("dungeonquest")
