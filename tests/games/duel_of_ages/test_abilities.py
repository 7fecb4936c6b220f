"""Every bonus ability the designed characters (and gadgets) have, each a scenario: the
same position with and without the ability."""

import pytest

from games.duel_of_ages import catalog, hexmap
from games.duel_of_ages.challenge import challenge_number
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules import abilities
from games.duel_of_ages.rules.combat import hit_number

from .helpers import field, kinds, make, play


def test_every_ability_named_in_the_data_is_implemented():
    named = set()
    for char in catalog.characters().values():
        named |= set(char["abilities"])
        assert char["abilities"], f"{char['title']} has no bonus ability"
    for card in catalog.equipment().values():
        named |= set(card.get("ability", {}))
    assert named == set(abilities.KINDS)


# -- special movement: move_cost (lost while riding a mount) ------------------------------
@pytest.mark.parametrize("who, cards, orders, end", [
    # Siennya pays 1 a swamp: A3 -> B3 C3 (swamps) D3 E3 F3 costs 5 of her 6
    ("AMAZON", [], "MOVE AMAZON TO B3 C3 F3", "F3"),
    # on the Sumerian Chariot (Speed 7) she pays 3 a swamp, as the rulebook says: 3+3+1
    ("AMAZON", ["CHARIOT"], "RIDE AMAZON\nMOVE AMAZON TO B3 C3 F3", "D3"),
    # the Gladiator has no such ability: 3+3 of his 5, then out of points
    ("GLADIATOR", [], "MOVE GLADIATOR TO B3 C3 F3", "B3"),
])
def test_move_cost(who, cards, orders, end):
    after, _ = play(make({who: ("White", "A3", cards)}), {"White": orders}, [])
    assert after["chars"][who]["space"] == end


@pytest.mark.parametrize("who, start, goal, through", [
    ("PATHFINDER", "B2", "E1", "D1"),      # woods 1: B2 C1 D1(woods) E1(woods) = 4
    ("CORSAIR", "D6", "G7", "F7"),         # water 1
    ("XENO", "E8", "E9", "E9"),            # rough 1
    ("FROGMAN", "D6", "G7", "F7"),         # water 1
])
def test_move_cost_per_terrain(who, start, goal, through):
    state = make({who: ("White", start, [])})
    assert abilities.move_costs(state, who)[hexmap.terrain()[through]] == 1
    after, _ = play(state, {"White": f"MOVE {who} TO {goal}"}, [])
    assert after["chars"][who]["space"] == goal


def test_a_grappling_hook_shown_makes_buildings_cost_one():
    state = make({"HOLLIS": ("White", "C5", ["GRAPNEL"])})
    assert abilities.move_costs(state, "HOLLIS") == {}           # still face down
    after, events = play(state, {"White": "USE HOLLIS\nMOVE HOLLIS TO D5 E4 F4"}, [])
    assert kinds(events, "reveal") == [{"char": "HOLLIS", "card": "GRAPNEL"}]
    assert abilities.move_costs(after, "HOLLIS") == {"building": 1}
    assert after["chars"]["HOLLIS"]["space"] == "F4"             # 1 + 1 + 1 of 5


# -- Hit bonuses ---------------------------------------------------------------------------
@pytest.mark.parametrize("who, weapon, bonus", [
    ("AMAZON", "LONGBOW", 1), ("AMAZON", "CARBINE", 0), ("MUSKETEER", "MUSKET", 1),
    ("OBED", "FLINTLOCK", 1), ("HOLLIS", "GRENADE", 1), ("SARGE", "ASSAULTRIFLE", 1),
    ("PATHFINDER", "JAVELIN", 1), ("KORVATH", "LONGBOW", 0),
])
def test_hit_bonus_with_a_weapon_group(who, weapon, bonus):
    state = make({who: ("White", "A6", [weapon]), "GLADIATOR": ("Black", "D6", [])})
    me = catalog.character(who)
    plain = challenge_number(me[catalog.card(weapon)["skill"]], "green")  # his Stealth
    assert hit_number(state, who, "GLADIATOR", weapon) == plain + bonus


