"""Scores from dice: faces, specialty dice, every equipment modifier, wounds, no floor."""

from __future__ import annotations

import pytest

from games.combat_dice import catalog
from games.combat_dice.rules.scores import modifiers, scores, tally
from games.combat_dice.state import new_fighter

# The rulebook's modifier list, typed out independently of data/equipment.toml so a
# slip in the data file fails here. Keys: at dg dm ar in mv.
RULEBOOK = {
    "unarmed": {"damage": -2, "attack": -2},
    "sword": {},
    "short_sword": {"damage": -1, "initiative": 1},
    "large_sword": {"damage": 1, "initiative": -1},
    "dagger": {"damage": -1, "attack": -1, "initiative": 1},
    "thrown_dagger": {"damage": -1, "attack": -1, "initiative": 2},
    "club": {"damage": -1},
    "spear": {"initiative": 1, "maneuver": -1},
    "trident": {"initiative": 1, "maneuver": -1},
    "thrown_spear": {"initiative": 3, "attack": -1},
    "bow": {"initiative": 4},
    "battle_axe": {"damage": 3, "initiative": -1, "dodge": -1, "maneuver": -1},
    "flail": {"damage": 2, "initiative": -1, "attack": -1},
    "great_sword": {"damage": 2, "initiative": -1, "maneuver": -1},
    "net": {},
    "staff": {"damage": -1, "armor": 1},
    "no_armor": {"armor": -2, "maneuver": 1, "initiative": 1},
    "light_armor": {},
    "medium_armor": {"armor": 1, "maneuver": -1},
    "heavy_armor": {"armor": 2, "maneuver": -1, "initiative": -1},
    "no_shield": {"armor": -2, "maneuver": 1, "initiative": 1},
    "small_shield": {"armor": -1, "maneuver": 1},
    "medium_shield": {},
    "large_shield": {"armor": 1, "maneuver": -1},
    "spell_charm": {},  # named in the equipment list; its spells are ours (spells.toml)
}
ZERO = dict.fromkeys(catalog.SCORES, 0)


def test_the_data_file_holds_every_rulebook_item_and_nothing_else():
    assert set(catalog.ALL_ITEMS) == set(RULEBOOK)


@pytest.mark.parametrize("item_id", sorted(RULEBOOK))
def test_each_item_modifies_as_the_rulebook_says(item_id):
    item = catalog.ALL_ITEMS[item_id]
    expected = {**ZERO, **RULEBOOK[item_id]}
    assert {**ZERO, **item.modifiers} == expected


@pytest.mark.parametrize(("weapon", "ranged", "hands", "entangle"), [
    ("bow", True, 2, False), ("thrown_dagger", True, 1, False),
    ("thrown_spear", True, 1, False), ("sword", False, 1, False),
    ("battle_axe", False, 2, False), ("great_sword", False, 2, False),
    ("staff", False, 2, False), ("net", False, 1, True), ("spear", False, 1, False),
])
def test_weapon_traits(weapon, ranged, hands, entangle):
    item = catalog.ITEMS[weapon]
    assert (item.ranged, item.hands, item.entangle) == (ranged, hands, entangle)


@pytest.mark.parametrize(("faces", "specialty", "expected"), [
    ((1, 2, 3, 4, 5, 6), [], dict.fromkeys(catalog.SCORES, 1)),
    ((3, 3, 3, 3, 3, 3), [], {**ZERO, "damage": 6}),
    ((), [["strength", 1], ["strength", 2], ["prowess", 1]], {**ZERO, "damage": 1,
                                                              "attack": 1}),
    ((), [["armor", 1], ["evasion", 1], ["maneuver", 1], ["initiative", 1]],
     {**ZERO, "armor": 1, "dodge": 1, "maneuver": 1, "initiative": 1}),
    ((), [[kind, face] for kind in catalog.SPECIALTY for face in range(2, 7)], ZERO),
])
def test_tally_counts_basic_faces_and_specialty_ones(faces, specialty, expected):
    assert tally({"basic": list(faces), "specialty": specialty}) == expected


def _fighter(items, **effects):
    f = new_fighter()
    f["items"] = list(items)
    f["effects"].update(effects)
    return f


@pytest.mark.parametrize(("items", "weapon", "effects", "expected"), [
    # the standard warrior adds nothing
    (["sword", "medium_shield", "light_armor"], "sword", {}, ZERO),
    # nothing carried: unarmed, no armour, no shield
    ([], "unarmed", {}, {**ZERO, "attack": -2, "damage": -2, "armor": -4, "maneuver": 2,
                         "initiative": 2}),
    # a two-handed weapon slings the shield: the no-shield line counts instead
    (["battle_axe", "large_shield", "light_armor"], "battle_axe", {},
     {**ZERO, "damage": 3, "initiative": 0, "dodge": -1, "maneuver": 0, "armor": -2}),
    (["bow", "sword", "small_shield"], "bow", {},
     {**ZERO, "initiative": 6, "armor": -4, "maneuver": 2}),
    (["bow", "sword", "small_shield"], "sword", {},
     {**ZERO, "initiative": 1, "armor": -3, "maneuver": 2}),
    # lasting wounds
    (["sword", "medium_shield", "light_armor"], "sword",
     {"hurt_arm": 2, "hurt_leg": 1, "broken_armor": 1},
     {**ZERO, "attack": -2, "damage": -2, "dodge": -2, "maneuver": -2, "armor": -1}),
    (["sword", "medium_shield", "light_armor"], "sword", {"disarmed": True},
     {**ZERO, "attack": -2, "damage": -2}),
    (["sword", "medium_shield", "light_armor"], "sword", {"knocked_down": True},
     {**ZERO, "attack": -1, "damage": -1}),
])
def test_modifiers(items, weapon, effects, expected):
    assert modifiers(_fighter(items, **effects), weapon) == expected


def test_scores_are_faces_plus_modifiers_with_no_floor():
    f = _fighter([])  # unarmed: attack -2; no armour and no shield: armour -4
    dice = {"basic": [1, 2, 2, 4, 4, 4], "specialty": []}
    got = scores(f, "unarmed", dice)
    assert got["attack"] == -1  # 1 rolled, -2 unarmed
    assert got["armor"] == -1  # 3 rolled, -4 for no armour and no shield
    assert got["dodge"] == 2


@pytest.mark.parametrize(("effects", "faces", "dodge"), [
    ({}, [2, 2, 2, 1, 1, 1], 0),  # a netted fighter may not dodge: three faces count 0
    ({"hurt_leg": 1}, [1, 1, 1, 1, 1, 1], -2),  # ... but a wound below zero still counts
])
def test_a_net_takes_the_dodge(effects, faces, dodge):
    f = _fighter(["sword", "medium_shield", "light_armor"], **effects)
    dice = {"basic": faces, "specialty": []}
    assert scores(f, "sword", dice, entangled=True)["dodge"] == dodge
