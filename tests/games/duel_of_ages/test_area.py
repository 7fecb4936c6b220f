"""Area weapons and grenades: everyone in the space is attacked, friend and foe; the
weapon is settled after all the rolls; a grenade flies over buildings and domes (which
count as woods) but never into or out of a dome; opportunity fire with an area weapon."""

import pytest

from .helpers import kinds, make, play

MISS = [6, 5]


def rolls(label, *pairs):
    return [(label, d) for pair in pairs for d in pair]


def test_area_fire_hits_everyone_in_the_space():
    # HOLLIS's Flame Projector (Point green) into F6, where KORVATH and OBED fight.
    state = make({"HOLLIS": ("White", "F3", ["FLAMER"]), "KORVATH": ("Black", "F6", []),
                  "OBED": ("White", "F6", [])})
    script = rolls("fire/hit", MISS, MISS)
    _, events = play(state, {"White": "FIRE HOLLIS AT KORVATH\nHOLD OBED",
                             "Black": "HOLD KORVATH"}, script)
    assert [a["target"] for a in kinds(events, "attack")] == ["KORVATH", "OBED"]
    assert kinds(events, "random_target") == []


@pytest.mark.parametrize("thrower, target, number, why", [
    ("D3", "D6", 8, "over two buildings: Throw yellow vs Stealth red 10, -2 as woods"),
    ("C4", "D4", 9, "into a building: -1 instead of -2"),
])
def test_grenade_blind_throw(thrower, target, number, why):
    state = make({"TAMSIN": ("White", thrower, ["GRENADE"]),
                  "KORVATH": ("Black", target, [])})
    _, events = play(state, {"White": "FIRE TAMSIN"}, rolls("fire/hit", MISS))
    assert kinds(events, "attack")[0]["hit"]["number"] == number, why
    assert kinds(events, "card_lost") == [{"char": "TAMSIN", "card": "GRENADE",
                                           "why": "used up"}]


@pytest.mark.parametrize("thrower, target", [
    ("B5", "A5"),     # into a dome
    ("F4", "H4"),     # along the edge of the fallen statue
])
def test_grenade_cannot_go(thrower, target):
    state = make({"TAMSIN": ("White", thrower, ["GRENADE"]),
                  "KORVATH": ("Black", target, [])})
    _, events = play(state, {"White": "FIRE TAMSIN"}, [])
    assert kinds(events, "attack") == []


def test_area_kill_spends_a_k_card_only_after_all_rolls():
    # Everyone in D6 is attacked before the card goes.
    state = make({"TAMSIN": ("White", "D3", ["GRENADE"]),
                  "KORVATH": ("Black", "D6", [], 1), "SEVEN": ("Black", "D6", [])})
    script = (rolls("fire/hit", (1, 1)) + rolls("fire/damage", (1, 1))
              + rolls("fire/hit", MISS))
    after, events = play(state, {"White": "FIRE TAMSIN", "Black": ""}, script)
    assert [a["target"] for a in kinds(events, "attack")] == ["KORVATH", "SEVEN"]
    assert after["chars"]["KORVATH"]["status"] == "dead"
    assert kinds(events, "card_lost")[0]["why"] == "used up"


def test_area_opportunity_fire_hits_movers_and_those_standing_there():
    # HOLLIS at G7, Flame Projector (OpFire 2): DEX runs D9 -> D8 D7 D6 past his ally
    # SEVEN standing in D8. All three spaces are 5 to hit; the earliest, D8, is chosen.
    state = make({"DEX": ("White", "D9", []), "SEVEN": ("White", "D8", []),
                  "HOLLIS": ("Black", "G7", ["FLAMER"])})
    _, events = play(state, {"White": "MOVE DEX TO D6", "Black": "FIRE HOLLIS"},
                     rolls("opfire/hit", MISS, MISS))
    attacks = kinds(events, "attack")
    assert [(a["target"], a["space"]) for a in attacks] == [("DEX", "D8"), ("SEVEN", "D8")]
    # the second shot would need another primary target: DEX was the only mover