def test_brawler_natural_attack_bonus():
    # Siennya's natural attack: Melee green vs the Rogue's React green = 7, +1
    state = make({"AMAZON": ("White", "D6", ["GLADIUS"]), "ROGUE": ("Black", "D6", [])})
    assert hit_number(state, "AMAZON", "ROGUE", None) == 8
    assert hit_number(state, "AMAZON", "ROGUE", "GLADIUS") == 7


def test_a_scope_counts_only_once_shown():
    state = make({"OBED": ("White", "A6", ["CARBINE", "SCOPE"]),
                  "GLADIATOR": ("Black", "D6", [])})
    before = hit_number(state, "OBED", "GLADIATOR", "CARBINE")
    state["chars"]["OBED"]["cards"][1]["revealed"] = True
    assert hit_number(state, "OBED", "GLADIATOR", "CARBINE") == before + 1


def test_marksman_ignores_woods_swamp_and_fire_on_the_line():
    # B1 -> F2: three woods on the line and a rough target: -4, for Ysolde only the -1
    state = make({"YSOLDE": ("White", "B1", ["CARBINE"]), "DEX": ("White", "A9", []),
                  "GLADIATOR": ("Black", "F2", [])})
    assert hit_number(state, "YSOLDE", "GLADIATOR", "CARBINE") == \
        challenge_number("white", "green", -1)
    state["chars"]["DEX"]["space"] = "B1"
    state["chars"]["DEX"]["cards"] = state["chars"]["YSOLDE"]["cards"]
    assert hit_number(state, "DEX", "GLADIATOR", "CARBINE") == \
        challenge_number("green", "green", -4)


# -- melee modifiers: dread (the Tyrant), dodge (the Gladiator) ------------------------------
def test_dread_costs_enemies_in_his_space_two():
    state = make({"SARGE": ("White", "F5", []), "ROGUE": ("Black", "F5", []),
                  "TYRANT": ("Black", "F5", [])})
    assert hit_number(state, "SARGE", "ROGUE", None) == 6     # yellow vs green 8, -2
    assert hit_number(state, "ROGUE", "SARGE", None) == 7     # his allies are not afraid
    state["chars"]["TYRANT"]["space"] = "F6"
    assert hit_number(state, "SARGE", "ROGUE", None) == 8


def test_dodge():
    state = make({"SARGE": ("White", "F5", []), "GLADIATOR": ("Black", "F5", [])})
    assert hit_number(state, "SARGE", "GLADIATOR", None) == 7   # yellow vs green 8, -1


# -- challenges: guardian_bonus, tower_bonus ------------------------------------------------
def test_guardian_bonus():
    # the Oracle (Strength red) against the Bronze Warden (Strength vs yellow): 4, +1
    # ancient, +1 her ability = 6
    state = make({"ORACLE": ("White", "F1", [])})
    _, events = play(state, {"White": "CHALLENGE ORACLE"},
                     [("guardian", 6), ("guardian", 6), ("banished", 1)])
    assert kinds(events, "guardian")[0]["number"] == 6


def test_a_lantern_shown_gives_the_guardian_bonus():
    state = make({"KORVATH": ("White", "F1", ["LANTERN"])})
    _, events = play(state, {"White": "USE KORVATH\nCHALLENGE KORVATH"},
                     [("guardian", 6), ("guardian", 6), ("banished", 1)])
    # Strength yellow vs yellow = 7, +1 ancient, +1 lantern
    assert kinds(events, "guardian")[0]["number"] == 9


def test_tower_bonus_but_never_the_age_bonus():
    # the Psion (Wits white, future) in the Tower of Desperation (Wits vs green): 9, +1
    state = make({"PSION": ("White", "E5", [])})
    _, events = play(state, {"White": ""}, [("tower", 1), ("tower", 2), ("dismissed", 1)])
    assert kinds(events, "tower")[0]["number"] == 10


