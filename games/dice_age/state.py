"""The game state and the questions every rule asks of it.

State (plain JSON):
  level          the rules level being played (1-4)
  seats          clockwise seating
  dice           {die: {"owner": seat|None, "place": PLACE, "face": last face or None}}
  number         the current Number, None when no number stands (start of a round)
  skips          {seat: turns still to skip}
  out            seats knocked out, in order
  pending        what the engine waits for: {"kind": draft|roll|read|icon, "seat", ...}
  standing       {seat: [standing order items]} (private to their seat)
  round, rolls   counters for reports
  winner         the last seat standing, once the game is over

Places: "pool" (not yet drafted), "garden" (a player's unrolled dice; the "hand" of
levels 1-2), "field" (rolled this round, levels 3+), "wasteland" (lost; "set aside" at
levels 1-2), "limbo" (out of the game, level 4 leftovers).
"""

from __future__ import annotations

from typing import Any

from .dice import DICE, dice_for_level

State = dict[str, Any]
PLACES = ("pool", "garden", "field", "wasteland", "limbo")
PENDING_KINDS = ("draft", "roll", "read", "icon")
LEVELS = (1, 2, 3, 4)
NO_NUMBER = 99
"""What the condition word NUMBER reads while no Number stands: anything may be rolled."""


def new_state(seats: list[str], level: int) -> State:
    return {
        "version": 1, "level": level, "seats": list(seats),
        "dice": {d: {"owner": None, "place": "pool", "face": None}
                 for d in dice_for_level(level)},
        "number": None, "skips": {s: 0 for s in seats}, "out": [], "pending": None,
        "standing": {s: [] for s in seats}, "round": 1, "rolls": 0, "winner": None,
        "first": None,
    }


def owned(state: State, seat: str, *places: str) -> list[str]:
    """The seat's dice in the given places (all places when none given), catalogue order."""
    return [d for d, info in state["dice"].items()
            if info["owner"] == seat and (not places or info["place"] in places)]


def playable(state: State, seat: str) -> list[str]:
    """Dice the seat may roll: its garden, and from level 3 its dice in the field too."""
    return owned(state, seat, "garden", "field")


def in_pool(state: State) -> list[str]:
    return [d for d, info in state["dice"].items() if info["place"] == "pool"]


def active(state: State) -> list[str]:
    return [s for s in state["seats"] if s not in state["out"]]


def next_seat(state: State, seat: str) -> str:
    """The next seat clockwise still in the game (the seat itself when it is alone)."""
    seats = state["seats"]
    i = seats.index(seat)
    for step in range(1, len(seats) + 1):
        cand = seats[(i + step) % len(seats)]
        if cand not in state["out"]:
            return cand
    return seat


def invariants(state: State) -> list[str]:
    problems: list[str] = []
    seats = state["seats"]
    level = state["level"]
    if level not in LEVELS:
        problems.append(f"unknown level {level}")
    if set(state["dice"]) != set(dice_for_level(level)):
        problems.append("the dice in play are not the level's dice")
    for die, info in state["dice"].items():
        if die not in DICE:
            problems.append(f"unknown die {die}")
        if info["place"] not in PLACES:
            problems.append(f"{die} in unknown place {info['place']}")
        if (info["owner"] is None) != (info["place"] in ("pool", "limbo")):
            problems.append(f"{die}: owner {info['owner']} does not fit place {info['place']}")
        if info["owner"] is not None and info["owner"] not in seats:
            problems.append(f"{die} owned by unknown seat")
        if level < 3 and info["place"] == "field":
            problems.append(f"{die} in the field before level 3")
    number = state["number"]
    if number is not None and not isinstance(number, int):
        problems.append("the Number is not a whole number")
    if any(s not in seats for s in state["out"]) or len(set(state["out"])) != len(state["out"]):
        problems.append("bad list of knocked-out seats")
    if any(v < 0 for v in state["skips"].values()):
        problems.append("negative skip count")
    pending = state["pending"]
    if state["winner"] is not None:
        if pending is not None:
            problems.append("the game is over but something is pending")
        if active(state) != [state["winner"]]:
            problems.append("the winner is not the last seat standing")
    else:
        if pending is None:
            problems.append("the game is running but nothing is pending")
        elif pending["kind"] not in PENDING_KINDS or pending["seat"] not in active(state):
            problems.append(f"bad pending decision {pending}")
        elif pending["kind"] == "draft" and not in_pool(state):
            problems.append("a draft pick is pending with an empty pool")
        elif pending["kind"] == "roll" and not playable(state, pending["seat"]):
            problems.append("a seat with no playable die is asked to roll")
        elif pending["kind"] == "icon" and (level < 4 or not owned(state, pending["seat"],
                                                                    "wasteland")):
            problems.append("an icon choice is pending without a wasteland to recall from")
        if len(active(state)) < 2:
            problems.append("fewer than two seats remain but there is no winner")
    if pending is None or pending["kind"] != "draft":
        for seat in active(state):
            if not playable(state, seat) and not (pending and pending["seat"] == seat
                                                  and pending["kind"] in ("read", "icon")):
                problems.append(f"{seat} is still in but has no die to play")
    for seat in state["out"]:
        if playable(state, seat):
            problems.append(f"{seat} is out but still has dice to play")
    return problems
