"""Leaving the dungeon, written from the rulebook's words (issue 12).

* "you can leave early if you wish": a hero leaves only by his player's order (a step of
  his own into a tower, LEAVE, a MOVE TO or destination naming the tower). A die, a
  corridor or a fleeing run that brings him into a tower leaves him standing there.
* "Players must make it back safely to one of the four corner rooms before sunset": any
  hero standing in any tower when night falls is safe.
* A hero whose player missed the deadline in the treasure chamber does not loot.
"""

from __future__ import annotations

import pytest

from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack, stack_tiles


def status(state, seat="P1"):
    ch = state["chars"][seat]
    return ch["pos"], ch["status"]


# -- the chamber of darkness --------------------------------------------------------

@pytest.mark.parametrize("orders, outcome", [
    ("MOVE SOUTH", ("A1", "in")),             # the die, not the player, chose the tower
    ("SEARCH", ("A1", "in")),
    ("DESTINATION A1\nSTAY", ("A1", "escaped")),  # the player's standing wish to go home
    ("MOVE TO A1", ("A1", "escaped")),        # the player's order this turn
    ("LEAVE", ("A1", "escaped")),
    ("DESTINATION E7\nMOVE TO E7", ("A1", "in")),
])
def test_a_darkness_roll_into_the_start_tower_leaves_the_hero_standing_in_it(orders, outcome):
    st = make_state()
    place(st, "A2", "darkness-two", "S")  # entered from the tower A1, moving south
    put(st, "P1", "A2", "N", "A1")
    new, events = run(st, {"P1": orders}, [("darkness/P1", 2)])  # 1-3: the way in
    assert status(new) == outcome
    if outcome[1] == "in":
        assert "Stumbles into the tower at A1" in lines(events)
        assert new["over"] is False and ENGINE.decision(new).seats == ["P1"]


# -- corridors ----------------------------------------------------------------------

@pytest.mark.parametrize("destination, outcome", [
    (None, ("B1", "in")),      # no destination: the corridor carries him through the tower
    ("E7", ("B1", "in")),
    ("A1", ("A1", "escaped")),  # the tower is where he is going
])
def test_a_corridor_into_a_tower_passes_through_unless_the_tower_is_the_goal(
        destination, outcome):
    st = make_state()
    place(st, "A3", "corridor-bend-left", "S")
    st["board"]["A3"]["exits"] = {"N": "open", "E": "open", "S": "wall", "W": "wall"}
    place(st, "A2", "corridor-straight", "S")  # north/south
    place(st, "B3", "room-cross", "S")
    put(st, "P1", "B3", "N", "B2", destination=destination)
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE WEST"}, [])
    assert status(new) == outcome
    if outcome[1] == "in":
        assert "Passes through the tower" in lines(events)


# -- a monster's ESCAPE ---------------------------------------------------------------

@pytest.mark.parametrize("orders, outcome", [
    ("MOVE EAST\nESCAPE", ("A1", "in")),
    ("MOVE EAST\nIF MONSTER ORC THEN ESCAPE", ("A1", "in")),
    ("DESTINATION A1\nMOVE EAST\nESCAPE", ("A1", "escaped")),
])
def test_escaping_a_monster_back_into_the_tower_is_not_leaving(orders, outcome):
    st = make_state()
    stack_tiles(st, "room-cross")
    stack(st, "room", "monster:orc")
    new, events = run(st, {"P1": orders}, [("reaction/P1", 6)])  # ESCAPE on 6: away
    assert status(new) == outcome
    if outcome[1] == "in":
        assert "Takes refuge in the tower at A1" in lines(events)
        # next turn he may go straight back in, or leave
        stack(new, "room", "empty")
        again, _ = run(new, {"P1": "MOVE EAST"}, [])
        assert status(again) == ("B1", "in")
        gone, _ = run(new, {"P1": "LEAVE"}, [])
        assert status(gone) == ("A1", "escaped")


# -- the player's own orders to leave -------------------------------------------------

@pytest.mark.parametrize("pos, entry, prev, orders, outcome", [
    ("A1", None, None, "STAY", ("A1", "in")),
    ("A1", None, None, "LEAVE", ("A1", "escaped")),      # "you can leave early if you wish"
    ("A1", None, None, "MOVE TO A1", ("A1", "escaped")),
    ("A2", "N", "A1", "MOVE NORTH", ("A1", "escaped")),  # a step of his own into the tower
    ("A2", "N", "A1", "RETREAT", ("A1", "escaped")),
    ("A2", "N", "A1", "LEAVE", ("A1", "escaped")),       # elsewhere: to the nearest tower
    ("A2", "N", "A1", "MOVE NORTH EAST", ("B1", "in")),  # in by one exit, out by the other
])
def test_leaving_is_the_players_order(pos, entry, prev, orders, outcome):
    st = make_state()
    place(st, "A2", "room-cross", "S")
    put(st, "P1", pos, entry, prev)
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": orders}, [])
    assert status(new) == outcome


