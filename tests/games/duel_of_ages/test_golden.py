"""Golden report files: a fixed random skirmish narrated to each reader.

Played as the service plays (run_setup/run_turn: each turn's state with sorted keys), so
the files read as the games the service stores, by the current rules revision (as a new
game starts).

Regenerate after a deliberate wording change with UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.replay import run_setup, run_turn, secret_rng
from games.core.rng import Rng
from games.duel_of_ages.engine import ENGINE
from tests.games.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden"
SECRET = "d0a" * 20
TURNS = 16
VIEWERS = ("North", "South", "public")


def skirmish_reports(options: dict | None = None, turns: int = TURNS) -> dict[str, str]:
    bot_rng = Rng("golden-bots", "bots")

    def pick(seq):
        items = list(seq)
        return items[bot_rng.below("pick", len(items))]

    setup = run_setup(ENGINE, ENGINE.seat_names(2),
                      ENGINE.new_game_options(options or {"team_size": 3}),
                      secret_rng(SECRET, None))
    state, events = setup.state, setup.events
    out = {v: [f"# Setup\n\n{ENGINE.report(events, None if v == 'public' else v)}"]
           for v in VIEWERS}
    for number in range(1, turns + 1):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        orders = {}
        for seat in decision.seats:
            if number % 5 == 0 and seat == "South":
                orders[seat] = ENGINE.default_orders(state, seat)
            else:
                orders[seat] = ENGINE.parse_orders(state, seat,
                                                   ENGINE.random_orders(state, seat, pick))
        step = run_turn(ENGINE, state, orders, secret_rng(SECRET, number))
        state, events = step.state, step.events
        for viewer in VIEWERS:
            text = ENGINE.report(events, None if viewer == "public" else viewer)
            out[viewer].append(f"# Report {number}\n\n{text}")
    return {v: "\n".join(parts) for v, parts in out.items()}


@pytest.mark.parametrize("viewer", VIEWERS)
def test_reports_match_the_golden_files(viewer):
    text = skirmish_reports()[viewer]
    assert_golden(GOLDEN / f"skirmish_{viewer}.md", text)


def test_public_report_names_no_secret_card():
    reports = skirmish_reports()
    assert "(secret)" not in reports["public"]
    assert "(secret)" in reports["North"] and "(secret)" in reports["South"]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_build_reports_match_the_golden_files(viewer):
    """The map build by orders, then the first turns on the built map."""
    text = skirmish_reports({"team_size": 4, "map": "build"}, 14)[viewer]
    assert_golden(GOLDEN / f"build_{viewer}.md", text)
