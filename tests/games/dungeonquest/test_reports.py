"""Golden reports: a few complete reports pinned word for word, and the SVG map.

Regenerate after a deliberate change with UPDATE_GOLDEN=1 and read the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.replay import secret_rng
from games.dungeonquest.board import svg
from games.dungeonquest.engine import ENGINE
from games.dungeonquest.simulate import bot_orders
from tests.games.golden import assert_golden

from .helpers import make_state, place, put, run, stack, stack_tiles

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    assert_golden(GOLDEN / name, text)


def scripted_two_turns():
    """Turn 1: the knight meets an orc no order covers while the barbarian runs a corridor
    into a trapdoor. Turn 2: the orc decision first (attack, combat), then movement."""
    st = make_state(2)
    place(st, "B1", "room-cross", "E")
    put(st, "P1", "B1", "W", "A1")
    stack_tiles(st, "room-cross", "corridor-straight", "room-cross", "room-cross",
                "room-door-ahead")
    stack(st, "room", "monster:orc", "trapdoor", "treasure:jewellery", "empty")
    one, ev1 = run(st, {"P1": "MOVE SOUTH", "P2": "MOVE SOUTH\nDESTINATION E7"},
                   [("trapdoor/P2", 4)])
    two, ev2 = run(one, {"P1": "ATTACK\nMOVE EAST", "P2": "MOVE SOUTH"},
                   [("reaction/P1", 2), ("combat/P1", 3), ("combat/P1", 8),
                    ("combat/P1", 5), ("combat/P1", 10)])
    return ev1, ev2


def bot_game_turn(secret: str, turn: int):
    state, _ = ENGINE.setup(["P1"], ENGINE.new_game_options({"first_hero": "adventurer", "hero_choice": "assigned"}),
                            secret_rng(secret, None))
    for n in range(1, turn + 1):
        orders = {s: ENGINE.parse_orders(state, s, bot_orders(state, s))
                  for s in ENGINE.decision(state).seats}
        state, events = ENGINE.resolve(state, orders, secret_rng(secret, n))
    return state, events


def test_setup_report():
    _, events = ENGINE.setup(["P1", "P2"], ENGINE.new_game_options({}), secret_rng("golden", None))
    check_golden("report0_public.md", ENGINE.report(events, None))
    check_golden("report0_P1.md", ENGINE.report(events, "P1"))


def test_report_of_the_heroes_chosen():
    """Both want the ranger: a d6 each; P2 loses and falls back on the knight."""
    from games.core.rng import ScriptedRng
    state, _ = ENGINE.setup(["P1", "P2"], ENGINE.new_game_options({}), secret_rng("golden", None))
    orders = {"P1": ENGINE.parse_orders(state, "P1", "HERO RANGER"),
              "P2": ENGINE.parse_orders(state, "P2", "Play El-Moran or Sir Rohan")}
    _, events = ENGINE.resolve(state, orders, ScriptedRng([("hero/ranger/P1", 5),
                                                            ("hero/ranger/P2", 2)]))
    check_golden("report0_chosen_public.md", ENGINE.report(events, None))
    check_golden("report0_chosen_P2.md", ENGINE.report(events, "P2"))


@pytest.mark.parametrize("viewer", ["P1", "P2", None, "*"])
def test_reports_of_a_decision_and_its_resolution(viewer):
    ev1, ev2 = scripted_two_turns()
    tag = "public" if viewer is None else ("gm" if viewer == "*" else viewer)
    check_golden(f"report1_{tag}.md", ENGINE.report(ev1, viewer))
    check_golden(f"report2_{tag}.md", ENGINE.report(ev2, viewer))


def test_report_of_a_turn_in_the_treasure_chamber():
    _, events = bot_game_turn("gold-6", 8)
    check_golden("chamber_turn_P1.md", ENGINE.report(events, "P1"))
    check_golden("chamber_turn_public.md", ENGINE.report(events, None))


def test_report_of_nightfall_and_the_result():
    st = make_state(2)
    st["turn"] = 26
    place(st, "B2", "room-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    st["chars"]["P2"].update(status="escaped", fate="escaped through the tower J1 on turn 20",
                             treasure=[{"name": "a treasure counter", "value": 150}])
    _, events = run(st, {"P1": "STAY"}, [])
    check_golden("report26_public.md", ENGINE.report(events, None))


def test_report_shape():
    ev1, ev2 = scripted_two_turns()
    one = ENGINE.report(ev1, "P1")
    two = ENGINE.report(ev2, "P1")
    assert "Round 1's movement only." in one
    assert "**Your decision next turn:** a Orc" in one or "Orc (4 Life Points)" in one
    assert two.index("**Decisions from round 1**") < two.index("**Round 2**")
    assert "Sunset in 24 rounds" in two
    assert "```text" in two


def test_svg_map_from_a_view():
    ev1, _ = scripted_two_turns()
    st = make_state(2)
    place(st, "B1", "room-door-ahead", "E")
    put(st, "P1", "B1", "W", "A1")
    picture = svg(ENGINE.view(st, None))
    assert picture.startswith("<svg") and picture.endswith("</svg>")
    assert "Sir Rohan" in picture and "B1: room" in picture
    assert picture.count("<circle") == 2


def test_no_decisions_header_when_none_were_left_over():
    st = make_state()
    st["turn"] = 5
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    _, events = run(st, {"P1": "MOVE EAST"}, [])
    for viewer in ("P1", None):
        text = ENGINE.report(events, viewer)
        assert "First the decisions" not in text and "Round 5's movement." in text
    st["chars"]["P1"]["pending"] = {"type": "crypt", "square": "A1"}
    stack(st, "room", "empty")
    _, events = run(st, {"P1": "IGNORE\nMOVE EAST"}, [])
    assert "First the decisions arising from round 4" in ENGINE.report(events, "P1")
    assert "First the decisions" not in ENGINE.report(events, None)  # a private decision


@pytest.mark.parametrize("card, script, private", [
    ("sneak:orc", [("sneak/P1", 12)], "the ambush (d12-Luck: 12-4)"),
    ("bats", [("harm/bats/P1", 6)], "a swarm of vampire bats (d6: 6)"),
])
def test_the_public_death_line_keeps_the_dice_private(card, script, private):
    st = make_state()
    st["chars"]["P1"]["life"] = 5
    stack_tiles(st, "room-cross")
    stack(st, "room", card)
    new, events = run(st, {"P1": "MOVE EAST"}, script)
    assert new["chars"]["P1"]["status"] == "dead"
    public = ENGINE.report(events, None)
    assert "has perished in B1" in public
    assert private.split(" (")[0] in public and "(d" not in public
    assert private.lower() in ENGINE.report(events, "P1").lower()


# -- the room a hero stands in, as his next orders need it ------------------------------

def room_line(events, seat: str = "P1") -> str:
    report = ENGINE.report(events, seat)
    return next(line for line in report.splitlines() if line.startswith("**Your room:**"))


@pytest.mark.parametrize("tile, moving, orders, expected", [
    # a room he searched once: one search left (twice a visit)
    ("room-cross", "S", "SEARCH",
     "a room (exits: north, east, south, west); 1 search left this visit"),
    # a chasm: the exits on his own bank, the way in and one side
    ("chasm-left", "S", "STAY",
     "a chasm (exits: north, east, south, west); this side of the chasm: north, east; "
     "cannot be searched"),
])
def test_the_private_report_describes_the_room_as_it_is_now(tile, moving, orders, expected):
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", tile, moving)
    put(st, "P1", "B2", "N", "B1")
    stack(st, "search", "empty")
    _, events = run(st, {"P1": orders}, [])
    assert room_line(events) == f"**Your room:** {expected}."
    assert "Your room" not in ENGINE.report(events, None)  # his own, not the public's


def test_the_room_line_shows_the_portcullis_that_fell_behind_the_hero():
    """Revision 3: the move line describes the room as found; the room line the way it
    is at the end of the turn, with the portcullis that fell on the way in."""
    st = make_state()
    place(st, "B2", "portcullis-cross", "S")
    place(st, "C2", "room-cross", "W")
    put(st, "P1", "C2", "E", "D2")
    stack(st, "room", "empty")
    _, events = run(st, {"P1": "MOVE WEST"}, [])
    assert room_line(events) == ("**Your room:** a portcullis room (exits: north portcullis, "
                                 "east portcullis, south, west); 2 searches left this visit.")
