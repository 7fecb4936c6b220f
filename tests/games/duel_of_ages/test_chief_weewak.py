"""The Chief Weewak's clarifications, each as a scenario (the ones other files already
play are named there: the trade undone in test_opfire_death.py, every dome full in
test_domes.py, the Tower of Maneuver's choice in test_domes.py, lose versus drop in
test_pickup.py and test_labyrinths.py)."""

import pytest

from games.core.types import OrdersInvalid
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules.combat import hit_number

from .helpers import kinds, make, play


def test_characters_never_block_line_of_sight():
    # OBED at A6 shoots KORVATH at D6 through a crowd of both teams at B6 and C6
    clear = make({"OBED": ("White", "A6", ["CARBINE"]), "KORVATH": ("Black", "D6", [])})
    crowd = make({"OBED": ("White", "A6", ["CARBINE"]), "KORVATH": ("Black", "D6", []),
                  "INES": ("White", "B6", []), "SEVEN": ("Black", "C6", [])})
    assert hit_number(clear, "OBED", "KORVATH", "CARBINE") == \
        hit_number(crowd, "OBED", "KORVATH", "CARBINE")
    _, events = play(crowd, {"White": "FIRE OBED AT KORVATH", "Black": "HOLD SEVEN"},
                     [("fire/hit", 6), ("fire/hit", 5)])
    assert kinds(events, "attack")[0]["target"] == "KORVATH"


def test_health_loss_has_no_other_effect():
    hurt = make({"SARGE": ("White", "F5", [], 1), "ROGUE": ("Black", "F5", [], 1)})
    whole = make({"SARGE": ("White", "F5", []), "ROGUE": ("Black", "F5", [])})
    assert hit_number(hurt, "SARGE", "ROGUE", None) == hit_number(whole, "SARGE", "ROGUE",
                                                                  None)
    moved, _ = play(hurt, {"White": "MOVE SARGE TO F2\nHOLD SARGE", "Black": "HOLD ROGUE"},
                    [])
    assert moved["chars"]["SARGE"]["space"] != "F5"   # full Speed, wounded or not


def test_one_guardian_for_both_teams():
    # White's challenge fails: the guardian stays face up, and Black's challenger on his
    # own guardian position takes on the same one on Black's turn.
    state = make({"KORVATH": ("White", "D9", []), "OBED": ("Black", "D9", [])})
    after, events = play(state, {"White": "CHALLENGE KORVATH\nHOLD KORVATH",
                                 "Black": "HOLD OBED"},
                         [("guardian", 5), ("guardian", 5), ("banished", 1)])
    top = after["labyrinths"]["colonial"]["deck"][0]
    assert after["labyrinths"]["colonial"]["face_up"]
    after["active"] = "Black"
    _, events = play(after, {"Black": "CHALLENGE OBED"},
                     [("guardian", 6), ("guardian", 6), ("banished", 1)])
    assert kinds(events, "guardian")[0]["guardian"] == top


def test_never_target_an_ally():
    state = make({"OBED": ("White", "A6", ["CARBINE"]), "INES": ("White", "D6", [])})
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(state, "White", "FIRE OBED AT INES")
    assert "not an enemy" in str(err.value)


def test_equipment_of_another_age_has_no_penalty():
    # the Amazon (ancient) with the Accelerator Tube (future): Point green vs Stealth
    state = make({"AMAZON": ("White", "A6", ["ACCELERATOR"]), "SARGE": ("Black", "D6", [])})
    assert hit_number(state, "AMAZON", "SARGE", "ACCELERATOR") == 8   # green vs blue


def test_two_reinforcements_every_phase_whether_named_or_not():
    state = make({"DEX": ("White", "reserve", []), "INES": ("White", "reserve", []),
                  "OBED": ("White", "reserve", [])})
    after, _ = play(state, {"White": ""}, [("reinforcement", 1), ("reinforcement", 2)])
    assert sum(c["status"] == "map" for c in after["chars"].values()) == 2


def test_no_opportunity_fire_at_a_character_who_fired():
    state = make({"OBED": ("White", "A6", ["CARBINE"]), "KORVATH": ("Black", "D6", []),
                  "HOLLIS": ("Black", "A8", ["MACHINEPISTOL"])})
    _, events = play(state, {"White": "FIRE OBED AT KORVATH", "Black": "FIRE HOLLIS"},
                     [("fire/hit", 6), ("fire/hit", 5)])
    assert [a["phase"] for a in kinds(events, "attack")] == ["fire"]
