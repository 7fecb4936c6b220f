"""Setup and the map build: pieces joined at sockets, the build as a sequence of orders
that always yields a legal map, the ready-made standard map, characters dealt face down
and revealed when the map is built."""

import json

import pytest

from games.core.canonical import canonical_json
from games.core.rng import Rng
from games.core.types import OrdersInvalid
from games.duel_of_ages import hexmap, pieces
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules import build


def _setup(**options):
    return ENGINE.setup(["North", "South"], {"team_size": 4, **options}, Rng("b" * 64, "s"))


def _order(state, text):
    seat = state["seats"][build.builder(state)]
    orders = ENGINE.parse_orders(state, seat, text)
    return ENGINE.resolve(state, {seat: orders}, Rng("b" * 64, str(state["build"]["step"])))


def test_the_standard_map_is_legal_and_complete():
    placement = pieces.pieces()["standard"]
    assert pieces.holes(placement) == 0
    assert len(placement["platters"]) == 4 and len(placement["dome_keys"]) == 6
    assert len(placement["labyrinths"]) == 4
    data = pieces.standard()
    with hexmap.using(data):
        assert sorted(hexmap.domes().values()) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
        assert sorted(hexmap.towers().values()) == ["desperation", "havoc", "knowledge",
                                                    "maneuver", "vortex"]
        assert set(hexmap.labyrinths()) == {"ancient", "colonial", "modern", "future"}
        for spaces in hexmap.labyrinths().values():
            entrance = spaces[0]
            # each labyrinth is entered from the map
            assert any(hexmap.enterable(n) and all(n not in s for s in
                                                   hexmap.labyrinths().values())
                       for n in hexmap.passable(entrance))
        assert any(t == "obstacle" for t in hexmap.terrain().values())   # the Colossus
        assert hexmap.walls() and hexmap.tunnel_segments() and hexmap.entrances()


def test_the_standard_map_option_plays():
    state, events = _setup(map="standard")
    assert state["map"]["key"] == pieces.standard()["key"]
    assert ENGINE.invariants(state) == []
    assert [e.kind for e in events].count("revealed") == 2


def test_a_hole_in_a_built_map_is_a_wall_for_sight():
    data = pieces.standard()
    with hexmap.using(data):
        voids = hexmap.voids()
        assert voids and not (voids & set(hexmap.terrain()))
        # A1..D4 is a hole: nothing sees across it
        assert "A1" in voids


BUILD = [
    "PLATTER COLOSSUS AT B2\nKEY KEY1 AT A2",
    "PLATTER FENS AT D2\nKEY KEY2 AT F3",
    "PLATTER CITADEL AT B4\nKEY KEY3 AT A3",
    "PLATTER HIGHLANDS AT D4\nKEY KEY4 AT F4",
    "KEY KEY5 AT C1",
    "KEY KEY6 AT D6",
    "LABYRINTH ANCIENT AT B1",
    "LABYRINTH COLONIAL AT A4",
    "LABYRINTH MODERN AT F2",
    "LABYRINTH FUTURE AT C6",
]


def test_a_build_by_orders():
    state, events = _setup(map="build")
    assert state["phase"] == "build"
    assert "revealed" not in [e.kind for e in events]
    white, black = state["seats"]["White"], state["seats"]["Black"]
    assert ENGINE.decision(state).seats == [black]            # Black places first
    for number, text in enumerate(BUILD):
        assert ENGINE.decision(state).seats == [state["seats"][build.STEPS[number][0]]]
        state, events = _order(state, text)
        assert ENGINE.invariants(state) == []
    assert state["phase"] == "play" and "build" not in state
    assert pieces.holes(state["map"]["placement"]) == 0
    assert [e.kind for e in events][-3:] == ["map_built", "revealed", "revealed"]
    assert all(lab["positions"] == {"White": len(state["map"]["labyrinths"][age]) - 1,
                                    "Black": len(state["map"]["labyrinths"][age]) - 1}
               for age, lab in state["labyrinths"].items())
    assert ENGINE.decision(state).seats == [white]            # then White's first turn
    assert "Team White places the labyrinth future" in ENGINE.report(events, None)


