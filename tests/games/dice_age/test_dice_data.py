"""The designed dice against the rulebook's colour averages (issue 12)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.dice_age.dice import DICE

# The rulebook's average number per colour (level 5, "The Colors").
RULEBOOK_AVERAGE = {"orange": 12, "yellow": 8, "green": 6, "red": 4}


def _numbers(colour: str) -> list[int]:
    return [n for d in DICE.values() if d.colour == colour for n in d.numbers()]


@pytest.mark.parametrize("colour", sorted(RULEBOOK_AVERAGE))
def test_every_colour_averages_what_the_rulebook_says(colour):
    numbers = _numbers(colour)
    assert numbers, f"no {colour} dice"
    assert Fraction(sum(numbers), len(numbers)) == RULEBOOK_AVERAGE[colour]


@pytest.mark.parametrize("die", [d for d in DICE.values() if d.colour in RULEBOOK_AVERAGE],
                         ids=lambda d: d.id)
def test_every_die_averages_its_colour(die):
    """Our design is stricter than the colour: each die's number sides average it too,
    so the rulebook's advice ("orange averages 12...") holds for whichever die you hold."""
    nums = die.numbers()
    assert Fraction(sum(nums), len(nums)) == RULEBOOK_AVERAGE[die.colour]


def test_the_average_is_computed_over_physical_sides():
    """A side printed twice counts twice; a die resting on an edge counts both readings."""
    assert DICE["OAK"].numbers() == [5, 6, 6, 7]
    assert DICE["VOLCANO"].numbers() == [2, 4, 4, 5, 5]
