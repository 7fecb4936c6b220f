"""The map pieces as data and geometry: platters are hexagons of 61 spaces, keys
triangles of 10, and together they tile the table with no seam and no overlap; every
slot touches three platter sites; labyrinth keys hold one walled path from the entrance
to the red eye. Also the legal-map check the build tests use (`legal_map_problems`)."""

from __future__ import annotations

import pytest

from games.duel_of_ages import hexmap, pieces
from games.duel_of_ages.pieces import KEY_ORIGIN, PLATTER_ORIGIN, RADIUS


def _shape(rows, origin):
    return {cell: code for cell, code in pieces._read(rows, origin).values()}


HEXAGON = {(x, z) for x in range(-RADIUS, RADIUS + 1) for z in range(-RADIUS, RADIUS + 1)
           if max(abs(x), abs(z), abs(x + z)) <= RADIUS}
TRIANGLE = {(-2, 1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -2), (1, -1), (1, 0), (1, 1)}
ENTERABLE = set(".WBSR~TIE")


@pytest.mark.parametrize("name", sorted(pieces.pieces()["platters"]))
def test_a_platter_is_a_hexagon_with_a_walkable_rim(name):
    piece = pieces.pieces()["platters"][name]
    cells = _shape(piece["rows"], PLATTER_ORIGIN)
    assert set(cells) == HEXAGON
    rim = [c for c in cells if pieces._distance(c, (0, 0)) == RADIUS]
    assert all(cells[c] in ENTERABLE for c in rim), name  # pieces always join walkably
    read = pieces._read(piece["rows"], PLATTER_ORIGIN)
    for r, c, _ in piece["towers"]:
        assert read[(r, c)][1] == "T"
    assert sum(code == "T" for code in cells.values()) == len(piece["towers"])
    for seg in piece["tunnels"]:  # a straight run: one step, always the same way
        steps = {(read[tuple(b)][0][0] - read[tuple(a)][0][0],
                  read[tuple(b)][0][1] - read[tuple(a)][0][1]) for a, b in zip(seg, seg[1:])}
        assert len(steps) == 1 and next(iter(steps)) in pieces.DIRECTIONS, seg
    ends = {tuple(rc) for seg in piece["tunnels"] for rc in seg}
    assert all(tuple(e) in ends and read[tuple(e)][1] in ENTERABLE for e in piece["entrances"])


@pytest.mark.parametrize("kind", ["dome_keys", "labyrinth_keys"])
def test_keys_are_triangles(kind):
    for name, key in pieces.pieces()[kind].items():
        assert set(_shape(key["rows"], KEY_ORIGIN)) == TRIANGLE, name


def test_a_triangle_turned_a_third_is_itself_and_turned_half_fills_the_other_slot():
    assert {pieces._turn(c, 2) for c in TRIANGLE} == TRIANGLE
    placed = {(1, 0, 0): TRIANGLE, (1, 0, 1): {pieces._turn(c, 3) for c in TRIANGLE}}
    for slot, shape in placed.items():
        x0, z0 = pieces.slot_middle(slot)
        cells = {(x0 + x, z0 + z) for x, z in shape}
        for site in pieces.slot_sites(slot):  # the key touches each of its three platters
            assert min(pieces._distance(c, pieces.site_middle(site)) for c in cells) == RADIUS + 1


def test_pieces_tile_the_table_with_no_seam_and_no_overlap():
    # A 3 x 3 patch of platter sites and every slot between them: no space is covered
    # twice, and every space inside the patch's middle platter's neighbourhood is covered.
    # (A platter and its two slots are 61 + 10 + 10 = 81 = 9 x 9 spaces: the lattice's
    # cell, so disjoint pieces cover everything.)
    covered: dict[tuple[int, int], str] = {}
    for a in range(3):
        for b in range(3):
            mx, mz = pieces.site_middle((a, b))
            for x, z in HEXAGON:
                assert (mx + x, mz + z) not in covered
                covered[(mx + x, mz + z)] = f"platter {a},{b}"
            for o in (0, 1):
                sx, sz = pieces.slot_middle((a, b, o))
                for x, z in TRIANGLE:
                    x, z = pieces._turn((x, z), 3 * o)
                    assert (sx + x, sz + z) not in covered, (a, b, o)
                    covered[(sx + x, sz + z)] = f"slot {a},{b},{o}"
    middle = pieces.site_middle((1, 1))
    near = {(middle[0] + x, middle[1] + z) for x in range(-13, 14) for z in range(-13, 14)
            if pieces._distance((x, z), (0, 0)) <= 2 * RADIUS}
    assert near <= set(covered)


def test_platter_sites_touch_corner_to_corner_and_slots_sit_between_three():
    a = pieces.site_middle((2, 2))
    for n in pieces.site_neighbours((2, 2)):
        assert pieces._distance(a, pieces.site_middle(n)) == 2 * RADIUS + 1
    for slot in pieces.site_slots((2, 2)):
        sites = pieces.slot_sites(slot)
        assert (2, 2) in sites and len(set(sites)) == 3
        assert all(pieces._distance(pieces.site_middle(s), pieces.site_middle(t)) == 9
                   for s in sites for t in sites if s != t)


