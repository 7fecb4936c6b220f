"""The rulebook's sample combat turn, warrior (P1) against myrmidon (P2)."""

from __future__ import annotations

import pytest

from .helpers import armed, basic, crit, kinds, scores_of, turn

WARRIOR = (2, 3, 1, 3, 5, 3)
MYRMIDON = (6, 4, 1, 4, 5, 3)


@pytest.fixture
def sample():
    state = armed()
    script = basic("P1", *WARRIOR) + basic("P2", *MYRMIDON) + crit("P1", 3, 4)
    return state, *turn(state, script)


@pytest.mark.parametrize(("seat", "expected"), [
    ("P1", {"attack": 1, "dodge": 1, "damage": 3, "armor": 0, "initiative": 1,
            "maneuver": 0}),
    ("P2", {"attack": 1, "dodge": 0, "damage": 1, "armor": 2, "initiative": 1,
            "maneuver": 1}),
])
def test_every_score_of_the_sample(sample, seat, expected):
    _, _, events = sample
    assert scores_of(events, seat) == expected


def test_tied_initiative_means_simultaneous_blows(sample):
    _, _, events = sample
    assert kinds(events, "initiative") == [{"first": None, "scores": {"P1": 1, "P2": 1}}]
    # a tie leaves no initiative winner, so nobody may reroll
    assert kinds(events, "maneuver")[0]["seat"] is None


def test_the_myrmidon_is_dodged_and_the_warrior_hits_for_one(sample):
    before, after, events = sample
    strikes = {s["attacker"]: s for s in kinds(events, "strike")}
    assert strikes["P2"]["hit"] is False
    assert (strikes["P2"]["attack"], strikes["P2"]["dodge"]) == (1, 1)
    assert strikes["P1"]["hit"] is True
    assert (strikes["P1"]["damage"], strikes["P1"]["armor"], strikes["P1"]["lost"]) == (3, 2, 1)
    assert before["fighters"]["P2"]["hp"] - after["fighters"]["P2"]["hp"] == 1
    assert after["fighters"]["P1"]["hp"] == 10
    assert after["phase"] == "fight" and after["turn"] == 1
