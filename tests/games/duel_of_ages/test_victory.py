"""The end of the game: elimination, surrender, the survivor count after the last round,
sudden death on a tie."""

import pytest

from games.core.rng import Rng
from games.duel_of_ages import catalog
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


def test_a_tie_at_time_starts_sudden_death():
    state = make({"DEX": ("White", "B1", []), "TAMSIN": ("Black", "J1", [])},
                 active="Black", round_=10, rounds=10)
    after, events = play(state, {"Black": ""}, [])
    assert after["sudden_death"] and not after["over"]
    assert "sudden death" in ENGINE.report(events, None)


def _sudden(chars, **kw):
    state = make(chars, active="White", round_=11, rounds=10, **kw)
    state["sudden_death"] = True
    return state


def test_sudden_death_ends_at_the_shot_that_breaks_the_tie():
    # 2 against 2 alive and no labyrinth led: TAMSIN's kill makes it 2 to 1, and the game
    # ends before INES moves or Black's opportunity fire and melee.
    state = _sudden({"TAMSIN": ("White", "F3", ["LONGBOW"]), "INES": ("White", "B1", []),
                     "KORVATH": ("Black", "F6", [], 1), "HOLLIS": ("Black", "J1", ["CARBINE"])})
    after, events = play(state, {"White": "FIRE TAMSIN AT KORVATH\nMOVE INES TO C3",
                                 "Black": "FIRE HOLLIS"},
                         [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1),
                          ("fire/damage", 1)])
    assert (after["over"], after["winner"]) == (True, "White")
    assert after["chars"]["INES"]["space"] == "B1"
    assert [e.kind for e in events][-1] == "game_over"
    assert after["summary"].startswith("sudden death")


def test_sudden_death_ends_when_a_guardian_falls():
    # OBED (Black) on the red eye of the colonial labyrinth rolls an AMAZE against its top
    # guardian: Black leads that labyrinth, 1 to 0, and the game ends before the
    # reinforcement that would follow.
    state = _sudden({"OBED": ("Black", "D9", []), "SEVEN": ("Black", "reserve", []),
                     "DEX": ("White", "A1", []), "INES": ("White", "reserve", [])})
    state["active"] = "Black"
    results = catalog.guardians()[state["labyrinths"]["colonial"]["deck"][0]]["AMAZE"]
    assert "defeated" in results
    dice = [("dismissed", 1) if e == "dismissed" else ("banished", 1)
            for e in results if e in ("dismissed", "banished")]
    after, _ = play(state, {"Black": "CHALLENGE OBED\nREINFORCE SEVEN", "White": "HOLD DEX"},
                    [("guardian", 1), ("guardian", 1)] + dice)
    assert (after["over"], after["winner"]) == (True, "Black")
    assert after["chars"]["SEVEN"]["status"] == "reserve"


def test_a_melee_wave_lands_whole_before_sudden_death_is_checked():
    # KORVATH and SEVEN kill each other in the same wave: 1 to 1 again, play goes on.
    state = _sudden({"BRANNOC": ("White", "F5", [], 1), "SEVEN": ("Black", "F5", [], 1),
                     "DEX": ("White", "A1", []), "TAMSIN": ("Black", "K1", [])})
    script = [("melee/hit/BRANNOC", 1), ("melee/hit/BRANNOC", 1),
              ("melee/damage/BRANNOC", 1), ("melee/damage/BRANNOC", 1),
              ("melee/hit/SEVEN", 1), ("melee/hit/SEVEN", 1),
              ("melee/damage/SEVEN", 1), ("melee/damage/SEVEN", 1)]
    after, _ = play(state, {"White": "", "Black": ""}, script)
    assert not after["over"]
    assert after["chars"]["BRANNOC"]["status"] == after["chars"]["SEVEN"]["status"] == "dead"


@pytest.mark.parametrize("turns_before, active, over", [
    (17, "Black", False),   # hours 3 at ten minutes a team turn: the clock rings in turn 18
    (18, "White", True),    # ... that team finished it; this is the other's one more turn
    (18, "Black", True),    # whoever was on turn when it rang
])
def test_the_clock(turns_before, active, over):
    state = make({"DEX": ("White", "B1", []), "INES": ("White", "B2", []),
                  "TAMSIN": ("Black", "J1", [])}, active=active, round_=3, rounds=10)
    state.update(limit="clock", turns=turns_before, clock_turns=18)
    after, _ = play(state, {active: ""}, [])
    assert after["over"] is over
    if over:
        assert after["winner"] == "White" and after["summary"].startswith("time")


def test_the_clock_from_the_options():
    state, _ = ENGINE.setup(["White", "Black"], {"limit": "clock", "hours": 2},
                            Rng("s", "t"))
    assert (state["limit"], state["clock_turns"]) == ("clock", 12)


def test_the_battle_variant_has_no_time_limit():
    state = make({"DEX": ("White", "B1", []), "INES": ("White", "B2", []),
                  "TAMSIN": ("Black", "J1", [])}, active="Black", round_=40, rounds=10)
    state["limit"] = "battle"
    after, _ = play(state, {"Black": ""}, [])
    assert not after["over"] and not after.get("sudden_death")
