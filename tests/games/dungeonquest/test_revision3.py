"""What rules revision 3 changed, and that revision 2 still plays as it did.

Each scenario is played under both revisions (state + orders -> outcome): revision 3 is
what the rulebook says, revision 2 is kept for the games recorded with it (their replay
is pinned in `test_stored_records.py`). README, "Rules revisions" and "Rulings".
"""

from __future__ import annotations

import pytest

from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack, stack_tiles

# -- a portcullis room drops its portcullis behind every hero who comes in -------------


def side_visit(revision: int):
    """A portcullis room laid in B2 by a hero moving south (its portcullis on the north
    side), visited later by the knight coming in from C2, on its east side."""
    st = make_state(revision=revision)
    place(st, "B2", "portcullis-cross", "S")
    place(st, "C2", "room-cross", "W")
    put(st, "P1", "C2", "E", "D2")
    stack(st, "room", "empty")
    return st


@pytest.mark.parametrize("revision, east, rolls, back_in_c2", [
    # revision 3: the portcullis falls behind him; going back east means lifting it
    (3, "portcullis", [("portcullis/P1", 10)], False),  # 10 > Strength 9: stays in B2
    (3, "portcullis", [("portcullis/P1", 9)], True),
    # revision 2: only the side the tile was laid from had one; east stayed open
    (2, "open", [], True),
])
def test_a_portcullis_falls_behind_a_hero_who_comes_in_by_another_side(
        revision, east, rolls, back_in_c2):
    st = side_visit(revision)
    inside, events = run(st, {"P1": "MOVE WEST"}, [])
    assert inside["chars"]["P1"]["pos"] == "B2"
    assert "portcullis crashes down behind you" in lines(events)
    assert ("east way out is barred" in lines(events)) is (revision >= 3)
    assert inside["board"]["B2"]["exits"]["E"] == east
    assert inside["board"]["B2"]["exits"]["N"] == "portcullis"  # the first one stays down
    stack(inside, "room", "empty")
    out, _ = run(inside, {"P1": "MOVE EAST"}, rolls)
    assert (out["chars"]["P1"]["pos"] == "C2") is back_in_c2


def test_the_portcullis_does_not_fall_where_a_secret_door_let_the_hero_in():
    """A hero who comes into a portcullis room through a secret door finds a wall behind
    him, not a doorway: there is nothing for a portcullis to close."""
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "dead-end", "S")  # open only to the north
    place(st, "C2", "portcullis-sides", "W")  # portcullis east, open north and south, wall west
    put(st, "P1", "B2", "N", "B1")
    stack(st, "search", "secret-door")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "SEARCH THEN EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "C2"
    assert "entered through its wall" in lines(events)
    assert new["board"]["C2"]["exits"] == {"N": "open", "E": "portcullis", "S": "open",
                                           "W": "wall"}


# -- a skeleton risen in a room with no way back leaves no escape ----------------------

def crypt_in(revision: int, tile: str):
    """The knight steps south from B1 into a fresh `tile` in B2 whose room card is a
    crypt; he searches it and a skeleton rises as a Death Warrior."""
    st = make_state(revision=revision)
    place(st, "B1", "room-cross", "E")
    put(st, "P1", "B1", "W", "A1")
    stack_tiles(st, tile)
    stack(st, "room", "crypt")
    stack(st, "crypt", "skeleton")
    return st


ORDERS = "MOVE SOUTH\nIF CRYPT THEN SEARCH CRYPT\nIF MONSTER THEN ESCAPE"


@pytest.mark.parametrize("revision, tile, script, pos, pending", [
    # revision 3: in a portcullis room the risen skeleton is met like the room's own card:
    # no ESCAPE; the order cannot be followed and the meeting waits for next turn
    (3, "portcullis-cross", [("skeleton/P1", 5)], "B2", True),
    # revision 2 let him escape, and back out under the portcullis without lifting it
    (2, "portcullis-cross", [("skeleton/P1", 5), ("reaction/P1", 6)], "B1", False),
    # an ordinary room: escape is allowed in both revisions (6 - menace 1 = 5: escape)
    (3, "room-cross", [("skeleton/P1", 5), ("reaction/P1", 6)], "B1", False),
    (2, "room-cross", [("skeleton/P1", 5), ("reaction/P1", 6)], "B1", False),
])
def test_a_skeleton_risen_in_a_portcullis_room_leaves_no_escape(
        revision, tile, script, pos, pending):
    new, events = run(crypt_in(revision, tile), {"P1": ORDERS}, script)
    ch = new["chars"]["P1"]
    assert "rises as a Death Warrior" in lines(events)
    assert ch["pos"] == pos
    assert (ch["pending"] is not None) is pending
    if pending:
        assert ch["pending"]["kind"] == "death-warrior" and ch["pending"]["no_escape"]
        assert "ESCAPE" not in ENGINE.decision(new).prompts["P1"]["choices"]


def test_a_skeleton_behind_a_secret_door_leaves_no_escape():
    """Through a secret door into a room with a crypt: the skeleton that rises there is
    met with no way back, as the room's own monster would be."""
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "dead-end", "S")
    put(st, "P1", "B2", "N", "B1")
    stack(st, "search", "secret-door")
    stack_tiles(st, "room-cross")
    stack(st, "room", "crypt")
    stack(st, "crypt", "skeleton")
    new, _ = run(st, {"P1": "SEARCH THEN EAST\nIF CRYPT THEN SEARCH CRYPT\n"
                            "IF MONSTER THEN ESCAPE"}, [("skeleton/P1", 4)])
    ch = new["chars"]["P1"]
    assert ch["pos"] == "C2" and ch["pending"]["no_escape"] is True


def test_a_crypt_left_for_next_turn_still_leaves_no_escape():
    """The crypt decided a turn later (no order covered it): the skeleton rises in the
    same portcullis room, with no escape."""
    st = crypt_in(3, "portcullis-cross")
    new, _ = run(st, {"P1": "MOVE SOUTH"}, [])
    assert new["chars"]["P1"]["pending"]["type"] == "crypt"
    after, _ = run(new, {"P1": "SEARCH CRYPT\nIF MONSTER THEN ESCAPE"}, [("skeleton/P1", 6)])
    assert after["chars"]["P1"]["pending"]["no_escape"] is True
