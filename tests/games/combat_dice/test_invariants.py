"""The invariants catch broken states (so the conformance suite's checks can fail)."""

from __future__ import annotations

import pytest

from games.combat_dice.engine import ENGINE

from .helpers import armed


def _break(path: str, value):
    state = armed()
    target = state
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return state


@pytest.mark.parametrize(("path", "value", "problem"), [
    ("phase", "lunch", "unknown phase"),
    ("fighters.P1.hp", 11, "more hit points"),
    ("fighters.P1.hp", 0, "still fighting at 0"),
    ("fighters.P1.max_hp", 12, "max_hp"),
    ("fighters.P1.items", ["sword", "club", "flail", "net"], "illegal equipment"),
    ("fighters.P1.items", ["small_shield", "large_shield"], "more than one shield"),
    ("fighters.P1.specialty", ["strength"], "specialty dice chosen"),
    ("fighters.P1.effects.bleeding", [{"turns": 0, "since": 1}], "spent bleeding"),
    ("fighters.P2.effects.hurt_arm", -1, "negative hurt_arm"),
    ("pending", {"turn": 1}, "paused turn outside"),
    ("result", {"winners": []}, "result exists exactly"),
])
def test_invariants_name_the_problem(path, value, problem):
    problems = ENGINE.invariants(_break(path, value))
    assert any(problem in p for p in problems), problems


def test_a_sound_state_has_no_problems():
    assert ENGINE.invariants(armed()) == []
