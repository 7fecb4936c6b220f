"""The Move phase: move points, terrain costs, forced stops, and leaving domes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core.engine import revision_of
from games.core.types import Event

from .. import catalog, hexmap
from ..state import State, at, on_map, position
from . import abilities
from .combat import Events, pile_key
from .equipment import receive
from .trade import trade_phase


def _enemy_in(state: State, space: str, team: str, down: bool) -> bool:
    """Enemies below do not stop a character above, nor the other way round."""
    return any(state["chars"][k]["team"] != team for k in at(state, space, down=down))


def _can_step(state: State, space: str) -> bool:
    if not hexmap.enterable(space):
        return False
    return not (hexmap.terrain()[space] == "tower" and at(state, space))


def step_cost(state: State, char: str, space: str) -> int:
    """What entering a surface space costs him: its terrain, or his special movement."""
    terrain = hexmap.terrain()[space]
    return abilities.move_costs(state, char).get(terrain, hexmap.cost(space))


def _actions(state: State, char: str, waypoints: list[str]) -> list[tuple[str, str]]:
    """The planned route as (kind, space) steps: surface, tunnel, down or up."""
    space, down = state["chars"][char]["space"], state["chars"][char].get("down", False)
    costs = abilities.move_costs(state, char)
    plan: list[tuple[str, str]] = []
    for goal in waypoints:
        if goal in ("PICKUP", "TRADE"):
            plan.append((goal.lower(), space))
        elif goal == "DOWN":
            if down or space not in hexmap.entrances():
                break
            plan.append(("down", space))
            down = True
        elif goal == "UP":
            if not down or space not in hexmap.entrances():
                break
            plan.append(("up", space))
            down = False
        else:
            route = hexmap.tunnel_path(space, goal) if down else \
                hexmap.cheapest_path(space, goal, costs)
            if route is None:
                break
            plan += [("tunnel" if down else "surface", s) for s in route]
            space = goal
    return plan


def pick_up(state: State, events: Events, char: str, pile: str) -> dict[str, Any]:
    """All the cards on the ground at once, then the carrying limit (see receive).
    Returns what changed hands, so opportunity fire can undo it (see rewind)."""
    c = state["chars"][char]
    cards = state["ground"].pop(pile)
    before = list(c["cards"])
    c["cards"] += cards
    lost = receive(state, events, char)
    extra = [e for e in before + cards if e["card"] in lost]
    shown = [e["card"] for e in cards if e["revealed"]]
    events.append(Event("pickup", {"char": char, "space": pile, "count": len(cards),
                                   "shown": shown,
                                   "discarded": [e["card"] for e in extra]}))
    events.append(Event("pickup_cards", {"char": char, "cards": [e["card"] for e in cards]},
                        (c["team"],)))
    return {"pile": pile, "cards": cards, "discarded": extra}


def move_points(state: State, char: str) -> int:
    """Speed, or the mount's: a mount in use replaces or adds to it."""
    speed = catalog.character(char)["speed"]
    mount = state["chars"][char].get("mount")
    if mount:
        card = catalog.card(mount)
        speed = card.get("speed", speed) + card.get("add", 0)
    return speed


