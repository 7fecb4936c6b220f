"""Setup and the map build: pieces joined at sockets, the build as a sequence of orders
that always yields a legal map, the ready-made standard map, characters dealt face down
and revealed before the labyrinths are placed."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.canonical import canonical_json
from games.core.rng import Rng
from games.core.types import OrdersInvalid
from games.duel_of_ages import hexmap, pieces
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules import build

from .test_pieces import legal_map_problems


def _setup(**options):
    return ENGINE.setup(["North", "South"], {"team_size": 4, **options}, Rng("b" * 64, "s"))


def _order(state, text):
    seat = state["seats"][build.builder(state)]
    orders = ENGINE.parse_orders(state, seat, text)
    return ENGINE.resolve(state, {seat: orders}, Rng("b" * 64, str(state["build"]["step"])))


def test_the_standard_map_is_legal_and_complete():
    placement = pieces.standard_placement()
    assert pieces.holes(placement) == 0
    assert len(placement["platters"]) == 4 and len(placement["dome_keys"]) == 6
    assert len(placement["labyrinths"]) == 4
    data = pieces.standard()
    assert legal_map_problems(data) == []
    with hexmap.using(data):
        assert sorted(hexmap.towers().values()) == ["desperation", "havoc", "knowledge",
                                                    "maneuver", "vortex"]
        assert set(hexmap.labyrinths()) == {"ancient", "colonial", "modern", "future"}
        assert any(t == "obstacle" for t in hexmap.terrain().values())   # the Colossus
        assert hexmap.walls() and hexmap.tunnel_segments() and hexmap.entrances()
        assert 300 < len(hexmap.terrain()) == 4 * 61 + 10 * 10


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
        # C21 and F21 are clear with a hole (E21) between them and nothing else
        line = hexmap.touched("C21", "F21")
        assert "#void" in line and "E21" in voids
        assert all(hexmap.terrain()[s] == "clear" for s in line if s != "#void")
        assert not hexmap.sees("C21", "F21")


def test_a_labyrinth_is_walled_but_at_its_entrance():
    with hexmap.using(pieces.standard()):
        for age, spaces in hexmap.labyrinths().items():
            entrance, inside = spaces[0], set(spaces)
            ways_in = {n for s in spaces for n in hexmap.passable(s) if n not in inside
                       and hexmap.enterable(n)}
            assert ways_in and all(entrance in hexmap.passable(n) for n in ways_in), age
            # and nobody outside sees in past the walls, but through the entrance
            for s in spaces[1:]:
                for n in hexmap.neighbours(s):
                    if n not in inside:
                        assert frozenset((s, n)) in hexmap.walls()


BUILD = [
    "PLATTER COLOSSUS AT D4\nKEY KEY1 AT D4NW",
    "PLATTER FENS AT C3\nKEY KEY2 AT C3SE",
    "PLATTER CITADEL AT C4\nKEY KEY3 AT C4E",
    "PLATTER HIGHLANDS AT D3\nKEY KEY4 AT D3SE",
    "KEY KEY5 AT D4E",
    "KEY KEY6 AT D4SE",
    "LABYRINTH ANCIENT AT C4SE FROM C4",
    "LABYRINTH COLONIAL AT D3E",
    "LABYRINTH MODERN AT C3SW FROM C4",
    "LABYRINTH FUTURE AT C3NE FROM D3",
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
    assert legal_map_problems(state["map"]) == []
    assert [e.kind for e in events][-1] == "map_built"
    assert all(lab["positions"] == {"White": len(state["map"]["labyrinths"][age]) - 1,
                                    "Black": len(state["map"]["labyrinths"][age]) - 1}
               for age, lab in state["labyrinths"].items())
    assert ENGINE.decision(state).seats == [white]            # then White's first turn
    assert ("Team White places the labyrinth future in slot C3NE, its entrance facing "
            "the platter at D3") in ENGINE.report(events, None)
    # without FROM, the entrance faces the platter beside the slot nearest the middle
    assert state["map"]["placement"]["labyrinths"]["colonial"] == ["D3E", "D3"]


@pytest.mark.parametrize("steps, shown", [
    (5, False),   # the fifth dome key is down: still face down
    (6, True),    # the sixth: revealed, before the first labyrinth is placed
    (8, True),
])
def test_characters_are_revealed_before_the_labyrinths_are_placed(steps, shown):
    """The rulebook reveals the characters once the platters and dome keys are down,
    so the teams place the labyrinths knowing the enemy's characters and their ages."""
    state, _ = _setup(map="build")
    kinds = []
    for text in BUILD[:steps]:
        state, events = _order(state, text)
        kinds += [e.kind for e in events]
    assert kinds.count("revealed") == (2 if shown else 0)
    north = state["seats"]["White"]
    theirs = {k for k, c in state["chars"].items() if c["team"] == "Black"}
    for seat, enemy in ((north, theirs), (None, theirs)):
        view = ENGINE.view(state, seat)
        assert (enemy <= set(view["chars"])) is shown
        assert ("hidden_chars" in view) is not shown
    offered: list = []
    ENGINE.perturb_hidden(state, north, lambda xs: offered.append(list(xs)) or list(xs)[0])
    assert ("roster" in offered[0]) is not shown  # the no-leak check swaps hidden ones


