"""The end of the game: elimination, surrender, the survivor count after the last round,
sudden death on a tie."""

import pytest

from games.duel_of_ages.engine import ENGINE

from .helpers import make, play


def test_eliminating_the_last_enemy_wins():
    state = make({"TAMSIN": ("White", "F3", ["LONGBOW"]), "KORVATH": ("Black", "F6", [], 1)})
    after, _ = play(state, {"White": "FIRE TAMSIN"},
                    [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1),
                     ("fire/damage", 1)])
    assert after["over"] and after["winner"] == "White"
    assert ENGINE.decision(after) is None
    assert ENGINE.result(after)["winners"] == ["White"]


def test_reserve_characters_still_count_as_alive():
    state = make({"TAMSIN": ("White", "F3", ["LONGBOW"]), "KORVATH": ("Black", "F6", [], 1),
                  "SEVEN": ("Black", "reserve", [])})
    after, _ = play(state, {"White": "FIRE TAMSIN"},
                    [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1),
                     ("fire/damage", 1)])
    assert not after["over"]


@pytest.mark.parametrize("seat, winner", [("White", "Black"), ("Black", "White")])
def test_surrender(seat, winner):
    state = make({"DEX": ("White", "D9", []), "TAMSIN": ("Black", "A7", [])})
    after, _ = play(state, {seat: "SURRENDER"}, [])
    assert after["winner"] == winner


@pytest.mark.parametrize("active, round_, white, black, over, winner", [
    ("Black", 10, 2, 1, True, "White"),       # the last round ends: more survivors win
    ("White", 10, 2, 1, False, None),         # Black still has his last turn
    ("Black", 10, 1, 1, False, None),         # a tie plays on
    ("White", 11, 1, 2, True, "Black"),       # sudden death ends as soon as counts differ
    ("Black", 13, 1, 1, True, None),          # after three more rounds: a draw
    ("Black", 9, 2, 1, False, None),
])
def test_time_and_sudden_death(active, round_, white, black, over, winner):
    whites = [("DEX", "B1"), ("INES", "B2")][:white]
    blacks = [("TAMSIN", "J1"), ("KORVATH", "J2")][:black]
    chars = {k: ("White", s, []) for k, s in whites}
    chars.update({k: ("Black", s, []) for k, s in blacks})
    state = make(chars, active=active, round_=round_, rounds=10)
    after, _ = play(state, {active: ""}, [])
    assert (after["over"], after["winner"]) == (over, winner)
    if not over:
        assert after["active"] != active
