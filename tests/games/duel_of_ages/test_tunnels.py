"""Tunnels: going down and up at entrances, moving along them, stops and sight kept
apart from the surface, straight-line sight underground, opportunity fire at a pop-up.

Tunnels (data/map.toml): B2-B8 straight, B8-C7-D7-E6-F6 straight (a bend at B8),
I2-I8 straight; entrances B2, B8, F6, I2, I5, I8."""

import pytest

from games.core.types import OrdersInvalid
from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play

MISS = [("opfire/hit", 6), ("opfire/hit", 5)]


@pytest.mark.parametrize("who, start, order, end, down, stop", [
    ("DEX", "B2", "MOVE DEX TO DOWN B5", "B5", True, None),              # 1 + 3
    ("DEX", "B5/t", "MOVE DEX TO B8 F6 UP", "F6", True, "out of move points"),  # 3+4, no 1 left
    ("YSOLDE", "B5/t", "MOVE YSOLDE TO B8 F6 UP", "F6", False, None),   # speed 8: 3+4+1
    ("DEX", "B5/t", "MOVE DEX TO B2 UP C1", "C1", False, None),
])
def test_tunnel_moves(who, start, order, end, down, stop):
    after, events = play(make({who: ("White", start, [])}), {"White": order}, [])
    assert (after["chars"][who]["space"], after["chars"][who]["down"]) == (end, down)
    assert kinds(events, "move")[0]["stop"] == stop


@pytest.mark.parametrize("korvath, end, stop", [
    ("B4", "B6", None),                          # an enemy above does not stop
    ("B4/t", "B4", "an enemy is there"),         # an enemy below does
])
def test_enemies_stop_only_in_their_own_layer(korvath, end, stop):
    state = make({"DEX": ("White", "B2", []), "KORVATH": ("Black", korvath, [])})
    after, events = play(state, {"White": "MOVE DEX TO DOWN B6\nHOLD DEX",
                                 "Black": "HOLD KORVATH"}, [])
    assert after["chars"]["DEX"]["space"] == end
    assert kinds(events, "move")[0]["stop"] == stop


@pytest.mark.parametrize("tamsin, order, shots, space", [
    ("A3", "MOVE DEX TO DOWN B6", 0, None),      # the surface never sees the tunnel
    ("B8/t", "MOVE DEX TO DOWN B6", 1, "B3"),    # a straight tunnel: sight along it
    ("F6/t", "MOVE DEX TO DOWN B6", 0, None),    # round the bend at B8: no sight
    ("A7", "MOVE DEX TO DOWN B8 UP", 1, "B8"),   # popping up enters the surface space
])
def test_opportunity_fire_and_tunnels(tamsin, order, shots, space):
    state = make({"DEX": ("White", "B2", []), "TAMSIN": ("Black", tamsin, ["LONGBOW"])})
    if "UP" in order:
        state["chars"]["DEX"].update(space="B6", down=True)
        order = "MOVE DEX TO B8 UP"
    after, events = play(state, {"White": order, "Black": "FIRE TAMSIN"}, MISS * shots)
    attacks = kinds(events, "attack")
    assert len(attacks) == shots
    if shots:
        assert attacks[0]["space"] == space
        assert attacks[0]["down"] is tamsin.endswith("/t")


def test_going_down_at_the_start_space_gives_no_surface_target():
    state = make({"DEX": ("White", "B2", []), "TAMSIN": ("Black", "C1", ["LONGBOW"])})
    _, events = play(state, {"White": "MOVE DEX TO DOWN", "Black": "FIRE TAMSIN"}, [])
    assert kinds(events, "attack") == []
    assert kinds(events, "no_shot")[0]["why"] == "no moving enemy in sight and range"


def test_the_surface_cannot_shoot_into_the_tunnel_below():
    state = make({"TAMSIN": ("White", "A3", ["LONGBOW"]), "KORVATH": ("Black", "B3/t", [])})
    _, events = play(state, {"White": "FIRE TAMSIN AT KORVATH"}, [])
    assert "line of sight" in kinds(events, "no_shot")[0]["why"]


def test_no_melee_between_layers():
    state = make({"DEX": ("White", "B4", []), "KORVATH": ("Black", "B4/t", [])})
    _, events = play(state, {"White": "", "Black": ""}, [])
    assert kinds(events, "attack") == []


@pytest.mark.parametrize("text, message", [
    ("MOVE DEX TO DOWN", "needs a tunnel entrance"),
    ("MOVE DEX TO B2 DOWN C3", "no tunnel runs under C3"),
    ("MOVE DEX TO B2 UP", "already above"),
    ("MOVE DEX TO B2 DOWN I5", "cannot be reached"),
])
def test_tunnel_order_errors(text, message):
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(make({"DEX": ("White", "C4", [])}), "White", text)
    assert message in exc.value.errors[0].message