def test_a_labyrinth_entrance_faces_the_platter_its_order_names():
    state, _ = _setup(map="build")
    for text in BUILD[:8]:
        state, _ = _order(state, text)
    for facing in ("C3", "C4"):   # C3SW lies between the platters at C3 and C4
        after, _ = _order(state, f"LABYRINTH MODERN AT C3SW FROM {facing}")
        middle = next(space for piece, _, space in after["map"]["pieces"]
                      if piece == {"C3": "FENS", "C4": "CITADEL"}[facing])
        with hexmap.using(after["map"]):
            entrance = hexmap.labyrinths()["modern"][0]
            assert hexmap.distance(entrance, middle) == pieces.RADIUS + 1


@pytest.mark.parametrize("step, text, message", [
    (0, "PLATTER COLOSSUS AT D4", "this step places PLATTER and KEY"),
    (0, "PLATTER COLOSSUS AT H9\nKEY KEY1 AT D4NW", "there is no site"),
    (0, "PLATTER COLOSSUS AT D4\nKEY KEY1 AT D4N", "there is no slot"),
    (0, "PLATTER COLOSSUS AT D4\nKEY KEY1 AT F6SE", "a key hooks onto a platter"),
    (0, "PLATTER ATLANTIS AT D4\nKEY KEY1 AT D4NW", "not a platter left to place"),
    (1, "PLATTER FENS AT F6\nKEY KEY2 AT F6SE", "it must hook onto the map"),
    (1, "PLATTER FENS AT D4\nKEY KEY2 AT C3SE", "a platter is already there"),
    (1, "PLATTER FENS AT C3\nKEY KEY2 AT C3E", "a key is already in that slot"),
    (4, "LABYRINTH ANCIENT AT C3SW", "this step places KEY"),
    (6, "LABYRINTH ANCIENT AT A1SE", "nook, cranny or notch"),
    (6, "LABYRINTH ANCIENT AT C3SW FROM D4", "its entrance must face a platter beside it"),
    (8, "LABYRINTH MODERN AT C3W", "the nooks and crannies must be filled first"),
    (8, "LABYRINTH MODERN AT C3SW FROM Q1", "there is no site"),
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


def test_a_slot_may_be_named_from_any_of_its_platters():
    state, _ = _setup(map="build")
    state, _ = _order(state, BUILD[0])
    seat = state["seats"][build.builder(state)]
    # the slot south-east of the site C3 is the one west of D4 (where COLOSSUS lies)
    one = ENGINE.parse_orders(state, seat, "PLATTER FENS AT C3\nKEY KEY2 AT D4W")
    other = ENGINE.parse_orders(state, seat, "PLATTER FENS AT C3\nKEY KEY2 AT C3SE")
    assert one.items == other.items and one.text == "PLATTER FENS AT C3\nKEY KEY2 AT D4W"


def test_a_build_that_would_leave_too_many_holes_is_refused():
    # Four platters in a straight line leave six crannies, two between each pair. With
    # every dome key so far in a notch, the last two keys must go into crannies: one
    # more key in a notch would leave five for four labyrinths.
    state, _ = _setup(map="build")
    for text in ("PLATTER COLOSSUS AT D2\nKEY KEY1 AT D2NW", "PLATTER FENS AT D3\nKEY KEY2 AT D3W",
                 "PLATTER CITADEL AT D4\nKEY KEY3 AT D4W",
                 "PLATTER HIGHLANDS AT D5\nKEY KEY4 AT D5W"):
        state, _ = _order(state, text)
    assert pieces.holes(state["build"]["placement"]) == 6
    seat = state["seats"][build.builder(state)]
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(state, seat, "KEY KEY5 AT D5E")
    assert "more nooks and crannies than the keys and labyrinths left can fill" in str(err.value)
    assert "e.g. KEY KEY5 AT" in err.value.errors[0].hint
    state, _ = _order(state, "KEY KEY5 AT D2SW")                 # a cranny: accepted
    assert pieces.holes(state["build"]["placement"]) == 5


@pytest.mark.parametrize("seed", range(4))
def test_random_builds_always_finish_legally(seed):
    import random

    rnd = random.Random(seed)
    state, _ = _setup(map="build")
    while state.get("phase") == "build":
        seat = state["seats"][build.builder(state)]
        text = ENGINE.random_orders(state, seat, lambda xs: rnd.choice(list(xs)))
        state, _ = ENGINE.resolve(state, {seat: ENGINE.parse_orders(state, seat, text)},
                                  Rng("r" * 64, str(seed)))
    assert legal_map_problems(state["map"]) == []
    assert ENGINE.invariants(state) == []


def _every_order(placement, step):
    """Every order text of this build step whose pieces fit their sockets (whether the
    build could still finish is for the engine to say)."""
    kind = build.STEPS[step][1]
    if kind == "pair":
        out = []
        for name, at in build.candidates(placement, "platters", step):
            trial = build._with(placement, "platters", name, at)
            out += [f"PLATTER {name} AT {at}\nKEY {key} AT {where}"
                    for key, where in build.candidates(trial, "dome_keys", step)]
        return out
    if kind == "key":
        return [f"KEY {n} AT {at}" for n, at in build.candidates(placement, "dome_keys", step)]
    platters = pieces.platter_sites(placement)
    return [f"LABYRINTH {age} AT {pieces.slot_name(slot, platters)} FROM {pieces.site_name(s)}"
            for age in build.left(placement, "labyrinths")[:1]
            for slot in pieces.gaps(placement)["nook"] + pieces.gaps(placement)["cranny"]
            + pieces.gaps(placement)["notch"]
            for s in pieces.slot_sites(slot) if s in platters]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_sequence_of_accepted_orders_yields_a_legal_map(data):
    """Any order a team may write is either refused with a reason and a legal example,
    or accepted; and whatever is accepted, the build never gets stuck and ends in a
    legal map (one walkable whole, every dome reachable, the labyrinth paths intact)."""
    state, _ = _setup(map="build")
    while state.get("phase") == "build":
        seat = state["seats"][build.builder(state)]
        options = _every_order(state["build"]["placement"], state["build"]["step"])
        assert options
        text = data.draw(st.sampled_from(options))
        if text.startswith("PLATTER"):   # lying any way round
            name, rest = text.split("\n")
            text = f"{name} TURN {data.draw(st.integers(0, 5))}\n{rest}"
        try:
            orders = ENGINE.parse_orders(state, seat, text)
        except OrdersInvalid as err:
            hint = err.value.errors[0].hint if hasattr(err, "value") else err.errors[0].hint
            assert hint.startswith("e.g. "), hint   # never a dead end: a legal step exists
            orders = ENGINE.parse_orders(state, seat, hint[5:].replace(" / ", "\n"))
        state, _ = ENGINE.resolve(state, {seat: orders}, Rng("h" * 64, "x"))
        assert ENGINE.invariants(state) == []
    assert legal_map_problems(state["map"]) == []


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





@pytest.mark.parametrize("sixths", range(6))
def test_a_platter_may_be_turned_and_the_map_stays_legal(sixths):
    alone = pieces.assemble({"platters": {"COLOSSUS": "D4"}, "dome_keys": {}, "labyrinths": {},
                             "turns": {"COLOSSUS": sixths}})
    with hexmap.using(alone):
        (middle,) = [space for _, _, space in alone["pieces"]]
        (tower,) = hexmap.towers()
        mx, _, mz = hexmap.cube(middle)
        tx, _, tz = hexmap.cube(tower)
    # the Tower of Desperation, drawn one space south of the middle, turns with it:
    # a sixth clockwise puts it south-west, two west-north-west (axial (-1, 0)), ...
    assert (tx - mx, tz - mz) == pieces._turn((0, 1), sixths)
    assert pieces._turn((0, 1), 1) == (-1, 1) and pieces._turn((0, 1), 6) == (0, 1)
    turned = pieces.standard_placement()
    turned["turns"] = {name: sixths for name in turned["platters"]}
    assert legal_map_problems(pieces.assemble(turned)) == []


def test_turn_orders():
    state, _ = _setup(map="build")
    seat = state["seats"][build.builder(state)]
    orders = ENGINE.parse_orders(state, seat, "platter colossus at d4 turn 2\nkey key1 at d4se")
    assert orders.text == "PLATTER COLOSSUS AT D4 TURN 2\nKEY KEY1 AT D4SE"
    assert ENGINE.parse_orders(state, seat, "PLATTER COLOSSUS AT D4 TURN 0\nKEY KEY1 AT D4SE"
                               ).text == "PLATTER COLOSSUS AT D4\nKEY KEY1 AT D4SE"
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(state, seat, "PLATTER COLOSSUS AT D4 TURN 7\nKEY KEY1 AT D4SE")
    assert "turns 0 to 5 sixths" in str(err.value)
    state, events = ENGINE.resolve(state, {seat: orders}, Rng("t" * 64, "1"))
    assert state["build"]["placement"]["turns"] == {"COLOSSUS": 2}
    assert "COLOSSUS at site D4, turned 2 sixths clockwise" in ENGINE.report(events, None)
