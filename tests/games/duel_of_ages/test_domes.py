"""Dismissal, banishment and reinforcement placement in the numbered domes; towers."""

import pytest

from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play


@pytest.mark.parametrize("occupied, die, dome", [
    ({}, 2, "K1"),
    ({"KORVATH": ("Black", "K1", [])}, 2, "A5"),            # 2 taken: next number up
    ({"KORVATH": ("Black", "K9", [])}, 6, "A1"),            # 6 taken: wraps to 1
])
def test_reinforcement_placement(occupied, die, dome):
    state = make({"DEX": ("White", "reserve", []), **occupied})
    after, events = play(state, {"White": "REINFORCE DEX"}, [("reinforcement/DEX", die)])
    assert after["chars"]["DEX"]["space"] == dome


def test_two_reinforcements_named_first():
    state = make({"DEX": ("White", "reserve", []), "INES": ("White", "reserve", []),
                  "OBED": ("White", "reserve", [])})
    after, events = play(state, {"White": "REINFORCE OBED"},
                         [("reinforcement/OBED", 1), ("reinforcement/DEX", 1)])
    assert [p["char"] for p in kinds(events, "placed")] == ["OBED", "DEX"]
    assert after["chars"]["INES"]["status"] == "reserve"
    assert after["chars"]["DEX"]["space"] == "K1"            # 1 taken by OBED


def test_every_dome_full_puts_the_character_with_an_ally():
    full = {"KORVATH": ("Black", "A1", []), "SEVEN": ("Black", "K1", []),
            "BRANNOC": ("Black", "A5", []), "TAMSIN": ("Black", "K5", []),
            "OBED": ("Black", "K9", [])}
    state = make({"DEX": ("White", "reserve", []), "INES": ("White", "reserve", []), **full})
    after, _ = play(state, {"White": ""}, [("reinforcement/DEX", 2),
                                           ("reinforcement/INES", 2)])
    assert after["chars"]["DEX"]["space"] == "A9"     # the last empty dome (number 5)
    assert after["chars"]["INES"]["space"] == "A9"    # all full: in with her ally


def test_with_every_dome_taken_by_enemies_a_character_waits_off_the_map():
    """Never in a dome with an enemy: when every dome is taken and none by allies only,
    the character cannot be placed (the rulebook does not say what then; designed: he
    waits off the map and comes back as a reinforcement). Before, he was put in with an
    enemy, a state the invariants (and so replay verification) refuse."""
    full = {"KORVATH": ("Black", "A1", []), "SEVEN": ("Black", "K1", []),
            "BRANNOC": ("Black", "A5", []), "TAMSIN": ("Black", "K5", []),
            "OBED": ("Black", "K9", []), "HOLLIS": ("Black", "A9", [])}
    state = make({"DEX": ("White", "reserve", []), "INES": ("White", "reserve", []), **full})
    after, events = play(state, {"White": ""}, [("reinforcement/DEX", 2),
                                                ("reinforcement/INES", 5)])
    assert [after["chars"][k]["status"] for k in ("DEX", "INES")] == ["reserve", "reserve"]
    assert [e["space"] for e in kinds(events, "placed")] == [None, None]
    assert "every dome is taken: he waits off the map" in ENGINE.report(events, None)


@pytest.mark.parametrize("tower, rolls, health, status, how", [
    ("E5", (6, 6), 0, "dead", None),           # desperation FOPP: killed
    ("E5", (5, 5), 3, "map", "banished"),      # FAIL: 2 damage
    ("E5", (4, 3), 4, "map", "banished"),      # SQUEAK (7): 1 damage
    ("E5", (3, 3), 5, "map", "banished"),      # PASS
    ("J9", (1, 1), 5, "map", "banished"),      # vortex AMAZE: heals up to 4
])
def test_towers(tower, rolls, health, status, how):
    # DEX: Wits green, Strength blue. Desperation: green vs green = 7. Vortex: Wits
    # (the better) yellow = 6.
    state = make({"DEX": ("White", tower, [], 5 if tower == "E5" else 1)})
    script = [("tower/DEX", rolls[0]), ("tower/DEX", rolls[1])] + (
        [(f"{how}/DEX", 4)] if how else [])
    after, events = play(state, {"White": ""}, script)
    assert after["chars"]["DEX"]["health"] == health
    assert after["chars"]["DEX"]["status"] == status
    if how:
        placed = kinds(events, "placed")[0]
        assert (placed["how"], placed["space"]) == (how, "K5")
        assert placed["roller"] == ("Black" if how == "banished" else "White")


