"""The Dungeonquest bot: one player's plan, from what that player may see.

The seat bot (`seat_bot`, the engine's `seat_bot`, played for a seat in civil disorder or
left to a bot) and the balance bot of `simulate.py` are one player: `bot_orders` reads a
*table*, the part of the game a player knows: the explored board, the turn and the
turns, its own hero's sheet (life, rings, arrows, treasure, where it came from, its
pending decision) and agility, and where the other heroes stand. `table_from_view`
builds it from the seat's view, so the seat bot cannot see an unexplored tile or a card
still in a deck; `table_from_state` builds the same from the state for the balance runs
(same figures as ever: those runs also let the bot take the hero it would be dealt).

The plan is a player's after treasure: head for the treasure chamber as long as its sum
(turns to the chamber, one turn of looting, turns home, one turn of slack) fits before
sunset, loot twice, then walk to the nearest tower and LEAVE; when the chamber is out of
reach, search the rooms on the way out while time allows. On the way it never crosses a
known bottomless pit unless nimble (or it is the only way), passes through towers
instead of stepping out by mistake, searches when walled in and steps out and back when
a room is searched out. It fights what it meets (escaping champions when hurt), searches
crypts and bodies, drinks its potion when low and uses its rings sensibly.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import Pick

from . import content
from .board import (
    CHAMBER,
    SIDE_WORDS,
    TOWERS,
    coords,
    neighbour,
    opposite,
    route,
    route_to,
    side_towards,
    targets_for,
)
from .rules.movement import UNSEARCHABLE
from .state import State

Table = dict[str, Any]


def table_from_view(view: dict[str, Any], seat: str) -> Table:
    """What the bot reads, from the seat's view only."""
    me = view.get("me")
    chars = {s: dict(c) for s, c in view["characters"].items()}
    if me is not None:
        chars[seat] = me
    return {"board": view["board"], "turn": view["turn"], "turns": view["turns"],
            "chars": chars, "picking": view.get("picking", False), "hero_line": "",
            "agility": (me or {}).get("stats", {}).get("agility", 0)}


def table_from_state(state: State, seat: str) -> Table:
    """The same from the state (the balance runs); in the hero choice the bot asks for
    the hero it would be dealt, so no contest changes the dealt heroes."""
    ch = state["chars"][seat]
    return {"board": state["board"], "turn": state["turn"], "turns": state["turns"],
            "chars": state["chars"], "picking": state.get("picking", False),
            "hero_line": f"HERO {ch['hero'].upper()}",
            "agility": content.of(state).heroes[ch["hero"]]["agility"]}


def seat_bot(view: dict[str, Any], prompt: dict[str, Any], seat: str, pick: Pick) -> str:
    """The engine's seat bot. In the hero choice it names no hero (it takes the one the
    seat gets by default); after that its plan leaves nothing to chance, so `pick` is
    unused."""
    if view.get("picking"):
        return ""
    return bot_orders(table_from_view(view, seat), seat, cautious=True)


RING_ORDERS = {"healing": "IF LIFE < 7 THEN USE RING OF HEALING",
               "warning": "IF TRAP THEN USE RING OF WARNING",
               "opening": "IF PORTCULLIS THEN USE RING OF OPENING",
               "luck": "IF LIFE < 8 THEN USE RING OF LUCK",
               "blinding": "IF MONSTER CHAMPION THEN USE RING OF BLINDING",
               "vision": "USE RING OF VISION",
               "transformation": "IF TILE PIT THEN USE RING OF TRANSFORMATION"}


def home_distance(table: Table, seat: str) -> tuple[str, int]:
    ch = table["chars"][seat]
    _, cost, tower = route_to(table["board"], ch["pos"], ch["entry"], set(TOWERS))
    return (tower, cost) if tower else ("A1", 99)


