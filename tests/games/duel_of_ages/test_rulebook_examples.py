"""The rulebook's worked examples, each played with the characters and cards it names on
the terrain it describes (built with `field`, not borrowed from the skirmish field).

The inventory of every example and every Chief Weewak clarification, with the test that
plays it, is `README.md` in this folder; the opportunity-fire examples are in
`test_opfire_examples.py`.
"""

import pytest

from games.duel_of_ages import hexmap
from games.duel_of_ages.engine import ENGINE

from .helpers import field, kinds, make, play

# -- Ranged Attack Example ---------------------------------------------------------------
# The Amazon in clear A1 fires down column A: one woods, two swamps, the Gladiator in
# rough four spaces away.
RANGED = field(".", "W", "S", "S", "R", ".")


def test_ranged_attack_example():
    with hexmap.using(RANGED):
        line = [hexmap.terrain()[s] for s in hexmap.touched("A1", "A5")]
        assert line == ["clear", "woods", "swamp", "swamp", "rough"]
        assert hexmap.distance("A1", "A5") == 4          # within the Tube's range of 6
    state = make({"AMAZON": ("White", "A1", ["ACCELERATOR"]),
                  "GLADIATOR": ("Black", "A5", [])}, map_=RANGED)
    after, events = play(state, {"White": "FIRE AMAZON AT GLADIATOR WITH ACCELERATOR",
                                 "Black": "HOLD GLADIATOR"},
                         [("fire/hit", 1), ("fire/hit", 2),        # 3: SQUEAK, a hit
                          ("fire/damage", 2), ("fire/damage", 4)])  # 6: SQUEAK, 2 - 1
    shot = kinds(events, "attack")[0]
    # Point green vs Stealth green 7; woods, swamp, swamp -3; target in rough -1
    assert (shot["hit"]["number"], shot["hit"]["level"]) == (3, "SQUEAK")
    # Penetration red vs Armor blue
    assert (shot["wound"]["number"], shot["wound"]["level"], shot["damage"]) == \
        (6, "SQUEAK", 1)
    assert after["chars"]["GLADIATOR"]["health"] == 4
    assert {"char": "AMAZON", "card": "ACCELERATOR"} in kinds(events, "reveal")
    assert [c["card"] for c in after["chars"]["AMAZON"]["cards"]] == ["ACCELERATOR"]  # P


def test_the_accelerator_tube_is_kept_after_a_kill():
    # "not lost when it kills an enemy character (Permanent)"; a K card would go
    state = make({"AMAZON": ("White", "A1", ["ACCELERATOR"]),
                  "GLADIATOR": ("Black", "A5", [], 1)}, map_=RANGED)
    after, events = play(state, {"White": "FIRE AMAZON AT GLADIATOR", "Black": ""},
                         [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1),
                          ("fire/damage", 1)])
    assert after["chars"]["GLADIATOR"]["status"] == "dead"
    assert not kinds(events, "card_lost")
    assert [c["card"] for c in after["chars"]["AMAZON"]["cards"]] == ["ACCELERATOR"]


# "Range is counted with spaces, not move cost": three woods between are three spaces.
THREE_WOODS = field(".", "W", "W", "W", ".")


@pytest.mark.parametrize("weapon, shots", [("REVOLVER", 1), ("FLINTLOCK", 0)])
def test_range_through_three_woods_is_counted_in_spaces(weapon, shots):
    # REVOLVER range 4 reaches A5; the FLINTLOCK's range 3 does not (by move cost it
    # would be 2 + 2 + 2 + 1 = 7 and neither would)
    state = make({"OBED": ("White", "A1", [weapon]), "KORVATH": ("Black", "A5", [])},
                 map_=THREE_WOODS)
    script = [("fire/hit", 6), ("fire/hit", 6)] if shots else []
    _, events = play(state, {"White": "FIRE OBED AT KORVATH", "Black": ""}, script)
    attacks = kinds(events, "attack")
    assert len(attacks) == shots
    if shots:
        # Point yellow vs Stealth red 10, +1 pistol bonus, -3 for the three woods
        assert attacks[0]["hit"]["number"] == 8
    else:
        assert kinds(events, "no_shot")[0]["why"] == "A5 is out of range"


