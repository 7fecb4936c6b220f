"""The rulebook's worked examples, played with the characters and cards they name."""

from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play


def test_ranged_attack_example():
    # The Amazon (Point green) fires the Accelerator Tube (range 6, Penetration red,
    # Damage 2) at the Gladiator (Stealth green, Armor blue, Health 5) four spaces away:
    # 7, -4 for terrain. Our field has no line with exactly one woods and two swamps
    # before a rough space; B1 -> F2 crosses three woods into rough: the same -4.
    state = make({"AMAZON": ("White", "B1", ["ACCELERATOR"]),
                  "GLADIATOR": ("Black", "F2", [])})
    after, events = play(state, {"White": "FIRE AMAZON AT GLADIATOR WITH ACCELERATOR",
                                 "Black": "HOLD GLADIATOR"},
                         [("fire/hit", 1), ("fire/hit", 2),        # 3: SQUEAK, a hit
                          ("fire/damage", 2), ("fire/damage", 4)])  # 6: SQUEAK, 2 - 1
    shot = kinds(events, "attack")[0]
    assert (shot["hit"]["number"], shot["hit"]["level"]) == (3, "SQUEAK")
    assert (shot["wound"]["number"], shot["wound"]["level"], shot["damage"]) == \
        (6, "SQUEAK", 1)
    assert after["chars"]["GLADIATOR"]["health"] == 4
    assert [c["card"] for c in after["chars"]["AMAZON"]["cards"]] == ["ACCELERATOR"]  # P


def test_melee_attack_example():
    # Sarge (Melee yellow, Claymore Damage 4) fights the Rogue (Melee green, Stiletto
    # Damage 1) and the Tyrant (Melee green, natural Damage 2) in one space. The "-2" on
    # Sarge's roll is the Tyrant's dread: enemies in his space suffer -2 to Hit in melee.
    state = make({"SARGE": ("White", "F5", ["CLAYMORE"]),
                  "ROGUE": ("Black", "F5", ["STILETTO"]), "TYRANT": ("Black", "F5", [])})
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


def test_the_amazon_challenges_the_sphinx():
    # Wits blue vs green = 6, +1 for her own (ancient) labyrinth: "7 to Squeak"; a 4 is a
    # PASS: the Sphinx goes under the deck, White's position moves one space toward the
    # entrance, the Amazon draws one card and is dismissed.
    state = make({"AMAZON": ("White", "F1", [])})
    deck = state["labyrinths"]["ancient"]["deck"]
    deck.insert(0, deck.pop(deck.index("SPHINX")))
    after, events = play(state, {"White": "CHALLENGE AMAZON"},
                         [("guardian", 1), ("guardian", 3), ("dismissed", 2)])
    seen = kinds(events, "guardian")[0]
    assert (seen["number"], seen["level"], seen["bonus"]) == (7, "PASS", 1)
    assert after["labyrinths"]["ancient"]["deck"][-1] == "SPHINX"
    assert after["labyrinths"]["ancient"]["positions"]["White"] == 1
    assert len(after["chars"]["AMAZON"]["cards"]) == 1
    assert kinds(events, "placed")[0]["how"] == "dismissed"
    assert "The Sphinx" in ENGINE.report(events, "Black")


def test_banishment_example():
    # The Amazon is banished; Black rolls 6; dome 6 is taken, so she goes to dome 1.
    state = make({"AMAZON": ("White", "G1", []), "TYRANT": ("Black", "K9", [])})
    after, events = play(state, {"White": "", "Black": "HOLD TYRANT"},
                         [("tower", 6), ("tower", 4), ("banished", 6)])   # Havoc: FAIL
    placed = kinds(events, "placed")[0]
    assert (placed["how"], placed["roller"], placed["die"]) == ("banished", "Black", 6)
    assert after["chars"]["AMAZON"]["space"] == "A1"               # dome 1


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


def test_movement_example():
    # Six characters with Speed 6, on our field (which has no tunnel entrance in a
    # building and no swamp beside a tower, so B and D keep their point, not their
    # exact terrain):
    # A: building 3, clear 1, down 1, one tunnel space 1 = 6.
    # B: one tunnel space 1, up 1 (coming up costs 1 whatever the surface).
    # C: two waters 2 + 2, then a building (3) is too dear with 2 left.
    # D: clear 1, tower 1: a tower ends the move at once.
    # E: no order, no move.  F: starts in a dome and must leave it.
    state = make({"INES": ("White", "G7", []), "PSION": ("White", "I6/t", []),
                  "MUSKETEER": ("White", "E8", []), "MERCENARY": ("White", "F3", []),
                  "ENVOY": ("White", "C3", []), "TROOPER": ("White", "A1", [])})
    after, events = play(state, {"White": "MOVE INES TO H8 I8 DOWN I7\n"
                                          "MOVE PSION TO I5 UP\n"
                                          "MOVE MUSKETEER TO F7 F8 G8\n"
                                          "MOVE MERCENARY TO G3 H3 I3"},
                         [("tower", 6), ("tower", 6), ("banished", 1)])  # D must challenge it
    where = {k: (c["space"], c["down"]) for k, c in after["chars"].items()
             if c["status"] == "map"}
    moves = {m["char"]: m for m in kinds(events, "move")}
    assert where["INES"] == ("I7", True) and moves["INES"]["stop"] is None
    assert where["PSION"] == ("I5", False)
    assert where["MUSKETEER"] == ("F8", False)
    assert moves["MUSKETEER"]["stop"] == "out of move points"
    assert moves["MERCENARY"]["path"] == ["G3", "H3"]
    assert moves["MERCENARY"]["stop"] == "a tower ends movement"
    assert where["ENVOY"] == ("C3", False) and "ENVOY" not in moves
    assert where["TROOPER"][0] != "A1" and moves["TROOPER"]["stop"] == "had to leave the dome"