# -- opportunity fire: opfire_bonus --------------------------------------------------------
def test_opfire_bonus_gives_another_shot():
    # the Sniper with the Longbow (OpFire 1) shoots twice, at two movers in two spaces
    state = make({"DEX": ("White", "D9", []), "OBED": ("White", "G9", []),
                  "SNIPER": ("Black", "G7", ["LONGBOW"])})
    _, events = play(state, {"White": "MOVE DEX TO D6\nMOVE OBED TO F9 E8",
                             "Black": "FIRE SNIPER"}, [("opfire/hit", 6), ("opfire/hit", 5)] * 2)
    assert len({a["target"] for a in kinds(events, "attack")}) == 2


# -- healing: medic, regenerate --------------------------------------------------------------
def test_medic_heals_wounded_allies_in_her_space_not_herself():
    state = make({"INES": ("White", "F5", [], 3), "DEX": ("White", "F5", [], 2),
                  "OBED": ("White", "F6", [], 2)})
    after, events = play(state, {"White": ""}, [])
    health = {k: after["chars"][k]["health"] for k in ("INES", "DEX", "OBED")}
    assert health == {"INES": 3, "DEX": 3, "OBED": 2}
    assert "healing ability" in ENGINE.report(events, None)


def test_regenerate_on_his_own_turn_only():
    state = make({"CYBORG": ("White", "F5", [], 3), "SEVEN": ("Black", "J1", [], 3)})
    after, _ = play(state, {"White": "", "Black": ""}, [])
    assert (after["chars"]["CYBORG"]["health"], after["chars"]["SEVEN"]["health"]) == (4, 3)


# -- carrying: carry -------------------------------------------------------------------------
def test_carry_lets_him_hold_five():
    state = make({"TROOPER": ("White", "D8", ["SLING", "TONIC", "SPEAR", "HERBS"]),
                  "DEX": ("White", "D8", ["CUTLASS", "JERKIN", "HELM", "GLADIUS"])},
                 ground={"D7": ["LONGBOW"]})
    after, _ = play(state, {"White": "MOVE TROOPER TO D7 PICKUP\nMOVE DEX TO D7 PICKUP"}, [])
    assert len(after["chars"]["TROOPER"]["cards"]) == 5


# -- movement: slippery, tunnel_rat ----------------------------------------------------------
@pytest.mark.parametrize("who, end", [("ROGUE", "F3"), ("DEX", "D3")])
def test_slippery_is_not_stopped_by_an_enemy(who, end):
    state = make({who: ("White", "B2", []), "KORVATH": ("Black", "D3", [])})
    after, _ = play(state, {"White": f"MOVE {who} TO D3 F3\nHOLD {who}",
                            "Black": "HOLD KORVATH"}, [])
    assert after["chars"][who]["space"] == end


def test_tunnel_rat_goes_down_and_up_for_nothing():
    # B2 down, B2..B8 (6), up: 6 for the Sapper (Speed 6), 8 for anyone else
    state = make({"SAPPER": ("White", "B2", []), "INES": ("White", "B2", [])})
    after, _ = play(state, {"White": "MOVE SAPPER TO DOWN B8 UP\nMOVE INES TO DOWN B8 UP"},
                    [])
    assert position(after, "SAPPER") == ("B8", False)
    assert position(after, "INES") == ("B7", True)


@pytest.mark.parametrize("revision, who, order, end", [
    (3, "ROGUE", "MOVE ROGUE TO D3 F3", ("D3", False)),        # on a mount: stopped
    (2, "ROGUE", "MOVE ROGUE TO D3 F3", ("F3", False)),        # before revision 3: not
    (3, "SAPPER", "MOVE SAPPER TO DOWN B8 UP A8", ("B8", False)),  # 1 + 6 + 1 of 8
    (2, "SAPPER", "MOVE SAPPER TO DOWN B8 UP A8", ("A8", False)),  # 0 + 6 + 0 + 1
])
def test_special_movement_is_lost_on_a_mount(revision, who, order, end):
    """Slippery and tunnel rat are special movement, which a character riding a mount
    does not use (the Amazon on the Chariot pays 3 for swamp)."""
    state = make({who: ("White", "B2", ["JUMPPACK"]), "KORVATH": ("Black", "D3", [])},
                 revision=revision)
    after, _ = play(state, {"White": f"RIDE {who}\n{order}\nHOLD {who}",
                            "Black": "HOLD KORVATH"}, [])
    assert after["chars"][who]["mount"] == "JUMPPACK"
    assert position(after, who) == end