@pytest.mark.parametrize("aim, rolls, hit", [
    ("SEVEN", (3, 2, 2), "SEVEN"),      # B and C tie lowest: the attacker picks, B
    ("OBED", (3, 2, 2), "OBED"),        # ... or C
    ("SEVEN", (3, 2, 1), "OBED"),       # C alone lowest: C is hit whatever was aimed at
])
def test_random_target_example(aim, rolls, hit):
    # A (KORVATH), B (SEVEN) and C (OBED) share a space; A rolls 3, B 2, C 2
    state = make({"TAMSIN": ("White", "A1", ["SLING"]), "KORVATH": ("Black", "A4", []),
                  "SEVEN": ("Black", "A4", []), "OBED": ("Black", "A4", [])},
                 map_=field(".", ".", ".", "."))
    # the crowd rolls in the engine's order of characters (by key): A, C, B
    script = [("fire/random-target/KORVATH", rolls[0]),
              ("fire/random-target/OBED", rolls[2]),
              ("fire/random-target/SEVEN", rolls[1]),
              ("fire/hit", 6), ("fire/hit", 6)]
    _, events = play(state, {"White": f"FIRE TAMSIN AT {aim}", "Black": ""}, script)
    assert kinds(events, "attack")[0]["target"] == hit


# -- Grenade "Blind Throw" --------------------------------------------------------------
# A in A1 throws down column A: C stands in the building A2, the dome A3 lies beyond it
# and B stands in A4, three spaces away and out of sight.
GRENADE = field(".", "B", "1", ".", ".")


@pytest.mark.parametrize("target, penalty, why", [
    ("GLADIATOR", 2, "at B over the building and the dome: -1 each, as woods"),
    ("ENVOY", 1, "at C in the building: -1 as woods instead of -2"),
])
def test_grenade_blind_throw_example(target, penalty, why):
    state = make({"TAMSIN": ("White", "A1", ["GRENADE", "SLING"]),
                  "GLADIATOR": ("Black", "A4", []), "ENVOY": ("Black", "A2", [])},
                 map_=GRENADE)
    with hexmap.using(GRENADE):
        assert not hexmap.sees("A1", "A4")
    after, events = play(state, {"White": f"FIRE TAMSIN AT {target} WITH GRENADE",
                                 "Black": ""},
                         [("fire/hit", 6), ("fire/hit", 5)])
    shot = kinds(events, "attack")[0]
    # Throw yellow vs Stealth green 8 for both targets
    assert (shot["target"], shot["hit"]["number"]) == (target, 8 - penalty), why
    assert {"char": "TAMSIN", "card": "GRENADE", "why": "used up"} in \
        kinds(events, "card_lost")


def test_without_a_grenade_b_is_out_of_sight():
    state = make({"TAMSIN": ("White", "A1", ["GRENADE", "SLING"]),
                  "GLADIATOR": ("Black", "A4", [])}, map_=GRENADE)
    _, events = play(state, {"White": "FIRE TAMSIN AT GLADIATOR WITH SLING", "Black": ""},
                     [])
    assert kinds(events, "no_shot")[0]["why"] == "has no line of sight to A4"


@pytest.mark.parametrize("thrower, target", [
    ("A4", "A3"),       # into a dome
    ("A3", "A5"),       # out of a dome (he fires before he must leave it)
])
def test_grenades_cannot_be_thrown_into_or_out_of_a_dome(thrower, target):
    state = make({"TAMSIN": ("White", thrower, ["GRENADE"]),
                  "GLADIATOR": ("Black", target, [])}, map_=GRENADE)
    after, events = play(state, {"White": "FIRE TAMSIN AT GLADIATOR", "Black": ""}, [])
    assert not kinds(events, "attack")
    assert "cannot throw" in kinds(events, "no_shot")[0]["why"]