@pytest.mark.parametrize("rolls, level, shown_enemy, shown_own, how", [
    ((1, 1), "AMAZE", 3, 0, "dismissed"),     # up to four: all three the enemy has
    ((2, 3), "PASS", 2, 0, "dismissed"),
    ((4, 4), "SQUEAK", 1, 0, "dismissed"),
    ((5, 5), "FAIL", 0, 0, "dismissed"),
    ((6, 6), "FOPP", 0, 1, "banished"),       # discovered: shows his own cards
])
def test_tower_of_knowledge(rolls, level, shown_enemy, shown_own, how):
    # DEX: Wits green vs blue = 8.
    state = make({"DEX": ("White", "H3", ["SLING"]),
                  "KORVATH": ("Black", "reserve", ["SPEAR", "WARAXE!"]),
                  "SEVEN": ("Black", "J1", ["CARBINE", "CUTLASS"])})
    script = [("tower/DEX", rolls[0]), ("tower/DEX", rolls[1]), (f"{how}/DEX", 4)]
    after, events = play(state, {"White": ""}, script)
    assert kinds(events, "tower")[0]["level"] == level
    revealed = [r for r in kinds(events, "reveal")]
    assert len([r for r in revealed if r["char"] != "DEX"]) == shown_enemy
    assert len([r for r in revealed if r["char"] == "DEX"]) == shown_own
    if shown_enemy:
        assert revealed[0] == {"char": "KORVATH", "card": "SPEAR"}   # roster order


# KORVATH (Strength yellow): Havoc is green, 8 to squeak; Maneuver is blue, 9.
HAVOC_ENEMY = {"DEX": ("Black", "J4", ["SLING", "SPEAR"]),
               "SEVEN": ("Black", "J5", ["CARBINE", "CUTLASS", "WARAXE"]),
               "INES": ("Black", "reserve", [])}


@pytest.mark.parametrize("order, dice, giver, receiver, count, discarded, how", [
    ("", (2, 3), "SEVEN", "INES", 3, [], "dismissed"),        # PASS: we pick the giver
    ("HAVOC KORVATH GIVER SEVEN RECEIVER DEX", (1, 1), "SEVEN", "DEX", 3, ["WARAXE"],
     "dismissed"),                                             # AMAZE: we pick both
    ("HAVOC KORVATH GIVER SEVEN RECEIVER DEX", (4, 4), "INES", "DEX", 0, [],
     "dismissed"),                                             # SQUEAK: the enemy picks
    ("", (5, 5), None, None, 0, [], "banished"),
])
def test_tower_of_havoc(order, dice, giver, receiver, count, discarded, how):
    state = make({"KORVATH": ("White", "G1", []), **HAVOC_ENEMY})
    script = [("tower/KORVATH", dice[0]), ("tower/KORVATH", dice[1]),
              (f"{how}/KORVATH", 1)]
    after, events = play(state, {"White": order, "Black": ""}, script)
    moved = kinds(events, "havoc")
    if giver is None:
        assert moved == []
    else:
        assert moved == [{"giver": giver, "receiver": receiver, "count": count,
                          "discarded": discarded}]
        assert after["chars"][giver]["cards"] == []


@pytest.mark.parametrize("order, dice, placed", [
    ("", (4, 5), [("OBED", "dismissed"), ("KORVATH", "banished")]),            # SQUEAK
    ("MANEUVER KORVATH BANISH TAMSIN", (3, 4),
     [("TAMSIN", "banished"), ("KORVATH", "banished")]),                        # PASS
    ("MANEUVER KORVATH BANISH TAMSIN", (4, 5),
     [("OBED", "dismissed"), ("KORVATH", "banished")]),          # SQUEAK: no banishing
    ("", (1, 1), [("OBED", "dismissed"), ("KORVATH", "dismissed")]),            # AMAZE
    ("", (5, 5), [("KORVATH", "banished")]),                                    # FAIL
])
def test_tower_of_maneuver(order, dice, placed):
    state = make({"KORVATH": ("White", "B9", []), "OBED": ("White", "F5", []),
                  "TAMSIN": ("Black", "J4", [])})
    script = [("tower/KORVATH", dice[0]), ("tower/KORVATH", dice[1])] + [
        (f"{how}/{who}", 2) for who, how in placed]
    _, events = play(state, {"White": order, "Black": ""}, script)
    assert [(p["char"], p["how"]) for p in kinds(events, "placed")] == placed


