"""What each level adds, as data: one turn engine reads these switches.

The rulebook builds each level on the one before, so a level is the previous level's
switches plus the ones it turns on (or, for the few rules a later level replaces, off).
The rules code asks `rules(state).<switch>` and never compares level numbers, so a rule
shared by several levels exists once and a level differs only by its switches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Level:
    number: int
    # level 1 -----------------------------------------------------------------------
    draft: bool = True
    """The dice are drafted from the centre (levels 1-3); off: dealt by colour (4 up)."""
    all_dice: bool = False
    """Every die of the catalogue plays (level 2 up); off: only the level-1 dice."""
    icon_skips: bool = True
    """An icon makes the roller miss his next turn (levels 1-4; effects replace it)."""
    # level 3 -----------------------------------------------------------------------
    field: bool = False
    """A rolled die stays in the field and may be rolled again; an overshoot costs the
    roller his whole field and sends the others' field dice home (level 3 up). Off: the
    die goes back to the hand and an overshoot costs only the die just rolled."""
    # level 4 -----------------------------------------------------------------------
    icon_recall: bool = False
    """An icon lets the roller recall a wasteland die instead of skipping (level 4)."""
    limbo: bool = False
    """Dice left over from the deal, and later lost dice, go to Limbo (level 4 up)."""
    # level 5 -----------------------------------------------------------------------
    effects: bool = False
    """The thirteen effects, the Ledges (suspended dice), reactions and the Square."""
    white_dice: bool = False
    """The white dice join the deal; they never rest unsuspended in a field or a
    wasteland (level 5 up)."""
    never_twice: bool = False
    """Never the die of one's last main roll (level 5 up)."""
    out_to_limbo: bool = False
    """A player who cannot play is out at the start of his turn: his dice go to Limbo
    and the round ends ("Next!"). Off: a player is out when an overshoot leaves him
    with no die, and keeps his wasteland."""
    # level 6 -----------------------------------------------------------------------
    legendary: bool = False
    """One copy of a die in the field at a time."""
    survival: bool = False
    """A player's last die may be rolled again (and despite a copy in the field)."""
    pair: bool = False
    """After his roll a player may bring back a wasteland die showing the same side."""
    fistful: bool = False
    """Per un pugno di dadi: two lone dice in the field, four turns, lower value wins."""
    resting: bool = False
    """Equalling the Number rests the die on the Ledges; the Number stays."""
    # level 7 -----------------------------------------------------------------------
    legions: bool = False
    """Each player brings a Legion chosen in secret (copies of a die may meet)."""
    general: bool = False
    """A Legion's General may send another field die to the wasteland in its place."""

    @property
    def compact(self) -> bool:
        """The level's stored state leaves out the effects' bookkeeping (levels 1-4)."""
        return not self.effects


def _build() -> dict[int, Level]:
    one = Level(1)
    two = replace(one, number=2, all_dice=True)
    three = replace(two, number=3, field=True)
    four = replace(three, number=4, draft=False, icon_recall=True, limbo=True)
    five = replace(four, number=5, icon_recall=False, icon_skips=False, effects=True,
                   white_dice=True, never_twice=True, out_to_limbo=True)
    six = replace(five, number=6, legendary=True, survival=True, pair=True, fistful=True,
                  resting=True)
    seven = replace(six, number=7, legions=True, general=True)
    return {lv.number: lv for lv in (one, two, three, four, five, six, seven)}


LEVEL_RULES: dict[int, Level] = _build()


def level_rules(level: int) -> Level:
    return LEVEL_RULES[level]


def rules(state: dict[str, Any]) -> Level:
    """The switches of the level the game in `state` is played at."""
    return LEVEL_RULES[state["level"]]
