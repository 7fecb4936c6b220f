"""Golden report files: a fixed bot duel narrated to each reader.

Regenerate after a deliberate wording change with UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.replay import secret_rng
from games.core.rng import Rng
from games.duelists.engine import ENGINE
from tests.games.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden"
SECRET = "c0ffee" * 10
TURNS = 14


def duel_reports() -> dict[str, str]:
    bot_rng = Rng("golden-bots", "bots")

    def pick(seq):
        items = list(seq)
        return items[bot_rng.below("pick", len(items))]

    state, events = ENGINE.setup(["P1", "P2"], {}, secret_rng(SECRET, None))
    out = {v: [f"# Setup\n\n{ENGINE.report(events, v)}"] for v in ("P1", "P2", "public")}
    for number in range(1, TURNS + 1):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        orders = {}
        for seat in decision.seats:
            if number % 5 == 0 and seat == "P2":
                orders[seat] = ENGINE.default_orders(state, seat)
            elif number % 4 == 0:
                orders[seat] = ENGINE.parse_orders(state, seat,
                                                   ENGINE.random_orders(state, seat, pick))
            else:
                orders[seat] = ENGINE.parse_orders(state, seat,
                                                   ENGINE.bot_orders(state, seat, pick))
        state, events = ENGINE.resolve(state, orders, secret_rng(SECRET, number))
        for viewer in ("P1", "P2", "public"):
            text = ENGINE.report(events, None if viewer == "public" else viewer)
            out[viewer].append(f"# Report {number}\n\n{text}")
    return {v: "\n".join(parts) for v, parts in out.items()}


@pytest.mark.parametrize("viewer", ["P1", "P2", "public"])
def test_reports_match_the_golden_files(viewer):
    text = duel_reports()[viewer]
    assert_golden(GOLDEN / f"duel_{viewer}.md", text)


def test_public_report_names_no_hidden_card():
    reports = duel_reports()
    assert "draws (opening hand):" not in reports["public"]
    assert "plans **" not in reports["public"]
    assert "queues, left to right" not in reports["public"]
