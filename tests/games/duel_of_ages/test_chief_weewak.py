"""The Chief Weewak's clarifications, each as a scenario. The inventory in this folder's
README.md names, for each of the eighteen, the test that plays it (some live beside the
rule they clarify: the trade undone in test_opfire_death.py, every dome full in
test_domes.py, the Tower of Maneuver's choice in test_tower_results.py)."""

import re
from pathlib import Path

import pytest

from games.core.rng import Rng
from games.core.types import OrdersInvalid
from games.duel_of_ages import catalog
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules.combat import hit_number

from .helpers import field, kinds, make, play


def test_movement_is_never_by_dice():
    # a scripted game fails on any die it did not expect: a whole Move phase draws none
    state = make({"DEX": ("White", "F3", []), "INES": ("White", "A3", [])})
    after, _ = play(state, {"White": "MOVE DEX TO F6\nMOVE INES TO C5"}, [])
    assert (after["chars"]["DEX"]["space"], after["chars"]["INES"]["space"]) == ("F6", "C5")


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


def test_opportunity_fire_waits_for_the_whole_move():
    # DEX runs D9 -> D6 past TAMSIN; the shot at him in D8 is taken only after his whole
    # Move phase (and INES's after his), on the path as it was walked
    state = make({"DEX": ("White", "D9", []), "INES": ("White", "F3", []),
                  "TAMSIN": ("Black", "A7", ["LONGBOW"])})
    _, events = play(state, {"White": "MOVE DEX TO D6\nMOVE INES TO F5",
                             "Black": "IF DEX MOVES THEN FIRE TAMSIN AT DEX"},
                     [("opfire/hit", 6), ("opfire/hit", 5)])
    order = [e.kind for e in events if e.kind in ("move", "attack")]
    assert order == ["move", "move", "attack"]
    assert kinds(events, "move")[0]["path"] == ["D8", "D7", "D6"]
    assert kinds(events, "attack")[0]["space"] == "D8"


def test_exactly_two_teams():
    assert (ENGINE.min_seats, ENGINE.max_seats) == (2, 2)


def test_no_order_takes_a_character_off_the_map():
    # nothing leaves the map by choice: there is no order for it and no space beyond it
    state = make({"DEX": ("White", "A1", [])})
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "White", "MOVE DEX TO L1")


def test_honor_and_respect_are_shown_and_change_nothing():
    # shown in every view; no rule of this set reads them (they matter only in DOA 2)
    state = make({"SARGE": ("White", "F5", []), "ROGUE": ("Black", "F5", [])})
    sarge = ENGINE.view(state, "Black")["chars"]["SARGE"]
    card = catalog.character("SARGE")
    assert (sarge["honor"], sarge["respect"]) == (card["honor"], card["respect"])
    rules = Path(catalog.__file__).parent / "rules"
    assert not [p.name for p in rules.glob("*.py")
                if re.search(r"honou?r|respect", p.read_text())]


def test_checking_line_of_sight_costs_nothing():
    # A FIRE at a target out of sight is no shot: TAMSIN keeps her move
    lane = field(". X .", ". . .", ". . .")
    state = make({"TAMSIN": ("White", "A1", ["SLING"]), "KORVATH": ("Black", "C1", [])},
                 map_=lane)
    after, events = play(state, {"White": "FIRE TAMSIN AT KORVATH\nMOVE TAMSIN TO A3",
                                 "Black": ""}, [])
    assert kinds(events, "no_shot")[0]["why"] == "has no line of sight to C1"
    assert after["chars"]["TAMSIN"]["space"] == "A3"


def test_every_game_has_the_same_full_set_of_cards():
    def cards(seed: int) -> list[str]:
        state, _ = ENGINE.setup(["North", "South"], {}, Rng(f"secret {seed}", "setup"))
        held = [e["card"] for c in state["chars"].values() for e in c["cards"]]
        return sorted(held + state["deck"] + state["discard"])
    assert cards(1) == cards(2) == sorted(catalog.equipment())
    assert len(cards(1)) == 52