def turns_for(cost: int) -> int:
    """Turns a route of this cost takes: corridors carry a hero several squares a turn."""
    return max(1, (cost * 3 + 3) // 4)


def chamber_in_reach(table: Table, seat: str, left: int, margin: int) -> bool:
    """A player's sum: to the chamber, one turn of looting, then home, with a margin."""
    ch = table["chars"][seat]
    board = table["board"]
    _, there = route(board, ch["pos"], ch["entry"], set(CHAMBER))
    if there < 0:  # walled in for now: a secret door may still open the way
        x, y = coords(ch["pos"])
        there = min(abs(x - cx) + abs(y - cy) for cx, cy in map(coords, CHAMBER))
    _, back, _ = route_to(board, CHAMBER[0], None, set(TOWERS))
    if back < 0:
        return False
    return turns_for(there) + 1 + turns_for(back) + margin <= left


def bot_orders(table: Table, seat: str, *, loot_turns: int = 2, margin: int = 1,
               scavenge: bool = True, cautious: bool = False) -> str:
    """The plan above; `cautious` (the seat bot's) searches every room on its way in
    and turns home as soon as it carries any gold or is hurt, instead of staking its life
    on the chamber's."""
    ch = table["chars"][seat]
    if table.get("picking"):
        return table["hero_line"]
    left = table["turns"] - table["turn"] + 1
    tower, dist = home_distance(table, seat)
    if ch["destination"] in TOWERS:
        _, cost = route(table["board"], ch["pos"], ch["entry"], {ch["destination"]})
        if cost >= 0 and cost <= dist + 3:
            tower, dist = ch["destination"], cost  # keep to the chosen way home
    lines = ["IF MONSTER CHAMPION THEN ESCAPE ELSE ATTACK" if ch["life"] < 8 else "ATTACK",
             "IF SPIDER THEN FIGHT", "IF CRYPT THEN SEARCH CRYPT", "IF CORPSE THEN SEARCH BODY",
             "IF LIFE < 5 THEN DRINK POTION", "IF POTION THEN DRINK POTION"]
    if ch["arrows"]:
        lines.insert(0, "IF MONSTER THEN SHOOT")
    lines += [RING_ORDERS[r] for r in ch["rings"]]
    in_chamber = ch["pos"] in CHAMBER
    looted = sum(1 for t in ch["treasure"] if t["name"] == "a treasure counter") // 2
    heading_home = looted > 0 or not chamber_in_reach(table, seat, left, margin)
    estimate = turns_for(dist)
    here = table["board"][ch["pos"]]["kind"]
    if cautious and ch["pos"] not in CHAMBER:
        heading_home = (looted > 0 or sum(t["value"] for t in ch["treasure"]) > 0
                        or ch["life"] <= ch["max_life"] // 2
                        or estimate + margin + 2 >= left)
        if not heading_home and here not in UNSEARCHABLE and ch["searches"] < 2:
            lines += ["DESTINATION E7", "SEARCH"]
            return "\n".join(lines)
    if in_chamber:
        if looted < loot_turns and estimate + margin + 1 < left and ch["life"] > 5:
            lines.append("LOOT")
            return "\n".join(lines)
        lines += [f"DESTINATION {tower}", f"MOVE TO {tower}"]
        return "\n".join(lines)
    goal = tower if heading_home else "E7"
    if here == "pit" and table["agility"] < 7 and ch["prev"] and \
            other_way(table, seat, goal):
        back = side_towards(ch["pos"], ch["prev"])
        if ch["prev"] in TOWERS and not heading_home and back:
            # back into the tower and straight out by its other exit
            other = [s for s in TOWERS[ch["prev"]] if s != opposite(back)]
            lines.append(f"MOVE {SIDE_WORDS[back].upper()} {SIDE_WORDS[other[0]].upper()}")
        else:
            lines.append("RETREAT")  # only the nimble leap pits
        return "\n".join(lines)
    lines.append(f"DESTINATION {goal}")
    if heading_home and not looted and scavenge and ch["life"] > 6 and \
            dist + margin + 3 < left and here not in UNSEARCHABLE and ch["searches"] < 2:
        lines.append("SEARCH")  # the chamber is out of reach: search the rooms on the way out
        return "\n".join(lines)
    lines.append(step_toward(table, seat, goal))
    return "\n".join(lines)


def other_way(table: Table, seat: str, goal: str) -> bool:
    """From a pit: does a way to `goal` lead back out the way in, not across the pit?"""
    ch = table["chars"][seat]
    board = table["board"]
    prev = ch["prev"]
    pits = {sq for sq, c in board.items() if c["kind"] == "pit"}
    entry = side_towards(prev, ch["pos"])
    if prev in TOWERS:
        return True  # back into the tower and out by its other exit
    side, _ = route(board, prev, entry, targets_for(goal), avoid=pits)
    return side is not None


def step_toward(table: Table, seat: str, goal: str) -> str:
    """The move a careful player makes toward `goal`: never across a known bottomless pit
    unless nimble, never into a tower by mistake (through it, out by the other exit), a
    search when walled in, and out and back when the room is searched out."""
    ch = table["chars"][seat]
    board = table["board"]
    avoid: set[str] = set()
    if table["agility"] < 7:
        avoid = {sq for sq, c in board.items() if c["kind"] == "pit" and sq != ch["pos"]}
    occupied = {c["pos"] for s, c in table["chars"].items() if s != seat and c["status"] == "in"}
    targets = targets_for(goal)
    if ch["pos"] in targets:
        return "LEAVE" if goal in TOWERS else "STAY"
    side, _ = route(board, ch["pos"], ch["entry"], targets, occupied, avoid)
    if side is None and avoid:  # the pit is the only way on: a player takes the risk
        side, _ = route(board, ch["pos"], ch["entry"], targets, occupied)
    if side is None:
        searchable = board[ch["pos"]]["kind"] not in UNSEARCHABLE
        if searchable and ch["searches"] < 2:
            return "SEARCH"  # walled in: look for a secret door
        if not ch["prev"]:
            return "STAY"
        side = side_towards(ch["pos"], ch["prev"])  # out, to come back and search again
        if side is None:
            return "RETREAT"
    plain, _ = route(board, ch["pos"], ch["entry"], targets, occupied)
    if plain == side:
        return f"MOVE TO {goal}"
    words = [SIDE_WORDS[side].upper()]
    ahead = neighbour(ch["pos"], side)
    if ahead in TOWERS and ahead != goal:
        out = [s for s in TOWERS[ahead] if s != opposite(side)]
        words.append(SIDE_WORDS[out[0]].upper())
    return "MOVE " + " ".join(words)
