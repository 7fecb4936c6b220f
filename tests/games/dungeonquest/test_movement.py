"""Scenario tests for movement, tiles and the special rooms."""

from __future__ import annotations

import pytest

from games.dungeonquest import content
from games.dungeonquest.board import CHAMBER, lay_tile
from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack, stack_tiles


def test_new_square_draws_a_tile_laid_with_its_back_to_the_hero_and_a_room_card():
    st = make_state()
    stack_tiles(st, "room-turn-left")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE EAST"}, [])
    cell = new["board"]["B1"]
    assert cell["tile"] == "room-turn-left"
    # moving east: the back (west) is open, left is north, ahead east and right south walls
    assert cell["exits"] == {"N": "open", "E": "wall", "S": "wall", "W": "open"}
    assert new["chars"]["P1"]["pos"] == "B1"
    assert new["decks"]["room"]["discard"] == ["empty"]
    assert "new tile" in lines(events)


def test_explored_room_takes_no_tile_but_a_room_card():
    st = make_state()
    place(st, "B1", "room-cross", "E")
    stack(st, "room", "treasure:bracelet")
    bag = list(st["bag"])
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["bag"] == bag
    assert new["chars"]["P1"]["treasure"] == [{"name": "a silver bracelet", "value": 40}]


@pytest.mark.parametrize("p1, p2, winner", [(5, 2, "P1"), (1, 6, "P2")])
def test_priority_dice_decide_who_enters_a_contested_square(p1, p2, winner):
    st = make_state(2)
    place(st, "B2", "room-cross", "S")
    place(st, "D2", "room-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    put(st, "P2", "D2", "N", "D1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE EAST", "P2": "MOVE WEST"},
                      [("priority/C2/P1", p1), ("priority/C2/P2", p2)])
    loser = "P2" if winner == "P1" else "P1"
    assert new["chars"][winner]["pos"] == "C2"
    assert new["chars"][loser]["pos"] == st["chars"][loser]["pos"]
    assert "is beaten to C2" in lines(events)


def test_only_the_treasure_chamber_holds_two_heroes():
    st = make_state(2)
    place(st, "B2", "room-cross", "S")
    place(st, "C2", "room-cross", "E")
    put(st, "P1", "B2", "N", "B1")
    put(st, "P2", "C2", "W", "B2")
    new, events = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "B2"
    assert "is in C2" in lines(events)


def test_a_corridor_carries_the_hero_on_without_a_room_card():
    st = make_state()
    stack_tiles(st, "corridor-straight", "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "C1"
    assert new["board"]["B1"]["kind"] == "corridor"
    assert new["decks"]["room"]["discard"] == ["empty"]  # only C1 drew a card


def test_a_corridor_turns_toward_the_destination():
    st = make_state()
    st["chars"]["P1"]["destination"] = "B5"
    stack_tiles(st, "corridor-cross", "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "B2"


@pytest.mark.parametrize("roll, where", [(4, "B3"), (5, None)])
def test_bottomless_pit_leap_on_agility_or_death(roll, where):
    st = make_state()  # the knight: Agility 4
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "pit-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE SOUTH"}, [("pit/P1", roll)])
    ch = new["chars"]["P1"]
    if where:
        assert ch["pos"] == where and ch["status"] == "in"
    else:
        assert ch["status"] == "dead" and "bottomless pit" in lines(events)


def test_retreat_from_a_pit_needs_no_roll_and_the_pit_is_never_searched():
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "pit-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    new, events = run(st, {"P1": "SEARCH"}, [])
    assert "Cannot search a bottomless pit" in lines(events)
    assert new["decks"]["search"]["discard"] == []
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "RETREAT"}, [])
    assert new["chars"]["P1"]["pos"] == "B1"


@pytest.mark.parametrize("roll, moved", [(4, True), (9, False)])
def test_cave_in_tile_needs_agility_to_go_on(roll, moved):
    st = make_state()
    place(st, "B2", "cave-in-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE SOUTH"}, [("cave-in/climb/P1", roll)])
    assert (new["chars"]["P1"]["pos"] == "B3") is moved
    if not moved:
        assert "turn is lost" in lines(events)


def test_cave_in_tile_takes_a_room_card_on_entry():
    st = make_state()
    stack_tiles(st, "cave-in-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["decks"]["room"]["discard"] == ["empty"]


@pytest.mark.parametrize("tile, roll, where", [
    ("darkness-two", 2, "B1"),    # 1-3: the way in
    ("darkness-two", 5, "B3"),    # 4-6: the other exit
    ("darkness-three", 1, "B1"),  # 1-2: the way in
    ("darkness-three", 3, "C2"),  # 3-4: nearest exit clockwise from the way in (east)
    ("darkness-three", 6, "A2"),  # 5-6: nearest exit anticlockwise (west)
])
def test_chamber_of_darkness_exit_by_d6(tile, roll, where):
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", tile, "S")
    put(st, "P1", "B2", "N", "B1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE NORTH"}, [("darkness/P1", roll)])
    assert new["chars"]["P1"]["pos"] == where


