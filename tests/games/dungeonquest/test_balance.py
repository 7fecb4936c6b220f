"""The balance of the designed content, measured the way the README's table is.

The rulebook promises a hero about a 15 percent chance of survival, says its heroes were
balanced to fare about alike, and sends them to the treasure chamber in the middle. The
heroes, tiles, decks and monsters that decide all three are designed (the rulebook prints
no sheets and no counts), so a change to any of them, or to a rule, can quietly move the
balance; this test notices.

The games are seeded: every run plays the same games and gets the same figures, so the
test never fails by chance, only when content or rules change what happens. 350
dungeons are each played once by each of the four heroes (1,400 solo games): the heroes
meet the same tiles and cards, so the gap between their rates is the heroes' and not the
dungeons' luck. The overall bounds are the ones the 300-game sample of the tuning pass
was held to (README, "Balance check"), still well away from the old content's (25
percent survival, 29 percent at the chamber, 12 percent of survivors). SPREAD: see the
README ("Evening out the heroes") for how it was chosen, how far from this seed's figure
it is and which imbalance it catches.
"""

from __future__ import annotations

import pytest

from games.dungeonquest.simulate import death_cause, hero_spread, measure

DUNGEONS = 350               # each played once by each hero: 1,400 solo games
SURVIVAL = (0.09, 0.21)      # this seed: 15.7 percent (220/1400)
AT_THE_HOARD = 0.34          # share of all heroes who reach the chamber; this seed: 42.1
SURVIVORS_WITH_HOARD = 0.20  # share of survivors who had been there; this seed: 43.2
SPREAD = 0.06                # best hero's survival minus the worst's; this seed: 4.3 (old: 6.9)


@pytest.fixture(scope="module")
def balance():
    return measure(1, DUNGEONS, "balance", every_hero=True)


@pytest.mark.slow  # 1,400 games: about 25 s of CPU (18 ms a game)
def test_a_treasure_seeker_survives_about_as_often_as_the_rulebook_says(balance):
    m = balance
    survival = len(m["survivors"]) / m["played"]
    reached = len(m["arrivals"]) / m["played"]
    with_hoard = sum(1 for _, r, _ in m["survivors"] if r) / max(1, len(m["survivors"]))
    assert SURVIVAL[0] <= survival <= SURVIVAL[1], f"survival {survival:.1%}"
    assert reached >= AT_THE_HOARD, f"only {reached:.1%} of heroes reached the chamber"
    assert with_hoard >= SURVIVORS_WITH_HOARD, f"only {with_hoard:.1%} of survivors looted"


@pytest.mark.slow  # the same 1,400 games
def test_every_hero_survives_about_as_often_as_the_others(balance):
    """The rulebook says its heroes were balanced to fare about alike; ours are designed
    (heroes.toml), so the same dungeons played by each hero must leave the best and the
    worst survival rates within SPREAD of each other."""
    rates = {h: s / k for h, (k, s) in balance["heroes"].items()}
    assert all(k == DUNGEONS for k, _ in balance["heroes"].values())
    assert hero_spread(balance) <= SPREAD, ", ".join(f"{h} {r:.1%}" for h, r in rates.items())


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


def test_every_hero_plays_each_dungeon_once():
    m = measure(1, 2, "pairs", every_hero=True)
    assert m["games"] == 8 and all(k == 2 for k, _ in m["heroes"].values())
    mixed = measure(1, 4, "pairs")
    assert mixed["games"] == 4 and all(k == 1 for k, _ in mixed["heroes"].values())
    assert 0 <= hero_spread(m) <= 1