# -- Movement Example -------------------------------------------------------------------
# Six lanes, one per character, kept apart by rows of the fallen statue:
#   A: A1 clear, B1 building, C1 clear with a tunnel entrance, the tunnel C1-D1-E1
#   B: in the tunnel under A3, which runs to B3, a building with an entrance
#   C: A5 clear, B5 and C5 water, D5 building
#   D: A7 clear, B7 clear, C7 swamp, D7 the Tower of Desperation
#   E and F: E in A9; F in the dome B9, beside the clear A9 and C9
MOVEMENT = field(". B . . . . .",
                 "X X X X X X X",
                 ". B . . . . .",
                 "X X X X X X X",
                 ". ~ ~ B . . .",
                 "X X X X X X X",
                 ". . S T . . .",
                 "X X X X X X X",
                 ". 1 . . . . .",
                 towers={"D7": "desperation"},
                 tunnels=[["C1", "D1", "E1"], ["A3", "B3"]], entrances=["C1", "B3"])
SIX = {"INES": ("White", "A1", []), "PSION": ("White", "A3/t", []),
       "MUSKETEER": ("White", "A5", []), "MERCENARY": ("White", "A7", []),
       "ENVOY": ("White", "A9", []), "TROOPER": ("White", "B9", [])}
"""A-F, all Speed 6 with no special movement."""


def test_movement_example():
    state = make(SIX, map_=MOVEMENT)
    after, events = play(state, {"White": "MOVE INES TO B1 C1 DOWN D1\n"
                                          "MOVE PSION TO B3 UP\n"
                                          "MOVE MUSKETEER TO D5\n"
                                          "MOVE MERCENARY TO D7 E7"},
                         # D is in a tower: Wits green vs green 7, a 6 PASSes: banished
                         [("tower", 3), ("tower", 3), ("banished", 1)])
    where = {k: (c["space"], c["down"]) for k, c in after["chars"].items()}
    moves = {m["char"]: m for m in kinds(events, "move")}
    # A: building 3, clear 1, down 1, one tunnel space 1: all six points, no stop
    assert moves["INES"]["path"] == ["B1", "C1", "D1(tunnel)"]
    assert where["INES"] == ("D1", True) and moves["INES"]["stop"] is None
    # B: one tunnel space 1, up 1 into the building without paying its 3
    assert where["PSION"] == ("B3", False)
    # C: two waters 2 + 2; the building would cost 3 with 2 left
    assert moves["MUSKETEER"]["path"] == ["B5", "C5"]
    assert moves["MUSKETEER"]["stop"] == "out of move points"
    # D: clear 1, swamp 3, tower 1, and the tower ends his move (E7 is not reached)
    assert moves["MERCENARY"]["path"] == ["B7", "C7", "D7"]
    assert moves["MERCENARY"]["stop"] == "a tower ends movement"
    assert kinds(events, "tower")[0]["char"] == "MERCENARY"
    # E: no order, no move.  F: starts in a dome and must leave it, to a clear space
    assert where["ENVOY"] == ("A9", False) and "ENVOY" not in moves
    assert moves["TROOPER"]["stop"] == "had to leave the dome"
    with hexmap.using(MOVEMENT):
        assert hexmap.terrain()[where["TROOPER"][0]] == "clear"


def test_movement_example_b_comes_up_for_one_point():
    # B's two points: with the four left he still walks the four clear spaces beyond the
    # building (coming up at the building's cost of 3 would leave him two)
    state = make(SIX, map_=MOVEMENT)
    after, _ = play(state, {"White": "MOVE PSION TO B3 UP F3"},
                    [])
    assert after["chars"]["PSION"]["space"] == "F3"


def test_movement_example_d_cannot_enter_an_occupied_tower():
    state = make({**SIX, "KORVATH": ("Black", "D7", [])}, map_=MOVEMENT)
    after, events = play(state, {"White": "MOVE MERCENARY TO D7", "Black": ""}, [])
    move = {m["char"]: m for m in kinds(events, "move")}["MERCENARY"]
    assert (move["path"], move["stop"]) == (["B7", "C7"], "the way is blocked")


