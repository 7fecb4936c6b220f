"""The kit measurement runs, is reproducible, swaps seats and prints its table."""

from __future__ import annotations

from games.combat_dice import simulate


def test_a_kit_score_is_reproducible_and_symmetric_for_the_standard_warrior():
    first = simulate.score(simulate.STANDARD, 6, seed=3)
    assert first == simulate.score(simulate.STANDARD, 6, seed=3)
    assert 0.0 <= first["score"] <= 1.0 and first["mean_turns"] > 0


def test_seats_alternate_so_each_kit_fights_from_both_sides(monkeypatch):
    seen = []

    def fake(seed, p1, p2):
        seen.append(p1 == simulate.STANDARD)
        return {"winners": ["P1"], "turns": 1}

    monkeypatch.setattr(simulate, "fight", fake)
    out = simulate.score("EQUIP SWORD, LIGHT ARMOR", 4)
    assert seen == [False, True, False, True]
    assert out["score"] == 0.5  # P1 always wins: the kit wins exactly the fights it is P1


def test_command_line_prints_every_kit(capsys, monkeypatch):
    monkeypatch.setattr(simulate, "fight", lambda seed, p1, p2: {"winners": [], "turns": 2})
    assert simulate.main(["--fights", "2"]) == 0
    out = capsys.readouterr().out
    assert "| in place of the medium shield | score | mean turns |" in out
    for label in simulate.KITS:
        assert f"| {label} | 0.50 | 2 |" in out
