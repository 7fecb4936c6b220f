"""A short scripted level-3 game, its public and private reports against golden files.

Regenerate after a deliberate wording change with UPDATE_GOLDEN=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.rng import ScriptedRng
from games.dice_age.engine import ENGINE
from tests.games.golden import assert_golden

from .helpers import face

GOLDEN = Path(__file__).parent / "golden"

TURNS = [  # (seat, orders, scripted dice)
    ("P1", "PICK CASTLE\nSTANDING PICK TANK MOSS", []),
    ("P2", "PICK SUN", []),  # P1's standing order then takes the tank
    ("P2", "PICK FERN", []),  # ... and P2 picks again after P1's standing pick
    ("P2", "PICK LILY", []),
    ("P1", "IF NUMBER < 9 THEN ROLL CASTLE ELSE ROLL TANK", [face("TANK", 12)]),
    ("P2", "ROLL SUN", [face("SUN", 8)]),
    ("P1", "IF NUMBER < 9 THEN ROLL CASTLE ELSE ROLL TANK", [face("CASTLE", 5)]),
    ("P2", "ROLL FERN", [face("FERN", 7)]),
    ("P2", "ROLL LILY", [face("LILY", "pit")]),
]


def _play() -> list[tuple[str, str]]:
    seats = ["P1", "P2"]
    state, _ = ENGINE.setup(seats, ENGINE.new_game_options({"level": 3}),
                            ScriptedRng([("first-player/1/P1", 4), ("first-player/1/P2", 2)]))
    # A small table: only six dice in the centre, the rest already in Limbo.
    for die, info in state["dice"].items():
        if die not in ("CASTLE", "TANK", "MOSS", "SUN", "FERN", "LILY"):
            info.update(place="limbo")
    out = []
    for seat, text, script in TURNS:
        assert ENGINE.decision(state).seats == [seat], (seat, state["pending"])
        rng = ScriptedRng(script)
        state, events = ENGINE.resolve(state, {seat: ENGINE.parse_orders(state, seat, text)},
                                       rng)
        assert rng.remaining == 0 and ENGINE.invariants(state) == []
        out.append((ENGINE.report(events, None), ENGINE.report(events, "P1")))
    return out


@pytest.mark.parametrize("viewer", ["public", "P1"])
def test_golden_reports(viewer):
    reports = _play()
    text = "".join(f"## Turn {i}\n\n{pub if viewer == 'public' else mine}\n"
                   for i, (pub, mine) in enumerate(reports, 1))
    assert_golden(GOLDEN / f"level3-{viewer}.md", text)
