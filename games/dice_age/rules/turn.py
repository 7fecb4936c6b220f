"""One roll and everything that follows from it, level by level.

The one rule of every level: a number above the current Number loses. What is lost
grows with the level: the rolled die (levels 1-2), every die the roller has in the
field (levels 3-4). An icon makes the roller skip his next turn; at level 4 he may
instead recall one die from his wasteland to the field.
"""

from __future__ import annotations

from games.core.rng import RngBase
from games.core.types import Event

from ..dice import DICE, Face, is_balanced, read, sides
from ..state import State, active, next_seat, owned, playable


def roll(state: State, seat: str, die: str, rng: RngBase, events: list[Event]) -> None:
    """The seat's main roll with `die` (which must be playable)."""
    faces = DICE[die].faces
    face = faces[rng.die(f"roll/{die}", len(faces)) - 1]
    state["rolls"] += 1
    if state["level"] >= 3:
        state["dice"][die]["place"] = "field"
    state["dice"][die]["face"] = face
    events.append(Event("roll", {"seat": seat, "die": die, "face": face,
                                 "number": state["number"]}))
    if is_balanced(face):
        state["pending"] = {"kind": "read", "seat": seat, "die": die, "sides": sides(face)}
        return
    settle_face(state, seat, die, face, events)


def choose_side(state: State, seat: str, side: Face, events: list[Event]) -> None:
    """The roller's reading of a die resting between two sides (level 2 and up)."""
    die = state["pending"]["die"]
    state["dice"][die]["face"] = side
    events.append(Event("read", {"seat": seat, "die": die, "face": side}))
    settle_face(state, seat, die, side, events)


def settle_face(state: State, seat: str, die: str, face: Face, events: list[Event]) -> None:
    kind, value = read(face)
    if kind == "icon":
        if state["level"] >= 4 and owned(state, seat, "wasteland"):
            state["pending"] = {"kind": "icon", "seat": seat, "die": die}
            return
        skip(state, seat, die, events)
        return
    number = int(value)
    if state["number"] is not None and number > state["number"]:
        overshoot(state, seat, die, number, events)
        return
    state["number"] = number
    events.append(Event("number", {"seat": seat, "number": number}))
    pass_turn(state, seat, events)


def skip(state: State, seat: str, die: str, events: list[Event]) -> None:
    state["skips"][seat] += 1
    events.append(Event("icon-skip", {"seat": seat, "die": die}))
    pass_turn(state, seat, events)


def recall(state: State, seat: str, back: str, events: list[Event]) -> None:
    """Level 4 icon: one die from the roller's wasteland returns to his side of the field."""
    state["dice"][back].update(place="field", face=None)
    events.append(Event("recall", {"seat": seat, "die": back}))
    pass_turn(state, seat, events)


def overshoot(state: State, seat: str, die: str, number: int, events: list[Event]) -> None:
    """The roller loses; the Number is erased and (if still in) he starts the new round."""
    if state["level"] >= 3:
        lost = owned(state, seat, "field")
        back = {s: owned(state, s, "field") for s in active(state) if s != seat}
        for dice in back.values():
            for d in dice:
                state["dice"][d].update(place="garden", face=None)
        back = {s: d for s, d in back.items() if d}
    else:
        lost, back = [die], {}
    for d in lost:
        state["dice"][d]["place"] = "wasteland"
    events.append(Event("overshoot", {"seat": seat, "number": number, "level": state["level"],
                                      "limit": state["number"], "lost": lost,
                                      "back": back}))
    state["number"] = None
    state["round"] += 1
    if playable(state, seat):
        state["pending"] = {"kind": "roll", "seat": seat}
        return
    state["out"].append(seat)
    events.append(Event("out", {"seat": seat}))
    if finished(state, events):
        return
    pass_turn(state, seat, events)


def finished(state: State, events: list[Event]) -> bool:
    """The last seat with dice wins (every level; rules/flow.py also clears its queue)."""
    left = active(state)
    if len(left) > 1:
        return False
    state["winner"] = left[0]
    state["pending"] = None
    events.append(Event("winner", {"seat": left[0]}))
    return True


def next_roller(state: State, seat: str, events: list[Event]) -> str:
    """The next seat clockwise that rolls; a seat owing skipped turns loses one and is
    passed. Every level uses this (levels 5-7 through rules/flow.py)."""
    cand = seat
    while True:
        cand = next_seat(state, cand)
        if state["skips"][cand] > 0:
            state["skips"][cand] -= 1
            events.append(Event("skipped", {"seat": cand}))
            continue
        return cand


def pass_turn(state: State, seat: str, events: list[Event]) -> None:
    state["pending"] = {"kind": "roll", "seat": next_roller(state, seat, events)}
