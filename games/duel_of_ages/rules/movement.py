"""The Move phase: move points, terrain costs, forced stops, and leaving domes."""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from .. import catalog, hexmap
from ..state import State, at, on_map
from .combat import Events


def _enemy_in(state: State, space: str, team: str) -> bool:
    return any(state["chars"][k]["team"] != team for k in at(state, space))


def _can_step(state: State, space: str) -> bool:
    if not hexmap.enterable(space):
        return False
    return not (hexmap.terrain()[space] == "tower" and at(state, space))


def walk(state: State, char: str, waypoints: list[str]) -> dict[str, Any]:
    """Move along the cheapest route through the waypoints until points, an enemy or a
    tower stop the character. Returns the path record used by opportunity fire."""
    c = state["chars"][char]
    team = c["team"]
    speed = catalog.character(char)["speed"]
    points = speed
    steps: list[str] = []
    stop = None
    for goal in waypoints:
        route = hexmap.cheapest_path(c["space"], goal) or []
        for space in route:
            if not _can_step(state, space):
                stop = "the way is blocked"
                break
            price = hexmap.cost(space)
            if price > points and not (points == speed and not steps):
                stop = "out of move points"
                break
            points = max(0, points - price)
            c["space"] = space
            steps.append(space)
            if _enemy_in(state, space, team):
                stop = "an enemy is there"
                break
            if hexmap.terrain()[space] == "tower":
                stop = "a tower ends movement"
                break
        if stop:
            break
    return {"steps": steps, "stop": stop, "spent": speed - points}


def leave_dome(state: State, char: str) -> dict[str, Any]:
    """A character who starts in a dome must leave it: the first open neighbour."""
    c = state["chars"][char]
    for space in hexmap.neighbours(c["space"]):
        if _can_step(state, space):
            c["space"] = space
            return {"steps": [space], "stop": "had to leave the dome",
                    "spent": catalog.character(char)["speed"]}
    return {"steps": [], "stop": "no way out of the dome", "spent": 0}


def move_phase(state: State, events: Events, team: str, orders: list[dict[str, Any]],
               fired: set[str]) -> dict[str, dict[str, Any]]:
    """Carry out MOVE orders (first per character counts). Returns start and path per mover."""
    moved: dict[str, dict[str, Any]] = {}
    starts = {k: state["chars"][k]["space"] for k in on_map(state, team)}
    done: set[str] = set()
    for order in orders:
        key = order["char"]
        if key in done or key not in starts or key in fired:
            if key in fired and key not in done:
                events.append(Event("no_move", {"char": key, "why": "fired this turn"}))
                done.add(key)
            continue
        done.add(key)
        record = walk(state, key, order["to"])
        if record["steps"]:
            moved[key] = record
    for key, start in starts.items():
        if hexmap.terrain()[start] == "dome" and state["chars"][key]["space"] == start:
            record = leave_dome(state, key)
            if record["steps"]:
                previous = moved.get(key, {"steps": [], "spent": 0})
                record["steps"] = previous["steps"] + record["steps"]
                moved[key] = record
    for key, record in moved.items():
        record["start"] = starts[key]
        events.append(Event("move", {"char": key, "from": starts[key], "path": record["steps"],
                                     "stop": record["stop"]}))
    return moved
