"""Melee scenarios: both teams strike, blows land together, first strike, HOLD refuses,
weapon choice.

KORVATH (White, Melee yellow; natural Penetration green, Damage 3) against SEVEN (Black,
React black, Armor white): 11 to hit, 5 to damage. SEVEN (Melee blue, natural yellow 2)
against KORVATH (React blue, Armor green): 7 to hit, 8 to damage. KORVATH has the
first-strike ability."""

import pytest

from .helpers import kinds, make, play

K_HITS = [("melee/hit/KORVATH", 1), ("melee/hit/KORVATH", 1),
          ("melee/damage/KORVATH", 1), ("melee/damage/KORVATH", 2)]   # PASS: 3 damage
S_HITS = [("melee/hit/SEVEN", 1), ("melee/hit/SEVEN", 1),
          ("melee/damage/SEVEN", 3), ("melee/damage/SEVEN", 3)]       # PASS: 2 damage
S_MISSES = [("melee/hit/SEVEN", 6), ("melee/hit/SEVEN", 5)]


@pytest.mark.parametrize("white, black, k_health, s_health, script, k_status, s_status", [
    ("", "", 6, 7, K_HITS + S_HITS, "map", "map"),
    ("", "", 1, 2, K_HITS, "map", "dead"),     # KORVATH strikes first: SEVEN never swings
    ("HOLD KORVATH", "", 6, 7, S_HITS, "map", "map"),
    ("", "HOLD SEVEN", 6, 7, K_HITS, "map", "map"),
    ("MELEE KORVATH AT SEVEN", "MELEE SEVEN AT KORVATH", 6, 4, K_HITS + S_MISSES, "map",
     "map"),
])
def test_melee(white, black, k_health, s_health, script, k_status, s_status):
    state = make({"KORVATH": ("White", "F5", [], k_health),
                  "SEVEN": ("Black", "F5", [], s_health)})
    after, events = play(state, {"White": white, "Black": black}, script)
    assert after["chars"]["KORVATH"]["status"] == k_status
    assert after["chars"]["SEVEN"]["status"] == s_status
    if k_status == "map":
        hurt = 2 if "SEVEN" in {a["char"] for a in kinds(events, "attack")
                                if a["damage"]} else 0
        assert after["chars"]["KORVATH"]["health"] == k_health - hurt


def test_melee_weapon_or_natural_attack():
    # The Cutlass (Penetration blue) against Armor white is 4 to damage; bare hands
    # (green) are 5.
    for order, weapon, number in (("", "CUTLASS", 4), ("MELEE KORVATH WITH NATURAL", None, 5)):
        state = make({"KORVATH": ("White", "F5", ["CUTLASS"]), "SEVEN": ("Black", "F5", [])})
        _, events = play(state, {"White": order, "Black": "HOLD SEVEN"}, K_HITS)
        attack = kinds(events, "attack")[0]
        assert (attack["weapon"], attack["wound"]["number"]) == (weapon, number)


def test_no_melee_without_an_enemy_in_the_space():
    state = make({"KORVATH": ("White", "F5", []), "SEVEN": ("Black", "F6", [])})
    _, events = play(state, {"White": "", "Black": ""}, [])
    assert kinds(events, "attack") == []


def test_blows_land_together_without_first_strike():
    # BRANNOC (Melee green vs React black: 10; Penetration green vs Armor white: 5, 3
    # damage) and SEVEN (Melee blue vs React red: 8; yellow vs yellow: 7, 2 damage).
    state = make({"BRANNOC": ("White", "F5", [], 1), "SEVEN": ("Black", "F5", [], 1)})
    script = [("melee/hit/BRANNOC", 1), ("melee/hit/BRANNOC", 1),
              ("melee/damage/BRANNOC", 1), ("melee/damage/BRANNOC", 1),
              ("melee/hit/SEVEN", 1), ("melee/hit/SEVEN", 1),
              ("melee/damage/SEVEN", 1), ("melee/damage/SEVEN", 1)]
    after, _ = play(state, {"White": "", "Black": ""}, script)
    assert after["chars"]["BRANNOC"]["status"] == after["chars"]["SEVEN"]["status"] == "dead"


def test_first_strikers_on_both_sides_strike_together():
    # KORVATH and DEX both strike first, so DEX still swings though KORVATH kills him.
    state = make({"KORVATH": ("White", "F5", [], 7), "DEX": ("Black", "F5", [], 1)})
    script = K_HITS[:2] + [("melee/damage/KORVATH", 1), ("melee/damage/KORVATH", 1)] + [
        ("melee/hit/DEX", 6), ("melee/hit/DEX", 5)]
    after, events = play(state, {"White": "", "Black": ""}, script)
    assert [a["char"] for a in kinds(events, "attack")] == ["KORVATH", "DEX"]
    assert after["chars"]["DEX"]["status"] == "dead"