def position(state, key):
    return state["chars"][key]["space"], state["chars"][key]["down"]


# -- the Hit modifiers above, played by orders: the number the roll is made at -----------
LANE = field(".", "W", "S", "S", "R")
"""Column A: a woods and two swamps on the line from A1, rough under the target in A5."""
CLOSE = field(". . .")


@pytest.mark.parametrize("chars, orders, number, why", [
    ({"AMAZON": ("White", "A1", ["LONGBOW"]), "KORVATH": ("Black", "A5", [])},
     "FIRE AMAZON WITH LONGBOW", 6, "Throw green vs red 9, +1 bow, -4 terrain"),
    ({"AMAZON": ("White", "A1", ["SLING"]), "KORVATH": ("Black", "A5", [])},
     "FIRE AMAZON WITH SLING", 5, "the Sling is thrown, not a bow: no bonus"),
    ({"YSOLDE": ("White", "A1", ["CARBINE"]), "KORVATH": ("Black", "A5", [])},
     "FIRE YSOLDE", 10, "marksman: Aim white vs red 11, only the rough -1"),
    ({"DEX": ("White", "A1", ["CARBINE"]), "KORVATH": ("Black", "A5", [])},
     "FIRE DEX", 5, "Aim green vs red 9, -4 terrain"),
])
def test_ranged_hit_abilities_in_play(chars, orders, number, why):
    shooter = orders.split()[1]
    state = make(chars, map_=LANE)
    _, events = play(state, {"White": orders, "Black": ""},
                     [("fire/hit", 6), ("fire/hit", 5)])
    attack = kinds(events, "attack")[0]
    assert (attack["char"], attack["hit"]["number"]) == (shooter, number), why


@pytest.mark.parametrize("chars, orders, number, why", [
    ({"AMAZON": ("White", "A1", ["GLADIUS"]), "ROGUE": ("Black", "A1", [])},
     "MELEE AMAZON WITH NATURAL", 8, "brawler: Melee green vs React green 7, +1"),
    ({"AMAZON": ("White", "A1", ["GLADIUS"]), "ROGUE": ("Black", "A1", [])},
     "MELEE AMAZON WITH GLADIUS", 7, "a blade is not bare hands"),
    ({"SARGE": ("White", "A1", []), "GLADIATOR": ("Black", "A1", [])},
     "MELEE SARGE", 7, "dodge: Melee yellow vs React green 8, -1"),
    ({"SARGE": ("White", "A1", []), "ROGUE": ("Black", "A1", [])},
     "MELEE SARGE", 8, "the Rogue does not dodge"),
    ({"SARGE": ("White", "A1", []), "ROGUE": ("Black", "A1", []),
      "TYRANT": ("Black", "A1", [])}, "MELEE SARGE AT ROGUE", 6, "dread: the Tyrant, -2"),
    ({"SARGE": ("White", "A1", []), "ROGUE": ("Black", "A1", []),
      "TYRANT": ("Black", "B1", [])}, "MELEE SARGE AT ROGUE", 8, "the Tyrant elsewhere"),
])
def test_melee_hit_abilities_in_play(chars, orders, number, why):
    fighter = orders.split()[1]
    black = "\n".join(f"HOLD {k}" for k, c in chars.items() if c[0] == "Black")
    state = make(chars, map_=CLOSE)
    _, events = play(state, {"White": orders, "Black": black},
                     [(f"melee/hit/{fighter}", 6), (f"melee/hit/{fighter}", 5)])
    attack = kinds(events, "attack")[0]
    assert (attack["char"], attack["hit"]["number"]) == (fighter, number), why
