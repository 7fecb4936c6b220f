"""The map: terrain codes, move costs, line of sight and hit penalties from terrain."""

import itertools

import pytest

from games.duel_of_ages import hexmap

from .helpers import field, kinds, make, play


def test_map_has_six_numbered_domes_and_two_towers():
    assert sorted(hexmap.domes().values()) == [1, 2, 3, 4, 5, 6]
    assert all(hexmap.terrain()[s] == "tower" for s in hexmap.towers())


@pytest.mark.parametrize("space, cost", [
    ("B1", 1), ("D1", 2), ("F2", 2), ("J3", 2), ("B3", 3), ("H1", 3), ("E5", 1)])
def test_move_costs(space, cost):
    assert hexmap.cost(space) == cost


@pytest.mark.parametrize("space", ["A1", "K4", "H6", "G4"])
def test_stay_out_terrain(space):
    assert not hexmap.enterable(space)


@pytest.mark.parametrize("a, b, sees, why", [
    ("C1", "C9", True, "woods and swamp do not block"),
    ("D3", "D6", False, "a building between blocks"),
    ("C4", "D4", True, "one can see into a building"),
    ("D4", "C4", True, "and out of it"),
    ("F4", "H4", False, "the fallen statue blocks"),
    ("F5", "E5", False, "nobody sees into a tower"),
    ("B5", "A5", False, "nor into a dome"),
    ("F5", "F5", True, "one's own space"),
])
def test_line_of_sight(a, b, sees, why):
    assert hexmap.sees(a, b) is sees, why


def test_line_of_sight_is_symmetric():
    spaces = sorted(hexmap.terrain())
    for a, b in itertools.combinations(spaces, 2):
        assert hexmap.sees(a, b) == hexmap.sees(b, a), (a, b)


@pytest.mark.parametrize("a, b, penalty", [
    ("C1", "C9", 4),    # C2 woods, C3 swamp, C7 woods, C8 woods
    ("F3", "F2", 1),    # target in rough
    ("E6", "E7", 0),    # water does not hinder
    ("C5", "D4", 2),    # target in a building
    ("C1", "C4", 2),    # attacker's own space never counts; C2 woods, C3 swamp
])
def test_hindrance(a, b, penalty):
    assert hexmap.hindrance(a, b) == penalty


def test_cheapest_path_counts_terrain():
    # A3 to A6: the dome A5 cannot be entered; round it through A4 woods (2) beats
    # B4 swamp (3), then B5, B6, A6 at 1 each.
    path = hexmap.cheapest_path("A3", "A6")
    assert path == ["A4", "B5", "B6", "A6"]
    assert sum(hexmap.cost(s) for s in path) == 5


@pytest.mark.parametrize("a, b, sees", [
    ("I7", "H7", False),    # a wall between neighbours
    ("I6", "H7", True),     # an open side
    ("F6", "G6", True),
    ("H8", "H7", False),
    ("G6", "H7", True),     # inside the cavern
])
def test_cavern_walls_block_sight(a, b, sees):
    assert hexmap.sees(a, b) is sees
    assert hexmap.lobs(a, False, b, False) is (sees and hexmap.terrain()[b] != "dome")


def test_cavern_walls_block_movement():
    assert hexmap.cheapest_path("I7", "H7") == ["I6", "H7"]
    assert "H7" not in hexmap.passable("H8")


def test_tunnel_sight_and_grenade_lines_are_symmetric():
    spaces = sorted(hexmap.terrain())
    for a, b in itertools.combinations(spaces, 2):
        for down in (False, True):
            if down and not {a, b} <= hexmap.tunnel_spaces():
                continue
            assert hexmap.sight(a, down, b, down) == hexmap.sight(b, down, a, down)
        assert hexmap.lobs(a, False, b, False) == hexmap.lobs(b, False, a, False), (a, b)


# -- the map's edge is a cavern wall (rules revision 3) ----------------------------------
# A line from B1 to D1 runs along the top edge of C1 (the columns A, C, E sit half a
# space lower), which is the map's edge; from B2 to D2 it runs between C1 and C2, inside.
EDGE = field(". . . . .", ". . . . .", ". . . . .")


@pytest.mark.parametrize("revision, a, b, shot", [
    (3, "B1", "D1", False),     # along the top edge: a cavern wall blocks it
    (3, "D1", "B1", False),     # see you, see me
    (3, "B2", "D2", True),      # along an edge between two spaces of the map
    (3, "A3", "C3", False),     # along the bottom edge of B3
    (2, "B1", "D1", True),      # games before revision 3: the edge did not block
])
def test_the_map_edge_is_a_cavern_wall(revision, a, b, shot):
    state = make({"TAMSIN": ("White", a, ["SLING"]), "KORVATH": ("Black", b, [])},
                 map_=EDGE, revision=revision)
    _, events = play(state, {"White": "FIRE TAMSIN AT KORVATH", "Black": ""},
                     [("fire/hit", 6), ("fire/hit", 6)] if shot else [])
    assert len(kinds(events, "attack")) == shot
    if not shot:
        assert kinds(events, "no_shot")[0]["why"] == f"has no line of sight to {b}"


def test_the_skirmish_field_edge_blocks_sight_and_throws():
    # B1-D1 and C9-E9 run along the field's top and bottom edges
    for a, b in (("B1", "D1"), ("C9", "E9")):
        assert not hexmap.sees(a, b) and not hexmap.lobs(a, False, b, False)
        with hexmap.using(None, open_edge=True):  # rules revision 2 and before
            assert hexmap.sees(a, b)