def test_darkness_exit_that_leads_nowhere_loses_the_turn():
    st = make_state()
    place(st, "A2", "darkness-two", "E")  # the way in is the west side: the outer wall
    put(st, "P1", "A2", "W", None)
    new, events = run(st, {"P1": "MOVE EAST"}, [("darkness/P1", 1)])
    assert new["chars"]["P1"]["pos"] == "A2"
    assert "the turn is lost" in lines(events)


def test_chasm_lets_a_hero_leave_only_on_the_bank_they_came_in_by():
    st = make_state()
    place(st, "B2", "chasm-left", "S")  # near bank: north (the way in) and east
    put(st, "P1", "B2", "N", "B1")
    new, events = run(st, {"P1": "MOVE SOUTH"}, [])
    assert new["chars"]["P1"]["pos"] == "B2"
    assert "across the chasm" in lines(events)
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "C2"


def test_chasm_cannot_be_searched():
    st = make_state()
    place(st, "B2", "chasm-left", "S")
    put(st, "P1", "B2", "N", "B1")
    _, events = run(st, {"P1": "SEARCH"}, [])
    assert "Cannot search a chasm" in lines(events)


def test_rotating_room_turns_once_and_takes_no_card():
    st = make_state()
    stack_tiles(st, "rotating-hall")
    new, events = run(st, {"P1": "MOVE EAST"}, [])
    cell = new["board"]["B1"]
    # laid open west/east, then a quarter turn clockwise: open north/south
    assert cell["exits"] == {"N": "open", "E": "wall", "S": "open", "W": "wall"}
    assert cell["rotated"] is True
    assert new["decks"]["room"]["discard"] == []
    assert "grinds a quarter turn" in lines(events)
    # the way back is now a wall: the hero is cut off from the tower
    again, events = run(new, {"P1": "RETREAT"}, [])
    assert again["chars"]["P1"]["pos"] == "B1"
    # a second visit does not turn it again
    st2 = make_state()
    st2["board"]["B1"] = dict(cell)
    st2["bag"].remove("rotating-hall")
    place(st2, "B2", "room-cross", "S")
    put(st2, "P1", "B2", "N", "B1")
    after, _ = run(st2, {"P1": "MOVE NORTH"}, [])
    assert after["board"]["B1"]["exits"] == cell["exits"]


def test_door_card_opens_or_jams_and_a_jammed_door_is_tried_again():
    st = make_state()
    place(st, "B2", "room-door-ahead", "S")  # the south exit is a door
    put(st, "P1", "B2", "N", "B1")
    stack(st, "door", "jammed", "opens")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE SOUTH"}, [])
    assert new["chars"]["P1"]["pos"] == "B2"
    assert "jammed" in lines(events)
    new, events = run(new, {"P1": "MOVE SOUTH"}, [])
    assert new["chars"]["P1"]["pos"] == "B3"
    assert new["chars"]["P1"]["via"] == "door"


@pytest.mark.parametrize("roll, moved", [(9, True), (10, False)])
def test_portcullis_lifts_on_strength_or_less(roll, moved):
    st = make_state()  # the knight: Strength 9
    place(st, "B2", "room-grate-ahead", "S")
    put(st, "P1", "B2", "N", "B1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE SOUTH"}, [("portcullis/P1", roll)])
    assert (new["chars"]["P1"]["pos"] == "B3") is moved


def test_portcullis_room_forbids_escape_from_its_monster():
    st = make_state()
    stack_tiles(st, "portcullis-cross")
    stack(st, "room", "monster:orc")
    new, events = run(st, {"P1": "MOVE EAST\nESCAPE"}, [])
    pending = new["chars"]["P1"]["pending"]
    assert pending["type"] == "monster" and pending["no_escape"] is True
    assert new["board"]["B1"]["exits"]["W"] == "portcullis"
    from games.dungeonquest.engine import ENGINE
    assert "ESCAPE" not in ENGINE.decision(new).prompts["P1"]["choices"]


def test_trap_room_takes_a_trap_card_instead_of_a_room_card():
    st = make_state()
    stack_tiles(st, "trap-cross")
    stack(st, "trap", "snakes")
    new, events = run(st, {"P1": "MOVE EAST"}, [("harm/snakes/P1", 3)])
    assert new["chars"]["P1"]["life"] == 13
    assert new["decks"]["room"]["discard"] == []


