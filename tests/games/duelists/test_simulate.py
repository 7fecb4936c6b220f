"""The balance simulation runs, is reproducible, and keeps every champion at or under 60%."""

from __future__ import annotations

from games.duelists import simulate


def test_simulation_is_reproducible_and_balanced():
    first = simulate.run(240, seed=5)
    assert first == simulate.run(240, seed=5)
    assert sum(first["wins"].values()) == 240
    assert set(first["played"].values()) == {160}  # every ordered pair equally often
    for champion, wins in first["wins"].items():
        assert wins / first["played"][champion] <= 0.60, champion


def test_command_line_prints_the_matchup_table(capsys):
    assert simulate.main(["--games", "12"]) == 0
    out = capsys.readouterr().out
    assert "| row beats column | Isdra | Nathrax | Harys | overall | as starter |" in out
    for name in ("Isdra", "Nathrax", "Harys"):
        assert f"| {name} | " in out
    assert "starting player wins" in out and "most lopsided matchup" in out


def test_the_matchup_table_counts_each_pair_from_both_sides():
    out = simulate.run(60, seed=2)
    grid = simulate.matchups(out)
    for (a, b), (won, n) in grid.items():
        assert n == 20 and grid[(b, a)] == (n - won, n)
    assert sum(out["started"].values()) == 60
    assert sum(out["starter_wins_by"].values()) == out["starter_wins"]
