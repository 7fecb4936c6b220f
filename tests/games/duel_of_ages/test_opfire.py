"""Opportunity fire scenarios: only movers, only spaces they moved into, one shot per
target and per space, the enemy-in-space restriction, conditional and standing orders."""

import pytest

from .helpers import kinds, make, play

# Black's TAMSIN at A7 with the Longbow (OpFire 1): Throw yellow vs DEX's Stealth white
# = 6; the line to D8 crosses one woods (5), to D7 two (4), to D6 one (5).
# White's DEX runs D9 -> D8 D7 D6.
HIT_MISS = [("opfire/hit", 6), ("opfire/hit", 5)]  # 11: a miss


def position(**extra):
    return make({"DEX": ("White", "D9", []), "TAMSIN": ("Black", "A7", ["LONGBOW"]),
                 **extra})


@pytest.mark.parametrize("black, space, number", [
    ("FIRE TAMSIN", "D8", 5),                                  # best number, earliest
    ("OPFIRE TAMSIN IN D6", "D6", 5),
    ("FIRE TAMSIN AT DEX IN D7", "D7", 4),
    ("IF ENEMY ENTERS D7 THEN FIRE TAMSIN", "D7", 4),          # the space is inherited
    ("IF ENEMY ENTERS LOS THEN FIRE TAMSIN", "D8", 5),
    ("IF DEX MOVES THEN OPFIRE TAMSIN ELSE HOLD TAMSIN", "D8", 5),
    ("STANDING FIRE TAMSIN", "D8", 5),
])
def test_opportunity_fire_at_a_mover(black, space, number):
    after, events = play(position(), {"White": "MOVE DEX TO D6", "Black": black}, HIT_MISS)
    shot = kinds(events, "attack")
    assert [(s["space"], s["hit"]["number"], s["phase"]) for s in shot] == \
        [(space, number, "opfire")]
    assert after["chars"]["DEX"]["space"] == "D6"


@pytest.mark.parametrize("white, black, why", [
    ("", "FIRE TAMSIN", "does not move"),
    ("MOVE DEX TO D6", "IF ENEMY ENTERS C9 THEN FIRE TAMSIN", "condition false"),
    ("MOVE DEX TO D6", "IF ENEMY ENTERS C9 THEN FIRE TAMSIN ELSE HOLD TAMSIN", "else holds"),
    ("MOVE DEX TO D6", "", "no order"),
    ("MOVE DEX TO D6", "FIRE TAMSIN IN D5", "no such space on the path"),
])
def test_no_opportunity_fire(white, black, why):
    _, events = play(position(), {"White": white, "Black": black}, [])
    assert kinds(events, "attack") == [], why


def test_the_start_space_is_not_a_target():
    state = make({"DEX": ("White", "D8", []), "TAMSIN": ("Black", "A7", ["LONGBOW"])})
    _, events = play(state, {"White": "MOVE DEX TO D6", "Black": "FIRE TAMSIN"}, HIT_MISS)
    assert kinds(events, "attack")[0]["space"] == "D6"   # D7 (4) is worse than D6 (5)


def test_an_enemy_staying_in_the_space_stops_opportunity_fire():
    state = position(SEVEN=("White", "A7", []))
    _, events = play(state, {"White": "MOVE DEX TO D6\nHOLD SEVEN",
                             "Black": "FIRE TAMSIN\nHOLD TAMSIN"}, [])
    assert kinds(events, "no_shot")[0]["why"] == "an enemy stayed in his space"


def test_an_enemy_leaving_the_space_does_not():
    state = position(SEVEN=("White", "A7", []))
    _, events = play(state, {"White": "MOVE DEX TO D6\nMOVE SEVEN TO A8",
                             "Black": "FIRE TAMSIN"}, HIT_MISS)
    assert len(kinds(events, "attack")) == 1


# HOLLIS at G7 with the Machine Pistol (OpFire 2, range 4).
@pytest.mark.parametrize("movers, shots", [
    ("MOVE DEX TO D6", 1),                           # never twice at one target
    ("MOVE DEX TO D6\nMOVE OBED TO F9 E8", 2),       # two movers, two shots
])
def test_opfire_two_shots_need_two_targets(movers, shots):
    state = make({"DEX": ("White", "D9", []), "OBED": ("White", "G9", []),
                  "HOLLIS": ("Black", "G7", ["MACHINEPISTOL"])})
    script = [("opfire/hit", 6), ("opfire/hit", 5)] * shots
    _, events = play(state, {"White": movers, "Black": "FIRE HOLLIS"}, script)
    attacks = kinds(events, "attack")
    assert len(attacks) == shots
    assert len({a["target"] for a in attacks}) == shots
    assert len({a["space"] for a in attacks}) == shots


def test_opfire_zero_weapon_cannot_be_used():
    state = make({"DEX": ("White", "D9", []), "KORVATH": ("Black", "C5", ["HARPOON"])})
    _, events = play(state, {"White": "MOVE DEX TO D6", "Black": "FIRE KORVATH"}, [])
    assert kinds(events, "no_shot")[0]["why"] == "no weapon fit for opportunity fire"


def test_standing_orders_are_kept_and_cancelled():
    after, _ = play(position(), {"White": "MOVE DEX TO D6",
                                 "Black": "STANDING FIRE TAMSIN"}, HIT_MISS)
    assert after["standing"]["Black"] == [{"order": {"op": "fire", "char": "TAMSIN"}}]
    after["active"] = "White"
    after["chars"]["DEX"]["space"] = "D9"
    again, events = play(after, {"White": "MOVE DEX TO D6"}, HIT_MISS)
    assert len(kinds(events, "attack")) == 1       # fired with no new orders
    cancelled, _ = play(after, {"White": "", "Black": "CANCEL STANDING"}, [])
    assert cancelled["standing"]["Black"] == []


def test_a_twelve_breaks_the_weapon_and_ends_the_shooting():
    state = make({"DEX": ("White", "D9", []), "OBED": ("White", "G9", []),
                  "HOLLIS": ("Black", "G7", ["MACHINEPISTOL"])})
    _, events = play(state, {"White": "MOVE DEX TO D6\nMOVE OBED TO F9 E8",
                             "Black": "FIRE HOLLIS"}, [("opfire/hit", 6), ("opfire/hit", 6)])
    assert len(kinds(events, "attack")) == 1
    assert kinds(events, "card_lost") == [{"char": "HOLLIS", "card": "MACHINEPISTOL",
                                           "why": "broke"}]