@pytest.mark.parametrize("enemy, order, end, stop", [
    ("C1", "B1 C1 DOWN D1", ("C1", False), "an enemy is there"),   # on the surface: stops
    ("C1/t", "B1 C1 D1 E1", ("E1", False), None),     # below: A walks over him
    ("D1", "B1 C1 DOWN D1", ("D1", True), None),      # above: A passes under him
])
def test_movement_example_enemies_stop_only_in_their_own_layer(enemy, order, end, stop):
    state = make({**SIX, "KORVATH": ("Black", enemy, [])}, map_=MOVEMENT)
    after, events = play(state, {"White": f"MOVE INES TO {order}\nHOLD INES",
                                 "Black": "HOLD KORVATH"}, [])
    assert (after["chars"]["INES"]["space"], after["chars"]["INES"]["down"]) == end
    assert {m["char"]: m for m in kinds(events, "move")}["INES"]["stop"] == stop


# -- Dismissal and Banishment example -----------------------------------------------------
# Two domes numbered 6 (A1, C1), a dome 1 (E1), and the Tower of Havoc in G1.
DOMES = field("6 . 6 . 1 . T", towers={"G1": "havoc"})


@pytest.mark.parametrize("others, dome", [
    ({"TYRANT": ("Black", "A1", []), "ROGUE": ("Black", "C1", [])}, "E1"),  # both 6 full
    ({"TYRANT": ("Black", "A1", [])}, "C1"),                              # one 6 is free
])
def test_banishment_example(others, dome):
    # The Amazon (Team White) is banished: Team Black rolls one die, a 6; with both
    # domes 6 taken she goes to a dome 1.
    state = make({"AMAZON": ("White", "G1", []), **others}, map_=DOMES)
    after, events = play(state, {"White": "", "Black": ""},
                         # Havoc: Strength green vs green 7; a 10 FAILs: banished
                         [("tower", 6), ("tower", 4), ("banished", 6)])
    placed = kinds(events, "placed")[0]
    assert (placed["how"], placed["roller"], placed["die"]) == ("banished", "Black", 6)
    assert after["chars"]["AMAZON"]["space"] == dome


# -- Melee Attack Example ---------------------------------------------------------------
def test_melee_attack_example():
    # Sarge (Melee yellow, Claymore Damage 4) fights the Rogue (Melee green, Stiletto
    # Damage 1) and the Tyrant (Melee green, natural Damage 2) in one space. The "-2" on
    # Sarge's roll is the Tyrant's dread: enemies in his space suffer -2 to Hit in melee.
    # Melee ignores terrain, so the clear space of the example's picture is enough.
    state = make({"SARGE": ("White", "A1", ["CLAYMORE"]),
                  "ROGUE": ("Black", "A1", ["STILETTO"]), "TYRANT": ("Black", "A1", [])},
                 map_=field(". ."))
    after, events = play(state, {"White": "MELEE SARGE AT ROGUE WITH CLAYMORE",
                                 "Black": "MELEE ROGUE AT SARGE WITH STILETTO\n"
                                          "MELEE TYRANT AT SARGE WITH NATURAL"},
                         [("melee/hit/SARGE", 2), ("melee/hit/SARGE", 3),       # 5
                          ("melee/damage/SARGE", 1), ("melee/damage/SARGE", 2),  # 3
                          ("melee/hit/ROGUE", 3), ("melee/hit/ROGUE", 4),       # 7
                          ("melee/damage/ROGUE", 5), ("melee/damage/ROGUE", 6),  # 11
                          ("melee/hit/TYRANT", 4), ("melee/hit/TYRANT", 5)])    # 9
    sarge, rogue, tyrant = kinds(events, "attack")
    assert (sarge["hit"]["number"], sarge["hit"]["level"]) == (6, "PASS")
    assert (sarge["wound"]["number"], sarge["wound"]["level"], sarge["damage"]) == \
        (8, "AMAZE", 5)
    assert (rogue["hit"]["number"], rogue["hit"]["level"]) == (7, "SQUEAK")
    assert (rogue["wound"]["number"], rogue["wound"]["level"], rogue["damage"]) == \
        (10, "FAIL", 0)
    assert (tyrant["hit"]["number"], tyrant["hit"]["level"]) == (7, "FAIL")
    assert after["chars"]["ROGUE"]["status"] == "dead"            # he still struck
    assert after["chars"]["SARGE"]["health"] == 6                 # unharmed
    assert {"char": "SARGE", "card": "CLAYMORE", "why": "spent on a kill"} in \
        kinds(events, "card_lost")
    assert after["ground"]["A1"] == [{"card": "STILETTO", "revealed": True}]


