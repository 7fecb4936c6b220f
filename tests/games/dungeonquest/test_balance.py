"""The balance of the designed content, measured the way the README's table is.

The rulebook promises a hero about a 15 percent chance of survival and sends him to the
treasure chamber in the middle. The tiles, decks and monsters that decide both are
designed (the rulebook prints no counts), so a change to any of them, or to a rule, can
quietly move the balance; this test notices.

The games are seeded: every run plays the same games and gets the same figures, so the
test never fails by chance, only when content or rules change what happens. Each bound
lies two and a half to three binomial standard deviations of a 300-game sample from the measured
rates (README, "Balance check": 15.8 percent survival, 40 percent of heroes at the
chamber) and well away from the old content's (25 percent, 29 percent, 12 percent of
survivors), so a change that merely reshuffles the dice (a new RNG label, a card drawn
in another order) stays inside while a return to the old balance fails.
"""

from __future__ import annotations

import pytest

from games.dungeonquest.simulate import death_cause, measure

GAMES = 300
SURVIVAL = (0.09, 0.21)      # this seed: 15.7 percent (47/300)
AT_THE_HOARD = 0.34          # share of all heroes who reach the chamber; this seed: 41.0
SURVIVORS_WITH_HOARD = 0.20  # share of survivors who had been there; this seed: 36.2


@pytest.mark.slow  # 300 games: 25 s of CPU on the shared machine
def test_a_treasure_seeker_survives_about_as_often_as_the_rulebook_says():
    m = measure(1, GAMES, "balance")
    survival = len(m["survivors"]) / m["played"]
    reached = len(m["arrivals"]) / m["played"]
    with_hoard = sum(1 for _, r, _ in m["survivors"] if r) / max(1, len(m["survivors"]))
    assert SURVIVAL[0] <= survival <= SURVIVAL[1], f"survival {survival:.1%}"
    assert reached >= AT_THE_HOARD, f"only {reached:.1%} of heroes reached the chamber"
    assert with_hoard >= SURVIVORS_WITH_HOARD, f"only {with_hoard:.1%} of survivors looted"


@pytest.mark.parametrize(("line", "cause"), [
    ("**Sir Rohan has perished in D4** (slain by an Orc).", "a monster: Orc"),
    ("**Sir Rohan has perished in D4** (slain by a Champion of Chaos).",
     "a monster: Champion of Chaos"),
    ("**Ulf Grimhand has perished in C3** (the Mountain Troll's slash).",
     "a monster: Mountain Troll"),
    ("**Volrik has perished in B2** (the ambush).", "a sneak attack"),
    ("**Volrik has perished in B2** (the spider's bite).", "the spider's bite"),
    ("**El-Moran has perished in F7** (the dragon's fiery breath).",
     "the dragon's fiery breath"),
    ("**El-Moran has perished in G5** (night falls and the castle's creatures come for the "
     "stragglers).", "sunset (still inside after turn 26)"),
])
def test_causes_of_death_are_grouped_as_the_balance_table_reads_them(line, cause):
    assert death_cause(line) == cause