def test_search_finds_a_secret_door_to_the_named_square():
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "dead-end", "S")
    put(st, "P1", "B2", "N", "B1")
    stack(st, "search", "secret-door")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "SEARCH THEN EAST"}, [])
    ch = new["chars"]["P1"]
    assert ch["pos"] == "C2" and ch["via"] == "secret"
    assert "through a secret door" in lines(events)


def test_search_may_name_the_square_instead_of_the_direction():
    st = make_state()
    place(st, "B2", "dead-end", "S")
    put(st, "P1", "B2", "N", "B1")
    stack(st, "search", "secret-door")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "SEARCH THEN A2"}, [])
    assert new["chars"]["P1"]["pos"] == "A2"


def test_a_room_is_searched_at_most_twice_a_visit():
    st = make_state()
    place(st, "B2", "room-cross", "S")
    put(st, "P1", "B2", "N", "B1", searches=2)
    new, events = run(st, {"P1": "SEARCH"}, [])
    assert "searched twice" in lines(events)
    assert new["decks"]["search"]["discard"] == []


def test_corridors_cannot_be_searched():
    st = make_state()
    place(st, "B2", "corridor-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    _, events = run(st, {"P1": "SEARCH"}, [])
    assert "Cannot search a corridor" in lines(events)


def test_entering_a_tower_escapes_and_two_directions_pass_through_it():
    st = make_state()
    place(st, "A2", "room-cross", "S")
    put(st, "P1", "A2", "N", "A1")
    new, events = run(st, {"P1": "MOVE NORTH"}, [])
    assert new["chars"]["P1"]["status"] == "escaped"
    assert new["over"] is True
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE NORTH EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "B1" and new["chars"]["P1"]["status"] == "in"
    assert "Passes through the tower" in lines(events)


def test_missed_deadline_continues_toward_the_destination_and_says_so():
    st = make_state()
    st["chars"]["P1"]["destination"] = "C1"
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {}, [], missed=("P1",))
    assert new["chars"]["P1"]["pos"] == "B1"
    assert "sent no orders this turn and continues toward C1" in lines(events)
    st["chars"]["P1"]["destination"] = None
    new, events = run(st, {}, [], missed=("P1",))
    assert new["chars"]["P1"]["pos"] == "A1"
    assert "stands still" in lines(events)


def test_sunset_after_turn_26_kills_everyone_inside():
    st = make_state(2)
    st["turn"] = 26
    place(st, "B2", "room-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    st["chars"]["P2"].update(status="escaped", fate="escaped",
                             treasure=[{"name": "x", "value": 10}])
    new, events = run(st, {"P1": "STAY"}, [])
    assert new["chars"]["P1"]["status"] == "dead"
    assert new["over"] is True
    result = next(e for e in events if e.kind == "result")
    assert result.data["winners"] == ["P2"]


def test_the_treasure_chamber_is_one_room_over_two_squares():
    st = make_state()
    put(st, "P1", "E7", "W", "D7")
    place(st, "D7", "room-cross", "E")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "G7"
    assert CHAMBER == ("E7", "F7")
    assert lay_tile(content.for_revision(ENGINE.revision).tiles, "room-cross", "E")["exits"]["W"] == "open"


def test_a_corridor_that_runs_into_a_tower_passes_through_unless_it_is_the_destination():
    st = make_state()
    place(st, "A3", "corridor-bend-left", "S")  # entered from the north... laid N/E open
    st["board"]["A3"]["exits"] = {"N": "open", "E": "open", "S": "wall", "W": "wall"}
    place(st, "A2", "corridor-straight", "S")  # north/south
    place(st, "B3", "room-cross", "S")
    put(st, "P1", "B3", "N", "B2")
    st["chars"]["P1"]["destination"] = "E7"
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE WEST"}, [])
    assert new["chars"]["P1"]["status"] == "in" and new["chars"]["P1"]["pos"] == "B1"
    st["chars"]["P1"]["destination"] = "A1"
    new, events = run(st, {"P1": "MOVE WEST"}, [])
    assert new["chars"]["P1"]["status"] == "escaped"


def test_priority_ties_roll_again():
    st = make_state(2)
    place(st, "B2", "room-cross", "S")
    place(st, "D2", "room-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    put(st, "P2", "D2", "N", "D1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST", "P2": "MOVE WEST"},
                 [("priority/C2/P1", 4), ("priority/C2/P2", 4),
                  ("priority/C2/P1", 1), ("priority/C2/P2", 3)])
    assert new["chars"]["P2"]["pos"] == "C2" and new["chars"]["P1"]["pos"] == "B2"
