"""A plain GEAR (no die named) after a chaos turns over the die showing the lowest number."""

from __future__ import annotations

from games.dice_age.engine import ENGINE

from .helpers import answer, drawn, face, play, suspend, table


def test_a_standing_gear_after_a_chaos_targets_the_lowest_die():
    state = table(6, {"P1": {"garden": ["CASTLE"], "field": ["MINE"]},
                      "P2": {"garden": ["FERN"], "field": ["OAK"]}}, number=9)
    suspend(state, "OAK", "gear")
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", "chaos")])
    state, _ = answer(state, "PASS", [drawn("chaos", "CASTLE", 1), drawn("chaos", "MINE", 8)])
    state, events = answer(state, "GEAR")
    assert state["dice"]["CASTLE"]["face"] == "gear" and state["number"] == 8
    assert "Castle (red) showing **1** is void" in ENGINE.report(events, None)