@pytest.mark.parametrize("step, text, message", [
    (0, "PLATTER COLOSSUS AT B2", "this step places PLATTER and KEY"),
    (0, "PLATTER COLOSSUS AT F6\nKEY KEY1 AT A1", "stick out of the table"),
    (0, "PLATTER COLOSSUS AT B2\nKEY KEY1 AT F6", "it must hook onto the map"),
    (1, "PLATTER FENS AT D2\nKEY KEY2 AT A1", "a dome key hooks onto a platter"),
    (0, "PLATTER ATLANTIS AT B2\nKEY KEY1 AT A2", "not a platter left to place"),
    (0, "PLATTER COLOSSUS AT Z9\nKEY KEY1 AT A2", "there is no site"),
    (1, "PLATTER FENS AT E5\nKEY KEY2 AT F4", "it must hook onto the map"),
    (1, "PLATTER FENS AT C2\nKEY KEY2 AT F3", "cover a piece already placed"),
    (6, "LABYRINTH ANCIENT AT F6", "nook, cranny or notch"),
    (4, "LABYRINTH ANCIENT AT B1", "this step places KEY"),
])
def test_build_errors(step, text, message):
    state, _ = _setup(map="build")
    for done in BUILD[:step]:
        state, _ = _order(state, done)
    seat = state["seats"][build.builder(state)]
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(state, seat, text)
    assert message in str(err.value)
    assert err.value.errors[0].hint                              # a way out is offered


def test_a_build_that_would_leave_too_many_holes_is_refused():
    # Platters a site apart leave crannies between them: with all four spread so, eight
    # crannies, more than four labyrinths can fill.
    spread = {"platters": {"COLOSSUS": [0, 0], "FENS": [3, 0], "CITADEL": [0, 3],
                           "HIGHLANDS": [3, 3]},
              "dome_keys": {"KEY1": [2, 0], "KEY2": [0, 2], "KEY3": [5, 2], "KEY4": [2, 5]},
              "labyrinths": {}}
    assert pieces.holes(spread) > 4
    assert not build.finishable(spread, 4)
    # so the order that would make it is refused, naming the rule
    state, _ = _setup(map="build")
    for text in ("PLATTER COLOSSUS AT A1\nKEY KEY1 AT C1",
                 "PLATTER FENS AT D1\nKEY KEY2 AT A3",
                 "PLATTER CITADEL AT A4\nKEY KEY3 AT B6"):
        state, _ = _order(state, text)
    seat = state["seats"][build.builder(state)]
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(state, seat, "PLATTER HIGHLANDS AT E3\nKEY KEY4 AT C5")
    assert "more nooks and crannies than labyrinths" in str(err.value)


@pytest.mark.parametrize("seed", range(6))
def test_random_builds_always_finish_legally(seed):
    import random

    rnd = random.Random(seed)
    state, _ = _setup(map="build")
    while state.get("phase") == "build":
        seat = state["seats"][build.builder(state)]
        text = ENGINE.random_orders(state, seat, lambda xs: rnd.choice(list(xs)))
        state, _ = ENGINE.resolve(state, {seat: ENGINE.parse_orders(state, seat, text)},
                                  Rng("r" * 64, str(seed)))
    assert pieces.holes(state["map"]["placement"]) == 0
    assert len(state["map"]["labyrinths"]) == 4
    assert ENGINE.invariants(state) == []


def test_characters_dealt_face_down_until_the_map_is_built():
    state, events = _setup(map="build")
    white, black = state["seats"]["White"], state["seats"]["Black"]
    blacks = [k for k, c in state["chars"].items() if c["team"] == "Black"]
    for viewer in (white, None):
        text = canonical_json(ENGINE.view(state, viewer)) + ENGINE.report(events, viewer)
        assert not any(k in text for k in blacks), viewer
    assert all(k in json.dumps(ENGINE.view(state, black)) for k in blacks)
    # the no-leak perturbation swaps a hidden character for one not dealt
    def pick(xs):
        xs = list(xs)
        return "roster" if "roster" in xs else xs[-1]

    perturbed = ENGINE.perturb_hidden(state, white, pick)
    assert set(perturbed["chars"]) != set(state["chars"])
    assert canonical_json(ENGINE.view(perturbed, white)) == \
        canonical_json(ENGINE.view(state, white))


def test_the_board_draws_a_built_map():
    state, _ = _setup(map="standard")
    svg = ENGINE.board(ENGINE.view(state, None))
    assert svg.startswith("<svg") and "wall" in svg and "tower" in svg
