"""The simulate command, and golden reports of bot games at levels 5, 6 and 7.

The golden games are played by the simulate bot from fixed seeds, so every rule the
bots happen to touch is narrated; regenerate with UPDATE_GOLDEN=1 after a deliberate
wording change and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.replay import secret_rng
from games.core.rng import Rng
from games.dice_age import simulate
from games.dice_age.engine import ENGINE
from tests.games.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("level", range(1, 8))
def test_simulate_counts_length_first_player_effects_and_reactions(level, capsys):
    out = simulate.run(level, 6, seed=3)
    assert out["games"] == 6 and 0 <= out["first_wins"] <= 6 and out["mean_rolls"] > 0
    if level >= 5:
        assert sum(out["effects"].values()) > 0
    simulate.main(["--level", str(level), "--games", "2"])
    printed = capsys.readouterr().out
    assert "first player wins" in printed and "reactions used" in printed


def _bot_game(level: int, seed: str, turns: int) -> list[tuple[str, str]]:
    bot = Rng(f"bots-{seed}", "bots")

    def pick(seq):
        items = list(seq)
        return items[bot.below("pick", len(items))]

    state, events = ENGINE.setup(["P1", "P2", "P3"], ENGINE.new_game_options({"level": level}),
                                 secret_rng(f"golden-{seed}", None))
    out = [(ENGINE.report(events, None), ENGINE.report(events, "P1"))]
    for number in range(1, turns + 1):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        orders = {s: ENGINE.parse_orders(state, s, ENGINE.bot_orders(state, s, pick))
                  for s in decision.seats}
        state, events = ENGINE.resolve(state, orders, secret_rng(f"golden-{seed}", number))
        assert ENGINE.invariants(state) == []
        out.append((ENGINE.report(events, None), ENGINE.report(events, "P1")))
    return out


@pytest.mark.parametrize("level", [5, 6, 7])
@pytest.mark.parametrize("viewer", ["public", "P1"])
def test_golden_reports(level, viewer):
    reports = _bot_game(level, f"L{level}", 60)
    text = "".join(f"## Turn {i}\n\n{pub if viewer == 'public' else mine}\n"
                   for i, (pub, mine) in enumerate(reports))
    assert_golden(GOLDEN / f"level{level}-{viewer}.md", text)
