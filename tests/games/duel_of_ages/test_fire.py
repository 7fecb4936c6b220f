"""Fire phase scenarios: hit and damage rolls, range, line of sight, weapon loss,
the enemy-in-space rule and the random target in a crowded space."""

import pytest

from .helpers import kinds, make, play

# TAMSIN's Longbow: Throw yellow vs KORVATH's Stealth red = 10 to hit;
# Penetration blue vs Armor green = 6 for damage; the bow deals 2.
ARCHER = ("White", "F3", ["LONGBOW"])


@pytest.mark.parametrize("korvath, script, health, lost, note", [
    (("Black", "F6", []), [("fire/hit", 3), ("fire/hit", 3), ("fire/damage", 3),
                           ("fire/damage", 3)], 6, None, "hit, SQUEAK damage: 2-1"),
    (("Black", "F6", []), [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1),
                           ("fire/damage", 1)], 4, None, "AMAZE damage: 2+1"),
    (("Black", "F6", []), [("fire/hit", 6), ("fire/hit", 5)], 7, None, "11 misses"),
    (("Black", "F6", []), [("fire/hit", 6), ("fire/hit", 6)], 7, "broke", "a 12 breaks it"),
    (("Black", "F6", [], 1), [("fire/hit", 1), ("fire/hit", 2), ("fire/damage", 4),
                              ("fire/damage", 2)], 0, "spent on a kill", "K card lost"),
    (("Black", "F6", [], 1), [("fire/hit", 1), ("fire/hit", 2), ("fire/damage", 4),
                              ("fire/damage", 4)], 1, None, "FAIL damage: 2-2 = 0"),
    (("Black", "F6", []), [("fire/hit", 5), ("fire/hit", 5), ("fire/damage", 5),
                           ("fire/damage", 6)], 7, None, "FOPP damage does nothing"),
    (("Black", "F2", []), [("fire/hit", 5), ("fire/hit", 5)], 7, None,
     "in rough the number is 9, so a 10 misses"),
])
def test_fire_phase(korvath, script, health, lost, note):
    state = make({"TAMSIN": ARCHER, "KORVATH": korvath})
    after, events = play(state, {"White": "FIRE TAMSIN AT KORVATH"}, script)
    assert after["chars"]["KORVATH"]["health"] == health, note
    assert [c["why"] for c in kinds(events, "card_lost")] == ([lost] if lost else [])
    attack = kinds(events, "attack")[0]
    assert attack["hit"]["number"] == (9 if korvath[1] == "F2" else 10)
    assert kinds(events, "reveal") == [{"char": "TAMSIN", "card": "LONGBOW"}]
    if health == 0:
        assert after["chars"]["KORVATH"]["status"] == "dead"


@pytest.mark.parametrize("tamsin, korvath, why", [
    ("F3", "F9", "out of range"),
    ("D3", "D6", "line of sight"),
    ("F6", "F6", "no enemy in sight"),
])
def test_no_shot(tamsin, korvath, why):
    state = make({"TAMSIN": ("White", tamsin, ["LONGBOW"]), "KORVATH": ("Black", korvath, [])})
    order = "FIRE TAMSIN AT KORVATH" if tamsin != korvath else "FIRE TAMSIN"
    after, events = play(state, {"White": order + "\nHOLD TAMSIN", "Black": "HOLD KORVATH"}, [])
    assert kinds(events, "attack") == [] or tamsin == korvath
    reasons = [n["why"] for n in kinds(events, "no_shot")]
    assert len(reasons) == 1
    assert why in reasons[0] or (tamsin == korvath and "enemy shares" in reasons[0])
    assert after["chars"]["TAMSIN"]["cards"][0]["revealed"] is False


def test_weapon_unusable_without_the_strength():
    # MIRELLE's Strength red is below the Harpoon's green: she carries it but cannot fire.
    state = make({"MIRELLE": ("White", "F3", ["HARPOON"]), "KORVATH": ("Black", "F5", [])})
    _, events = play(state, {"White": "FIRE MIRELLE"}, [])
    assert kinds(events, "no_shot")[0]["why"] == "has no usable ranged weapon"
    assert kinds(events, "attack") == []


@pytest.mark.parametrize("rolls, target", [
    ([4, 2], "OBED"),        # the ally rolls lowest and takes the arrow
    ([2, 5], "KORVATH"),
    ([3, 3], "KORVATH"),     # a tie: the firer picks the enemy he aimed at
])
def test_random_target_in_a_crowded_space(rolls, target):
    state = make({"TAMSIN": ARCHER, "KORVATH": ("Black", "F6", []),
                  "OBED": ("White", "F6", [])})
    script = [("fire/random-target/KORVATH", rolls[0]), ("fire/random-target/OBED", rolls[1]),
              ("fire/hit", 6), ("fire/hit", 5)]
    # the melee in F6 follows: OBED and KORVATH both hold
    _, events = play(state, {"White": "FIRE TAMSIN AT KORVATH\nHOLD OBED",
                             "Black": "HOLD KORVATH"}, script)
    assert kinds(events, "attack")[0]["target"] == target


def test_a_character_who_fired_does_not_move():
    state = make({"TAMSIN": ARCHER, "KORVATH": ("Black", "F6", [])})
    after, events = play(state, {"White": "FIRE TAMSIN AT KORVATH\nMOVE TAMSIN TO F4"},
                         [("fire/hit", 6), ("fire/hit", 5)])
    assert after["chars"]["TAMSIN"]["space"] == "F3"
    assert kinds(events, "no_move")[0]["why"] == "fired this turn"


def test_only_the_first_fire_order_for_a_character_counts():
    state = make({"TAMSIN": ARCHER, "KORVATH": ("Black", "F9", [])},
                 standing={"White": [{"order": {"op": "fire", "char": "TAMSIN"}}]})
    _, events = play(state, {"White": "FIRE TAMSIN AT KORVATH\nFIRE TAMSIN"}, [])
    assert len(kinds(events, "no_shot")) == 1


@pytest.mark.parametrize("cards, number, shown", [
    (["KEVLAR"], 5, ["KEVLAR"]),      # Penetration blue vs Armor yellow
    (["JERKIN"], 6, []),              # blue is no better than KORVATH's green: unused
    ([], 6, []),
])
def test_armor_cards(cards, number, shown):
    state = make({"TAMSIN": ARCHER, "KORVATH": ("Black", "F6", cards)})
    _, events = play(state, {"White": "FIRE TAMSIN"},
                     [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 6),
                      ("fire/damage", 5)])
    assert kinds(events, "attack")[0]["wound"]["number"] == number
    assert [r["card"] for r in kinds(events, "reveal") if r["char"] == "KORVATH"] == shown


def test_a_hidden_stealth_card_counts_but_does_not_steer_the_aim():
    # SEVEN (Stealth red) wears a hidden Ghillie Cloak (yellow); OBED's Stealth is blue.
    # The archer aims at the target that looks easier (SEVEN, 10), then the cloak shows
    # and the roll is made at 7.
    state = make({"TAMSIN": ARCHER, "SEVEN": ("Black", "F6", ["GHILLIE"]),
                  "OBED": ("Black", "F5", [])})
    _, events = play(state, {"White": "FIRE TAMSIN"}, [("fire/hit", 6), ("fire/hit", 5)])
    attack = kinds(events, "attack")[0]
    assert (attack["target"], attack["hit"]["number"]) == ("SEVEN", 7)
    assert {"char": "SEVEN", "card": "GHILLIE"} in kinds(events, "reveal")