def walk(state: State, char: str, waypoints: list[str], events: Events,
         record: dict[str, Any] | None = None,
         trade: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Move along the cheapest route through the waypoints until points, an enemy or a
    tower stop the character. Returns the path record used by opportunity fire: the
    positions moved into (going down a tunnel enters no new surface space).

    Rules revision 4: `record` is what he did in this Move phase before his walk (a
    team-mate traded with him where he stood), carried on, and `trade` carries out his
    trades at a TRADE waypoint (each adds 2 to the record's points spent)."""
    c = state["chars"][char]
    team = c["team"]
    speed = move_points(state, char)
    before = record["spent"] if record else 0
    points = speed - before
    riding = catalog.card(c["mount"]) if c.get("mount") else {}
    steps: list[list[Any]] = record["steps"] if record else []
    pickups: list[dict[str, Any]] = record.setdefault("pickups", []) if record else []
    spent = before > 0
    stop = None
    for kind, space in _actions(state, char, waypoints):
        if kind == "trade":
            if record is None or trade is None:
                continue
            record["spent"] = speed - points
            trade(char)
            if record["spent"] != speed - points:
                points, spent = speed - record["spent"], True
            continue
        if kind == "pickup":
            pile = pile_key(space, c["down"])
            if pile not in state["ground"]:
                continue
            if _enemy_in(state, space, team, c["down"]):
                stop = "cannot pick up with an enemy there"
                break
            if points < 2:
                stop = "not enough move points to pick up"
                break
            points, spent = points - 2, True
            taken = pick_up(state, events, char, pile)
            if [space, c["down"]] not in steps[-1:]:
                steps.append([space, c["down"]])  # spending points here makes him a target
            pickups.append({**taken, "index": len(steps) - 1})
            continue
        if kind == "surface" and not _can_step(state, space):
            stop = "the way is blocked"
            break
        if kind == "surface" and riding.get("no_building") \
                and hexmap.terrain()[space] == "building":
            stop = "the mount cannot enter a building"
            break
        price = step_cost(state, char, space) if kind == "surface" else 1
        if kind in ("down", "up") and abilities.moves_by(state, char, "tunnel_rat"):
            price = 0
        if price > points and not (points == speed and not spent):
            stop = "out of move points"
            break
        points, spent = max(0, points - price), True
        c["space"] = space
        c["down"] = kind in ("down", "tunnel")
        if kind != "down":
            steps.append([space, c["down"]])
        if _enemy_in(state, space, team, c["down"]) \
                and not abilities.moves_by(state, char, "slippery"):
            stop = "an enemy is there"
            break
        if kind == "surface" and hexmap.terrain()[space] == "tower":
            stop = "a tower ends movement"
            break
    if record is not None:
        record.update(stop=stop, spent=speed - points)
        return record
    return {"steps": steps, "stop": stop, "spent": speed - points, "pickups": pickups}


def leave_dome(state: State, char: str) -> dict[str, Any]:
    """A character who starts in a dome and did not leave it by his orders must still
    leave: to the first open neighbour."""
    c = state["chars"][char]
    # the standard way out avoids towers (which would end the move in an adventure)
    ways = sorted(hexmap.passable(c["space"]),
                  key=lambda s: (hexmap.terrain()[s] == "tower", hexmap.col_row(s)))
    for space in ways:
        if _can_step(state, space):
            c["space"] = space
            return {"steps": [[space, False]], "stop": "had to leave the dome",
                    "spent": move_points(state, char)}
    return {"steps": [], "stop": "no way out of the dome", "spent": 0}


def move_phase(state: State, events: Events, team: str, orders: list[dict[str, Any]],
               fired: set[str], trades: list[dict[str, Any]] | None = None
               ) -> dict[str, dict[str, Any]]:
    """Carry out MOVE orders (first per character counts), then TRADE orders. Returns
    start and path per mover."""
    moved: dict[str, dict[str, Any]] = {}
    starts = {k: state["chars"][k]["space"] for k in on_map(state, team)}
    under = {k for k in starts if state["chars"][k].get("down")}
    done: set[str] = set()
    pending = list(trades or [])

    def left(key: str) -> int:
        return 0 if key in fired else move_points(state, key) - moved.get(key, {}).get(
            "spent", 0)

    def trade_here(key: str) -> None:
        """A TRADE waypoint (revision 4): his trades with team-mates in his space now."""
        here = [o for o in pending if key in (o["char"], o["with"])
                and position(state, o["char"]) == position(state, o["with"])]
        for order in here:
            pending.remove(order)
        trade_phase(state, events, here, moved,
                    {k: left(k) for k in {o[w] for o in here for w in ("char", "with")}})

    midway = revision_of(state) >= 4
    for order in orders:
        key = order["char"]
        if key in done or key not in starts or key in fired:
            if key in fired and key not in done:
                events.append(Event("no_move", {"char": key, "why": "fired this turn"}))
                done.add(key)
            continue
        done.add(key)
        if midway:
            record = walk(state, key, order["to"], events,
                          moved.setdefault(key, {"steps": [], "spent": 0, "stop": None}),
                          trade_here)
        else:
            record = walk(state, key, order["to"], events)
        if record["spent"]:
            moved[key] = record
        else:
            moved.pop(key, None)
            if record["stop"]:
                events.append(Event("no_move", {"char": key, "why": record["stop"]}))
    for key, start in starts.items():
        if hexmap.terrain()[start] == "dome" and state["chars"][key]["space"] == start \
                and key not in under:
            record = leave_dome(state, key)
            if record["steps"]:
                previous = moved.get(key, {"steps": [], "spent": 0})
                record["steps"] = previous["steps"] + record["steps"]
                if midway:  # what he picked up or traded before stays on the record
                    record = {**previous, **record}
                moved[key] = record
    if pending:
        trade_phase(state, events, pending, moved, {k: left(k) for k in starts})
    for key, record in moved.items():
        record["start"] = starts[key]
        path = [s + ("(tunnel)" if down else "") for s, down in record["steps"]]
        start = starts[key] + ("(tunnel)" if key in under else "")
        events.append(Event("move", {"char": key, "from": start, "path": path,
                                     "stop": record["stop"]}))
    return moved
