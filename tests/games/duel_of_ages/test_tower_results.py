"""Every tower at every success level, as one table (state + orders -> outcome), played on
a field with the five towers and six domes.

The challenger is always KORVATH (Team White, Strength yellow, Wits red, Health 3 of 7,
one face-down Sling): Desperation Wits vs green 5, Great Vortex the better of his
Strength and Wits (yellow) vs yellow 7, Knowledge Wits vs blue 6, Havoc Strength vs green
8, Maneuver Strength vs blue 9; every level can be rolled against each. His ally OBED
waits beside; the enemy has SEVEN and TAMSIN (two face-down cards each) and INES (one).
The dome dice are all 1s (dome 1, then the next number up).
"""

import pytest

from .helpers import field, kinds, make, play

TOWERS = field("1 . 2 . 3 . 4 . 5 . 6",
               ". . . . . . . . . . .",
               "T . T . T . T . T . .",
               towers={"A3": "desperation", "C3": "vortex", "E3": "knowledge",
                       "G3": "havoc", "I3": "maneuver"})
WHERE = {"desperation": "A3", "vortex": "C3", "knowledge": "E3", "havoc": "G3",
         "maneuver": "I3"}
NUMBER = {"desperation": 5, "vortex": 7, "knowledge": 6, "havoc": 8, "maneuver": 9}
CAST = {"OBED": ("White", "K2", []),
        "SEVEN": ("Black", "B2", ["CARBINE", "CUTLASS"]),
        "INES": ("Black", "D2", ["SPEAR"]),
        "TAMSIN": ("Black", "F2", ["TONIC", "WARAXE"])}


def _dice(level: str, number: int) -> list[int]:
    total = {"AMAZE": 2, "PASS": number - 1, "SQUEAK": number, "FAIL": number + 1,
             "FOPP": 12}[level]
    return [1, total - 1] if total <= 7 else [total - 6, 6]


K = "KORVATH"
D, B = "dismissed", "banished"