@pytest.mark.parametrize("destination, outcome", [
    (None, ("A1", "in")),       # a missed deadline in the start tower: stands still
    ("E7", ("B1", "in")),
    ("A1", ("A1", "escaped")),  # the destination the player set is that very tower
])
def test_a_missed_deadline_in_a_tower_follows_only_the_players_destination(
        destination, outcome):
    st = make_state()
    st["chars"]["P1"]["destination"] = destination
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {}, [], missed=("P1",))
    assert status(new) == outcome


# -- sunset: "back in a corner room" --------------------------------------------------

def sunset_state():
    st = make_state(4)
    st["turn"] = 26
    place(st, "B2", "room-cross", "S")
    return st


@pytest.mark.parametrize("seat, pos, entry, prev, outcome", [
    ("P1", "A1", None, None, "escaped"),   # never left the start tower
    ("P1", "J13", "N", "J12", "escaped"),  # another hero's tower
    ("P2", "A1", "E", "B1", "escaped"),    # re-entered a tower (fled, or brought by a die)
    ("P2", "J1", None, None, "escaped"),
    ("P1", "B2", "N", "B1", "dead"),       # anywhere else: perishes
])
def test_at_sunset_any_corner_room_is_safe(seat, pos, entry, prev, outcome):
    st = sunset_state()
    for sq in ("C2", "D2", "E2"):
        place(st, sq, "room-cross", "S")
    for other, sq in zip(["P1", "P2", "P3", "P4"], ["B2", "C2", "D2", "E2"]):
        if other != seat:  # everyone else is deep in the dungeon and perishes
            put(st, other, sq, "N", sq[0] + "1")
    put(st, seat, pos, entry, prev, treasure=[{"name": "a brooch", "value": 35}])
    new, events = run(st, {s: "STAY" for s in ("P1", "P2", "P3", "P4")}, [])
    assert new["chars"][seat]["status"] == outcome
    assert new["over"] is True
    result = next(e for e in events if e.kind == "result")
    assert result.data["winners"] == ([seat] if outcome == "escaped" else [])
    if outcome == "escaped":
        assert f"safe in the corner room at {pos}" in lines(events)
        assert ENGINE.result(new)["summary"] == f"Escaped: {new['chars'][seat]['name']} 35 gold."


# -- the treasure chamber and a missed deadline ---------------------------------------

def in_the_chamber():
    st = make_state()
    place(st, "E6", "room-cross", "S")
    put(st, "P1", "E7", "N", "E6", destination="E7")
    st["hoard"] = sorted(st["hoard"], reverse=True)
    st["dragon"]["pool"] = sorted(st["dragon"]["pool"])  # the fiery dragon on top
    return st


def test_a_missed_deadline_in_the_treasure_chamber_does_not_loot():
    st = in_the_chamber()
    new, events = run(st, {}, [], missed=("P1",))
    ch = new["chars"]["P1"]
    assert ch["pos"] == "E7" and ch["treasure"] == [] and ch["status"] == "in"
    assert new["hoard"] == st["hoard"] and new["dragon"] == st["dragon"]  # no counter drawn
    assert "sent no orders this turn and stands still" in lines(events)
    assert "without touching the hoard" in lines(events)


@pytest.mark.parametrize("orders", ["LOOT", "STAY", "MOVE TO E7", "STANDING LOOT"])
def test_the_players_own_order_to_stay_in_the_chamber_loots(orders):
    st = in_the_chamber()
    new, events = run(st, {"P1": orders}, [("dragon/fire/P1", 3),
                                           ("dragon/return", list(range(12)))])
    assert "the dragon wakes" in lines(events)  # he looted, and the dragon woke
    assert new["chars"]["P1"]["treasure"] == [] and new["chars"]["P1"]["pos"] != "E7"


def test_a_standing_loot_order_still_applies_when_the_deadline_is_missed():
    st = in_the_chamber()
    st["chars"]["P1"]["standing"] = [{"order": {"op": "stay"}}]
    _, events = run(st, {}, [("dragon/fire/P1", 3), ("dragon/return", list(range(12)))],
                    missed=("P1",))
    assert "the dragon wakes" in lines(events)