# -- Example: The Amazon Challenges the Sphinx ------------------------------------------
def test_the_amazon_challenges_the_sphinx():
    # Wits blue vs green = 6, +1 for her own (ancient) labyrinth: "7 to Squeak"; a 4 is a
    # PASS: the Sphinx goes under the deck, White's position moves one space toward the
    # entrance, the Amazon draws one card and is dismissed.
    lab = field(". . . 1", labyrinths={"ancient": ["A1", "B1", "C1"]})
    state = make({"AMAZON": ("White", "C1", [])}, map_=lab)
    deck = state["labyrinths"]["ancient"]["deck"]
    deck.insert(0, deck.pop(deck.index("SPHINX")))
    after, events = play(state, {"White": "CHALLENGE AMAZON"},
                         [("guardian", 1), ("guardian", 3), ("dismissed", 2)])
    seen = kinds(events, "guardian")[0]
    assert (seen["number"], seen["level"], seen["bonus"]) == (7, "PASS", 1)
    assert after["labyrinths"]["ancient"]["deck"][-1] == "SPHINX"
    assert not after["labyrinths"]["ancient"]["face_up"]
    assert after["labyrinths"]["ancient"]["positions"] == {"White": 1, "Black": 2}
    assert len(after["chars"]["AMAZON"]["cards"]) == 1
    assert kinds(events, "placed")[0]["how"] == "dismissed"
    assert after["chars"]["AMAZON"]["space"] == "D1"
    assert "The Sphinx" in ENGINE.report(events, "Black")


# -- Tie-Breaker example ----------------------------------------------------------------
def test_tie_breaker_example():
    # White has 2 survivors, Black 3: a point to Black. White leads the ancient and future
    # labyrinths (2 points), Black the modern (1), nobody the colonial: 2 to 2, play goes
    # on. Black defeats the future guardian: its marker joins White's, White loses that
    # point, 1 to 2, and Black wins at once.
    state = make({"DEX": ("White", "A3", []), "INES": ("White", "C5", []),
                  "SEVEN": ("Black", "K8", []), "OBED": ("Black", "F9", []),
                  "TAMSIN": ("Black", "A7", [])},
                 active="Black", round_=11, rounds=10,
                 labyrinths={"ancient": {"positions": {"White": 1, "Black": 2}},
                             "future": {"positions": {"White": 1, "Black": 2}},
                             "modern": {"positions": {"White": 2, "Black": 1}}})
    state["sudden_death"] = True
    deck = state["labyrinths"]["future"]["deck"]
    deck.insert(0, deck.pop(deck.index("ROGUE_ANDROID")))
    # SEVEN (future): Melee blue vs yellow = 5, +1 = 6; a 2 is an AMAZE
    after, events = play(state, {"Black": "CHALLENGE SEVEN\nMOVE OBED TO F8",
                                 "White": "HOLD DEX"},
                         [("guardian", 1), ("guardian", 1), ("dismissed", 3)])
    assert after["labyrinths"]["future"]["positions"] == {"White": 1, "Black": 1}
    assert (after["over"], after["winner"]) == (True, "Black")
    assert after["summary"] == "sudden death: 1 to 2 points (2 to 3 characters alive)"