def test_a_slot_has_a_name_from_each_of_its_sites():
    assert pieces.parse_slot("C4SE") == pieces.parse_slot("D5W") == pieces.parse_slot("C5NE")
    for slot in {s for a in range(7) for b in range(-3, 7) for s in pieces.site_slots((a, b))
                 if pieces.on_table(s)}:
        names = [pieces.site_name(site) + side for site in pieces.slot_sites(slot)
                 if pieces.in_frame(site) for side in pieces.SIDES
                 if pieces.slot_on(site, side) == slot]
        assert names and all(pieces.parse_slot(n) == slot for n in names)
        assert pieces.parse_slot(pieces.slot_name(slot)) == slot
        # written back by a site holding a platter when there is one
        for site in pieces.slot_sites(slot):
            if pieces.in_frame(site):
                assert pieces.slot_name(slot, {site}).startswith(pieces.site_name(site))


@pytest.mark.parametrize("text, ok", [("A1", True), ("G7", True), ("H1", False),
                                      ("A8", False), ("A0", False), ("D4X", False)])
def test_site_names_are_on_the_table(text, ok):
    assert (pieces.parse_site(text) is not None) == ok


@pytest.mark.parametrize("age", sorted(pieces.pieces()["labyrinth_keys"]))
def test_a_labyrinth_key_holds_one_path_from_entrance_to_red_eye(age):
    cells = _shape(pieces.pieces()["labyrinth_keys"][age]["rows"], KEY_ORIGIN)
    open_ = [c for c, code in cells.items() if code != "#"]
    door = next(c for c, code in cells.items() if code == "I")
    assert [code for code in cells.values()].count("E") == 1
    path = pieces._path(open_, door)
    assert cells[path[-1]] == "E" and len(path) == 5
    # a line: no shortcut between spaces that are not one step apart on it
    for i, a in enumerate(path):
        for j, b in enumerate(path):
            assert (pieces._distance(a, b) == 1) == (abs(i - j) == 1), (a, b)
    # the entrance is on the side drawn to the right (facing the site east of the slot)
    assert door[0] == 1


@pytest.mark.parametrize("age", sorted(pieces.pieces()["labyrinth_keys"]))
@pytest.mark.parametrize("slot", [(2, 2, 0), (2, 2, 1)])
def test_a_labyrinth_key_turns_to_face_each_platter_beside_its_slot(age, slot):
    for site in pieces.slot_sites(slot):
        sixths = pieces.key_turn(age, slot, site)
        assert sixths % 2 == slot[2] % 2  # a turn of thirds, or a half more
        cells = _shape(pieces.pieces()["labyrinth_keys"][age]["rows"], KEY_ORIGIN)
        door = next(c for c, code in cells.items() if code == "I")
        x, z = pieces._turn(door, sixths)
        mx, mz = pieces.slot_middle(slot)
        assert pieces._distance((mx + x, mz + z), pieces.site_middle(site)) == RADIUS + 1


# -- what a legal map is ------------------------------------------------------------------
def legal_map_problems(data: dict) -> list[str]:
    """Everything a finished map must be: all pieces down, no nook or cranny left, one
    walkable whole, every dome and tower reachable, each labyrinth a walled path from an
    entrance on the map to its red eye."""
    placement = data["placement"]
    problems = []
    counts = tuple(len(placement[k]) for k in ("platters", "dome_keys", "labyrinths"))
    if counts != (4, 6, 4):
        problems.append(f"pieces placed {counts}")
    if pieces.holes(placement) or pieces.enclosed(placement):
        problems.append("a nook, cranny or hole is left")
    with hexmap.using(data):
        terrain = hexmap.terrain()
        if sorted(hexmap.domes().values()) != [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]:
            problems.append("domes")
        if len(hexmap.towers()) != 5:
            problems.append("towers")
        labyrinth = {s for spaces in hexmap.labyrinths().values() for s in spaces}
        walk = [s for s in terrain if hexmap.enterable(s) and terrain[s] != "tower"]
        start = next(s for s in walk if s not in labyrinth)
        reached, frontier = {start}, [start]
        while frontier:
            here = frontier.pop()
            for n in hexmap.passable(here):
                if n not in reached and n in walk:
                    reached.add(n)
                    frontier.append(n)
        if set(walk) - reached:
            problems.append(f"not one walkable whole: {sorted(set(walk) - reached)[:5]}")
        for space in list(hexmap.domes()) + list(hexmap.towers()):
            if not set(hexmap.passable(space)) & reached:
                problems.append(f"{space} cannot be reached")
        for age, spaces in hexmap.labyrinths().items():
            if terrain[spaces[-1]] != "clear" or len(spaces) != 5:
                problems.append(f"{age}: the path does not end on a clear red eye")
            for a, b in zip(spaces, spaces[1:]):
                if b not in hexmap.passable(a):
                    problems.append(f"{age}: the path is broken at {a}-{b}")
            ways_in = {(s, n) for s in spaces for n in hexmap.passable(s)
                       if n not in spaces and hexmap.enterable(n)}
            if not ways_in or {s for s, _ in ways_in} != {spaces[0]}:
                problems.append(f"{age}: entered other than by its entrance: {ways_in}")
    return problems


def test_the_standard_map_is_legal():
    assert legal_map_problems(pieces.standard()) == []


def test_the_legal_map_check_can_fail():
    data = pieces.standard()
    broken = dict(data, rows=[row.replace("E", "#") for row in data["rows"]], key="broken")
    assert any("red eye" in p for p in legal_map_problems(broken))
    fewer = dict(data, placement=dict(data["placement"], labyrinths={}), key="fewer")
    assert "pieces placed (4, 6, 0)" in legal_map_problems(fewer)
