"""Challenge rolls: the number from two colours, the success levels, the damage table."""

import pytest

from games.duel_of_ages.challenge import challenge_number, damage_for, success


@pytest.mark.parametrize("mine, theirs, modifier, number", [
    ("green", "blue", 0, 8),       # the rulebook's own example
    ("green", "blue", -2, 6),
    ("green", "green", 0, 7),
    ("blue", "green", 0, 6),
    ("white", "black", 0, 12),
    ("black", "white", 0, 2),
    ("white", "black", 3, 12),     # never above 12
    ("black", "white", -3, 2),     # never below 2
    ("red", "blue", -4, 2),
])
def test_challenge_number(mine, theirs, modifier, number):
    assert challenge_number(mine, theirs, modifier) == number


@pytest.mark.parametrize("number, roll, level", [
    (7, 7, "SQUEAK"), (7, 6, "PASS"), (7, 4, "PASS"), (7, 3, "AMAZE"),
    (7, 8, "FAIL"), (7, 10, "FAIL"), (7, 11, "FOPP"),
    (2, 2, "AMAZE"),               # a 2 always amazes, even against a 2
    (12, 12, "FOPP"),              # a 12 always fopps, even against a 12
    (3, 2, "AMAZE"), (12, 11, "PASS"), (12, 8, "AMAZE"), (2, 6, "FOPP"), (2, 5, "FAIL"),
    (6, 6, "SQUEAK"), (8, 5, "PASS"),
])
def test_success_levels(number, roll, level):
    assert success(number, roll) == level


@pytest.mark.parametrize("level, damage, dealt", [
    ("FOPP", 3, 0), ("FAIL", 3, 1), ("SQUEAK", 3, 2), ("PASS", 3, 3), ("AMAZE", 3, 4),
    ("FAIL", 1, 0), ("SQUEAK", 2, 1),
])
def test_damage_table(level, damage, dealt):
    assert damage_for(level, damage) == dealt
