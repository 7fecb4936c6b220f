"""Cards of the dead: left on the ground (discarded in a tower or dome), picked up all at
once for 2 move points, not with an enemy there, four-card limit, and the spender of
points in his starting space becomes an opportunity-fire target there."""

import pytest

from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play


def test_the_dead_leave_their_cards_on_the_ground():
    state = make({"TAMSIN": ("White", "F3", ["LONGBOW"]),
                  "KORVATH": ("Black", "F6", ["WARAXE!", "SPEAR"], 1)})
    after, events = play(state, {"White": "FIRE TAMSIN"},
                         [("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1),
                          ("fire/damage", 1)])
    assert after["ground"] == {"F6": [{"card": "WARAXE", "revealed": True},
                                      {"card": "SPEAR", "revealed": False}]}
    for reader in (None, "White", "Black"):
        assert ENGINE.view(after, reader)["ground"] == {"F6": {"shown": ["WARAXE"],
                                                               "face_down": 1}}
    assert "Ash Spear" not in ENGINE.report(events, None)


def test_dying_in_a_tower_discards_the_cards():
    state = make({"DEX": ("White", "E5", ["SPEAR"])})
    after, _ = play(state, {"White": ""}, [("tower/DEX", 6), ("tower/DEX", 6)])
    assert after["ground"] == {} and after["discard"] == ["SPEAR"]


@pytest.mark.parametrize("start, order, others, got, stop", [
    ("F4", "MOVE DEX TO F6 PICKUP", {}, 2, None),                  # 2 + 2 of 7 points
    ("F6", "MOVE DEX TO PICKUP", {}, 2, None),
    ("F6", "MOVE DEX TO PICKUP", {"KORVATH": ("Black", "F6", [])}, 0,
     "cannot pick up with an enemy there"),
    ("F1", "MOVE DEX TO F6 PICKUP", {}, 0, "not enough move points to pick up"),  # 6 of 7
])
def test_pick_up(start, order, others, got, stop):
    state = make({"DEX": ("White", start, []), **others},
                 ground={"F6": ["WARAXE!", "SPEAR"]})
    orders = {"White": order + "\nHOLD DEX"}
    if others:
        orders["Black"] = "HOLD KORVATH"
    after, events = play(state, orders, [])
    assert len(after["chars"]["DEX"]["cards"]) == got
    said = kinds(events, "move") + kinds(events, "no_move")
    assert [m.get("stop") or m.get("why") for m in said][-1:] == ([stop] if stop else [None])
    if got:
        secret = [e for e in events if e.kind == "pickup_cards"][0]
        assert secret.audience == ("White",)
        assert "Ash Spear" in ENGINE.report(events, "White")
        assert "Ash Spear" not in ENGINE.report(events, "Black")


def test_four_card_limit():
    state = make({"DEX": ("White", "F6", ["SLING", "CUTLASS", "CARBINE"])},
                 ground={"F6": ["WARAXE", "SPEAR"]})
    after, events = play(state, {"White": "MOVE DEX TO PICKUP"}, [])
    assert [e["card"] for e in after["chars"]["DEX"]["cards"]] == [
        "SLING", "CUTLASS", "CARBINE", "WARAXE"]
    assert kinds(events, "pickup")[0]["discarded"] == ["SPEAR"]


def test_picking_up_in_the_start_space_draws_opportunity_fire():
    state = make({"DEX": ("White", "F6", []), "TAMSIN": ("Black", "F3", ["LONGBOW"])},
                 ground={"F6": ["SPEAR"]})
    _, events = play(state, {"White": "MOVE DEX TO PICKUP", "Black": "FIRE TAMSIN"},
                     [("opfire/hit", 6), ("opfire/hit", 5)])
    assert kinds(events, "attack")[0]["space"] == "F6"


def test_destroying_a_card_is_a_free_action():
    state = make({"DEX": ("White", "F6", ["SPEAR", "SLING"])})
    after, events = play(state, {"White": "DESTROY DEX SPEAR\nMOVE DEX TO F5"}, [])
    assert [e["card"] for e in after["chars"]["DEX"]["cards"]] == ["SLING"]
    assert after["discard"] == ["SPEAR"]
    assert after["chars"]["DEX"]["space"] == "F5"      # free: he still moves
    assert kinds(events, "card_lost")[0]["why"] == "destroyed"


@pytest.mark.parametrize("health, card, after_health, used", [
    (2, "FIELDKIT", 5, True),      # heals 3
    (4, "FIELDKIT", 5, True),      # never above the maximum
    (5, "FIELDKIT", 5, False),     # not wounded: the card is kept
    (1, "TONIC", 3, True),
])
def test_medical_cards(health, card, after_health, used):
    state = make({"DEX": ("White", "F6", [card], health)})
    after, events = play(state, {"White": f"HEAL DEX\nHEAL DEX WITH {card}"}, [])
    assert after["chars"]["DEX"]["health"] == after_health
    assert (after["chars"]["DEX"]["cards"] == []) is used
    assert len(kinds(events, "healed")) == (1 if used else 0)   # one per turn


@pytest.mark.parametrize("who, card, order, end, stop", [
    ("SEVEN", "JUMPPACK", "RIDE SEVEN\nMOVE SEVEN TO H9", "H9", None),   # 6 of 4 + 2
    ("SEVEN", "JUMPPACK", "MOVE SEVEN TO H9", "G9", "out of move points"),
    ("OBED", "WARHORSE", "RIDE OBED\nMOVE OBED TO H9", "G9",
     "the mount cannot enter a building"),
])
def test_mounts(who, card, order, end, stop):
    state = make({who: ("White", "D9", [card])})
    after, events = play(state, {"White": order}, [])
    assert after["chars"][who]["space"] == end
    assert kinds(events, "move")[0]["stop"] == stop
