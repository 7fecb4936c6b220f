"""The SVG map's hero markers: up to four on one square, none over another or the glyph.

The defect: each seat had a fixed corner of its square, and the fourth seat's was the
bottom left, where a corridor's (or a pit's, a trap room's...) glyph is drawn, so the
number 4 sat on the '+'. Markers are now laid out per square by how many stand there.
The text boxes are modelled the way a browser measures SVG text (a digit 0.64 em wide,
a line from 0.93 em above the baseline to 0.24 em below); tests/browser/test_boards.py
checks the drawn page at phone and laptop width.
"""

from __future__ import annotations

import itertools
import re

import pytest

from games.dungeonquest.board import FONT, GLYPH_BOX, HERO_COLOURS, marker_spots, svg
from games.dungeonquest.engine import ENGINE

from .helpers import make_state, place, put

CELL = 40
GLYPH_TEXT = (3, 35 - 0.93 * FONT, 3 + 1.0 * FONT, 35 + 0.24 * FONT)  # the widest glyph, '@'


def digit_box(x, y):
    return (x - 0.32 * FONT, y + 6 - 0.93 * FONT, x + 0.32 * FONT, y + 6 + 0.24 * FONT)


def shape_box(x, y, r):
    return (x - r, y - r, x + r, y + r) if r >= 9 else (x - r, y - 8.5, x + r, y + 8.5)


def overlap(a, b):
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def shapes_apart(a, b):
    (x1, y1, r1), (x2, y2, r2) = a, b
    if r1 >= 9 and r2 >= 9:
        return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 >= r1 + r2
    return overlap(shape_box(*a), shape_box(*b)) <= 0


def circle_clear_of(spot, box):
    x, y, r = spot
    if r < 9:
        return overlap(shape_box(*spot), box) <= 0
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return ((x - nx) ** 2 + (y - ny) ** 2) ** 0.5 >= r


@pytest.mark.parametrize("glyph", [False, True])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_markers_of_one_square_never_touch_each_other_or_the_glyph(count, glyph):
    spots = marker_spots(count, glyph)
    assert len(spots) == count
    for spot in spots:
        x0, y0, x1, y1 = shape_box(*spot)
        assert x0 >= 0 and y0 >= 0 and x1 <= CELL and y1 <= CELL, spot  # inside its square
        if glyph:
            assert circle_clear_of(spot, GLYPH_BOX), spot
            assert overlap(digit_box(*spot[:2]), GLYPH_TEXT) < 1, spot
    for a, b in itertools.combinations(spots, 2):
        assert shapes_apart(a, b), (a, b)
        assert overlap(digit_box(*a[:2]), digit_box(*b[:2])) < 1, (a, b)
    # the number fits its marker: a digit's ink (0.6 em wide) inside the badge or circle
    assert all(2 * r >= 0.6 * FONT for _, _, r in spots)


def markers(picture):
    """(x, y) of each marker's number and the colour of its marker, in drawing order."""
    shapes = re.findall(r'<(?:circle|rect)[^>]*fill="(#[0-9a-f]{6})"[^>]*><title>', picture)
    numbers = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" fill="#fff" '
                         r'text-anchor="middle">(\d)</text>', picture)
    return [(float(x), float(y), n) for x, y, n in numbers], [c for c in shapes
                                                             if c in HERO_COLOURS]


def test_four_heroes_on_a_corridor_keep_clear_of_its_glyph():
    st = make_state(4)
    place(st, "B3", "corridor-cross", "S")
    for seat in st["seats"]:
        put(st, seat, "B3", entry="N", prev="B2")
    picture = svg(ENGINE.view(st, None))
    numbers, colours = markers(picture)
    assert [n for *_, n in numbers] == ["1", "2", "3", "4"]
    assert colours == HERO_COLOURS
    glyph = re.search(r'<text x="([\d.]+)" y="([\d.]+)" fill="#111">\+</text>', picture)
    gx, gy = float(glyph[1]), float(glyph[2])  # B3: left 24 + 40, top 24 + 80
    assert (gx, gy) == (24 + 40 + 3, 24 + 80 + 35)
    for (x, y, _), spot in zip(numbers, marker_spots(4, True)):
        assert (x - 64, y - 6 - 104) == spot[:2]
        assert overlap(digit_box(x, y - 6), (gx, gy - 0.93 * FONT, gx + FONT,
                                            gy + 0.24 * FONT)) < 1


def test_the_fourth_seat_alone_on_a_corridor_is_not_drawn_on_its_glyph():
    st = make_state(4)
    place(st, "I13", "corridor-cross", "W")
    put(st, "P4", "I13", entry="E", prev="J13")
    numbers, _ = markers(svg(ENGINE.view(st, None)))
    x, y, n = next(m for m in numbers if m[2] == "4")
    left, top = 24 + 8 * 40, 24 + 12 * 40
    assert (x - left, y - 6 - top) == marker_spots(1, True)[0][:2]


def test_four_heroes_in_the_chamber_sit_in_a_square_of_four():
    st = make_state(4)
    for seat in st["seats"]:
        put(st, seat, "E7", entry="N", prev="E6")
    numbers, _ = markers(svg(ENGINE.view(st, None)))
    left, top = 24 + 4 * 40, 24 + 6 * 40
    assert [(x - left, y - 6 - top) for x, y, _ in numbers] == [
        s[:2] for s in marker_spots(4, False)]


def test_the_board_draws_nothing_for_heroes_out_of_the_dungeon():
    st = make_state(2)
    st["chars"]["P2"]["status"] = "dead"
    numbers, _ = markers(svg(ENGINE.view(st, None)))
    assert [n for *_, n in numbers] == ["1"]