def test_outmaneuvered_goes_to_the_lowest_empty_dome():
    state = make({"KORVATH": ("White", "B9", []), "TAMSIN": ("Black", "A1", [])})
    after, events = play(state, {"White": "", "Black": ""},
                         [("tower/KORVATH", 6), ("tower/KORVATH", 6)])
    assert after["chars"]["KORVATH"]["space"] == "K1"
    assert kinds(events, "placed")[0]["roller"] == "Black"


# The enemy's choices, given in advance with CHOOSE (plain, or STANDING for every turn).
def test_the_enemy_chooses_which_cards_the_tower_of_knowledge_shows():
    state = make({"DEX": ("White", "H3", ["SLING"]),
                  "KORVATH": ("Black", "reserve", ["SPEAR", "WARAXE!"]),
                  "SEVEN": ("Black", "J1", ["CARBINE", "CUTLASS"])})
    script = [("tower/DEX", 2), ("tower/DEX", 3), ("dismissed/DEX", 4)]        # PASS: 2
    _, events = play(state, {"White": "", "Black": "CHOOSE SHOW CUTLASS SPEAR"}, script)
    assert kinds(events, "reveal") == [{"char": "SEVEN", "card": "CUTLASS"},
                                       {"char": "KORVATH", "card": "SPEAR"}]


@pytest.mark.parametrize("black, dice, giver, receiver", [
    ("CHOOSE GIVER DEX RECEIVER SEVEN", (4, 4), "DEX", "SEVEN"),   # SQUEAK: theirs both
    ("STANDING CHOOSE GIVER DEX RECEIVER SEVEN", (4, 4), "DEX", "SEVEN"),
    ("CHOOSE RECEIVER DEX", (2, 3), "SEVEN", "DEX"),               # PASS: their receiver
    ("CHOOSE GIVER DEX RECEIVER INES", (1, 1), "SEVEN", "INES"),   # AMAZE: none theirs
])
def test_the_enemy_chooses_at_the_tower_of_havoc(black, dice, giver, receiver):
    state = make({"KORVATH": ("White", "G1", []), **HAVOC_ENEMY})
    script = [("tower/KORVATH", dice[0]), ("tower/KORVATH", dice[1]),
              ("dismissed/KORVATH", 1)]
    _, events = play(state, {"White": "", "Black": black}, script)
    moved = kinds(events, "havoc")[0]
    if dice == (1, 1):
        assert moved["giver"] == "SEVEN"     # our designed pick: the most cards
    else:
        assert (moved["giver"], moved["receiver"]) == (giver, receiver)


def test_the_enemy_chooses_the_dome_of_the_outmaneuvered():
    state = make({"KORVATH": ("White", "B9", []), "TAMSIN": ("Black", "A1", [])})
    after, _ = play(state, {"White": "", "Black": "CHOOSE DOME K9"},
                    [("tower/KORVATH", 6), ("tower/KORVATH", 6)])
    assert after["chars"]["KORVATH"]["space"] == "K9"


def test_choose_errors():
    state = make({"DEX": ("White", "H3", []), "TAMSIN": ("Black", "A1", [])})
    from games.core.types import OrdersInvalid
    from games.duel_of_ages.engine import ENGINE
    for text, message in (("CHOOSE DOME F5", "not a dome"), ("CHOOSE", "CHOOSE what"),
                          ("CHOOSE GIVER DEX", "not on your team")):
        with pytest.raises(OrdersInvalid) as err:
            ENGINE.parse_orders(state, "Black", text)
        assert message in str(err.value), text


@pytest.mark.parametrize("dice", [(2, 3), (1, 1), (4, 4)])     # PASS, AMAZE, SQUEAK
def test_havoc_with_no_living_enemy_does_nothing(dice):
    """Every enemy dead: nobody gives or receives (max() of no enemies crashed the turn)."""
    state = make({"KORVATH": ("White", "G1", []), "DEX": ("Black", "dead", []),
                  "SEVEN": ("Black", "dead", [])})
    script = [("tower/KORVATH", dice[0]), ("tower/KORVATH", dice[1]),
              ("dismissed/KORVATH", 1)]
    after, events = play(state, {"White": "", "Black": ""}, script)
    assert kinds(events, "havoc") == [] and kinds(events, "cards_lost_all") == []
