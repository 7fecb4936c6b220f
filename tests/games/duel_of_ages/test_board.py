"""The board SVG: drawn where hexmap says the spaces are (neighbours touch on the
picture), every terrain and mark of a built map present, nothing smaller than the
legible minimum, and the built map drawn at its natural size."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from games.core.rng import Rng
from games.duel_of_ages import board, hexmap, pieces
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules import build


@pytest.mark.parametrize("data", [None, "standard"])
def test_the_picture_agrees_with_the_map_on_who_touches_whom(data):
    with hexmap.using(pieces.standard() if data else None):
        sc = board.Scale(hexmap.size()[0] > 12)
        spaces = sorted(hexmap.terrain())[:120]
        for a in spaces:
            for b in spaces:
                if a < b:
                    (x1, y1), (x2, y2) = sc.centre(a), sc.centre(b)
                    touching = math.hypot(x2 - x1, y2 - y1) < sc.r * math.sqrt(3) + 0.5
                    assert touching == (b in hexmap.neighbours(a)), (a, b)


def _standard_view():
    state, _ = ENGINE.setup(["North", "South"], {"team_size": 4, "map": "standard"},
                            Rng("v" * 64, "s"))
    for number in range(3):
        seat = ENGINE.decision(state).seats[0]
        state, _ = ENGINE.resolve(state, {seat: ENGINE.default_orders(state, seat)},
                                  Rng("v" * 64, str(number)))
    return ENGINE.view(state, None)


def test_a_built_map_shows_every_terrain_and_mark_legibly():
    view = _standard_view()
    svg = ENGINE.board(view)
    root = ET.fromstring(svg)
    text = ET.tostring(root, encoding="unicode")
    for label in ("tunnel entrance", "red eye", "labyrinth wall", "cavern wall",
                  "guardian position", "Tower of Maneuver", "Tower of Desperation",
                  "deep water", "obstacle", "fire", "edge of a platter or key"):
        assert label in text, label
    assert 'class="natural"' in svg and re.search(r'<svg[^>]* width="\d+" height="\d+"', svg)
    sizes = [float(t.get("font-size")) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sizes and min(sizes) >= board.MIN_FONT
    on_map = [k for k, c in view["chars"].items() if c["status"] == "map"]
    assert on_map and all(k[:3] in text for k in on_map)
    assert "R" in {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}  # column R


def test_a_map_wider_than_the_alphabet_has_two_letter_columns():
    # four platters in a row, west to east (each site south-east of the last), with keys
    placement = {"platters": {"COLOSSUS": "A1", "FENS": "B2", "CITADEL": "C2",
                              "HIGHLANDS": "D3"},
                 "dome_keys": {}, "labyrinths": {}}
    data = pieces.assemble(placement)
    with hexmap.using(data):
        assert hexmap.size()[0] > 26 and any(s.startswith("AA") for s in hexmap.terrain())
        svg = board.board({"chars": {}, "labyrinths": {}, "round": 1, "rounds": 10,
                           "active": "White", "over": False})
    assert ">AA<" in svg


def test_the_board_names_the_pieces_while_the_map_is_built():
    state, _ = ENGINE.setup(["North", "South"], {"team_size": 4, "map": "build"},
                            Rng("w" * 64, "s"))
    seat = state["seats"][build.builder(state)]
    state, _ = ENGINE.resolve(state, {seat: ENGINE.parse_orders(
        state, seat, "PLATTER COLOSSUS AT D4\nKEY KEY1 AT D4SE")}, Rng("w" * 64, "1"))
    svg = ENGINE.board(ENGINE.view(state, None))
    assert "COLOSSUS D4" in svg and "KEY1 D4SE" in svg
    assert "Map build, step 2 of 10: Team White places a platter and a dome key" in svg


def test_the_board_marks_the_readers_own_units_from_the_view_alone():
    """A seat's board tells its units (class unit-mine) from the enemy's; the public and
    the GM's boards take no side. Issue 28: a phone scrolls to the reader's units."""
    state, _ = ENGINE.setup(["North", "South"], {}, Rng("u" * 64, "s"))
    for number in range(3):
        seat = ENGINE.decision(state).seats[0]
        state, _ = ENGINE.resolve(state, {seat: ENGINE.default_orders(state, seat)},
                                  Rng("u" * 64, str(number)))
    for seat, colour in ((s, c) for c, s in state["seats"].items()):
        root = ET.fromstring(ENGINE.board(ENGINE.view(state, seat)))
        groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                  if "unit" in g.get("class", "").split()]
        assert groups
        for g in groups:
            mine = "unit-mine" in g.get("class").split()
            assert mine == (g.get("data-team") == colour), (seat, g.attrib)
    for reader in (None, "*"):
        svg = ENGINE.board(ENGINE.view(state, reader))
        assert 'class="unit"' in svg and "unit-mine" not in svg and "unit-theirs" not in svg