@pytest.mark.parametrize("tower, level, order, health, cards, placed, effect", [
    # Tower of Desperation: damage, then banished; AMAZE dismissed; FOPP killed
    ("desperation", "AMAZE", "", 3, ["SLING"], [(K, D)], None),
    ("desperation", "PASS", "", 3, ["SLING"], [(K, B)], None),
    ("desperation", "SQUEAK", "", 2, ["SLING"], [(K, B)], None),
    ("desperation", "FAIL", "", 1, ["SLING"], [(K, B)], None),
    ("desperation", "FOPP", "", 0, [], [], ("discarded", ["SLING"])),  # in a tower: no pile
    # Great Vortex: healing up to 1/2/4 if wounded, always banished; FOPP loses all, 1 hurt
    ("vortex", "AMAZE", "", 7, ["SLING"], [(K, B)], None),
    ("vortex", "PASS", "", 5, ["SLING"], [(K, B)], None),
    ("vortex", "SQUEAK", "", 4, ["SLING"], [(K, B)], None),
    ("vortex", "FAIL", "", 3, ["SLING"], [(K, B)], None),
    ("vortex", "FOPP", "", 2, [], [(K, B)], ("discarded", ["SLING"])),
    # Tower of Knowledge: the enemy shows 4/2/1 face-down cards; FOPP shows his own
    ("knowledge", "AMAZE", "", 3, ["SLING"], [(K, D)], ("shown", 4)),
    ("knowledge", "PASS", "", 3, ["SLING"], [(K, D)], ("shown", 2)),
    ("knowledge", "SQUEAK", "", 3, ["SLING"], [(K, D)], ("shown", 1)),
    ("knowledge", "FAIL", "", 3, ["SLING"], [(K, D)], ("shown", 0)),
    ("knowledge", "FOPP", "", 3, ["SLING"], [(K, B)], ("shown", -1)),
    # Tower of Havoc: an enemy giver hands all his cards to an enemy receiver
    ("havoc", "AMAZE", "HAVOC KORVATH GIVER TAMSIN RECEIVER INES", 3, ["SLING"], [(K, D)],
     ("havoc", ("TAMSIN", "INES", 2))),                       # we choose both
    ("havoc", "PASS", "HAVOC KORVATH GIVER TAMSIN RECEIVER SEVEN", 3, ["SLING"], [(K, D)],
     ("havoc", ("TAMSIN", "INES", 2))),                       # we the giver, they the
    ("havoc", "SQUEAK", "HAVOC KORVATH GIVER TAMSIN", 3, ["SLING"], [(K, D)],  # receiver
     ("havoc", ("INES", "SEVEN", 1))),                        # they choose both
    ("havoc", "FAIL", "", 3, ["SLING"], [(K, B)], ("havoc", None)),
    ("havoc", "FOPP", "", 3, [], [(K, B)], ("discarded", ["SLING"])),
    # Tower of Maneuver: an ally dismissed, or (PASS, AMAZE) an enemy banished instead
    ("maneuver", "AMAZE", "MANEUVER KORVATH BANISH SEVEN", 3, ["SLING"],
     [("SEVEN", B), (K, D)], None),
    ("maneuver", "AMAZE", "", 3, ["SLING"], [("OBED", D), (K, D)], None),
    ("maneuver", "PASS", "MANEUVER KORVATH BANISH SEVEN", 3, ["SLING"],
     [("SEVEN", B), (K, B)], None),
    ("maneuver", "PASS", "MANEUVER KORVATH DISMISS OBED", 3, ["SLING"],
     [("OBED", D), (K, B)], None),
    ("maneuver", "SQUEAK", "MANEUVER KORVATH BANISH SEVEN", 3, ["SLING"],
     [("OBED", D), (K, B)], None),                            # SQUEAK: no enemy
    ("maneuver", "FAIL", "", 3, ["SLING"], [(K, B)], None),
    ("maneuver", "FOPP", "", 3, ["SLING"], [(K, "outmaneuvered")], None),
])
def test_tower_results(tower, level, order, health, cards, placed, effect):
    state = make({K: ("White", WHERE[tower], ["SLING"], 3), **CAST}, map_=TOWERS)
    script = [("tower/KORVATH", d) for d in _dice(level, NUMBER[tower])] + [
        (f"{how}/{who}", 1) for who, how in placed if how != "outmaneuvered"]
    after, events = play(state, {"White": order, "Black": ""}, script)
    seen = kinds(events, "tower")[0]
    assert (seen["tower"], seen["number"], seen["level"]) == (tower, NUMBER[tower], level)
    korvath = after["chars"][K]
    assert korvath["health"] == health
    assert korvath["status"] == ("dead" if health == 0 else "map")
    assert [e["card"] for e in korvath["cards"]] == cards
    assert [(p["char"], p["how"]) for p in kinds(events, "placed")] == placed
    if placed and placed[-1][0] == K:
        assert after["chars"][K]["space"] in ("A1", "C1")     # a dome, out of the tower
    kind, value = effect or (None, None)
    if kind == "discarded":
        assert after["discard"] == value and after["ground"] == {}
    if kind == "shown":
        enemy = [r for r in kinds(events, "reveal") if r["char"] != K]
        own = [r for r in kinds(events, "reveal") if r["char"] == K]
        assert (len(enemy), len(own)) == ((0, 1) if value < 0 else (value, 0))
    if kind == "havoc":
        moved = kinds(events, "havoc")
        assert [(h["giver"], h["receiver"], h["count"]) for h in moved] == \
            ([value] if value else [])
        if value:
            assert after["chars"][value[0]]["cards"] == []
            assert len(after["chars"][value[1]]["cards"]) == \
                len(CAST[value[1]][2]) + value[2]


def test_the_vortex_uses_the_better_of_strength_and_wits():
    state = make({K: ("White", "C3", [], 3), **CAST}, map_=TOWERS)
    _, events = play(state, {"White": "", "Black": ""},
                     [("tower/KORVATH", 3), ("tower/KORVATH", 4), ("banished/KORVATH", 1)])
    seen = kinds(events, "tower")[0]
    assert (seen["rating"], seen["number"], seen["level"]) == ("strength", 7, "SQUEAK")


def test_havoc_against_a_lone_enemy_strips_him():
    # "If the enemy has only one character, that character simply loses all his cards."
    state = make({K: ("White", "G3", [], 3), "SEVEN": CAST["SEVEN"]}, map_=TOWERS)
    after, events = play(state, {"White": "", "Black": ""},
                         [("tower/KORVATH", 4), ("tower/KORVATH", 4),
                          ("dismissed/KORVATH", 1)])                      # SQUEAK
    assert after["chars"]["SEVEN"]["cards"] == []
    assert sorted(after["discard"]) == ["CARBINE", "CUTLASS"]
    assert kinds(events, "cards_lost_all")[0]["char"] == "SEVEN"


def test_an_outmaneuvered_challenger_goes_to_the_empty_dome_the_enemy_chose():
    state = make({K: ("White", "I3", [], 3), **CAST}, map_=TOWERS)
    after, events = play(state, {"White": "", "Black": "CHOOSE DOME K1"},
                         [("tower/KORVATH", 6), ("tower/KORVATH", 6)])
    assert after["chars"][K]["space"] == "K1"
    assert kinds(events, "placed")[0]["roller"] == "Black"
