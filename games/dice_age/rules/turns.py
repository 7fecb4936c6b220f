"""The steps that begin a seat's turn and take up a decision set aside: the two
places the turn engine waits on the reaction windows (standing Squares fire before a
roll; a reaction window is asked again as it stands), so they sit above windows.py.
"""

from __future__ import annotations

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from ..dice import spec
from ..levels import rules
from ..state import State, active, owned, rollable
from .flow import Step, _finished, eliminate, push, to_limbo
from .windows import reopen, standing_squares


def _turn(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    state["paired"][seat] = False
    # A turn begun again after a standing Square (squared) is the same turn: revision 3
    # counts it once towards per un pugno di dadi, revision 2 counted it twice.
    once = not step.get("squared") or revision_of(state) < 3
    if rules(state).fistful and once and fistful(state, seat, events):
        return
    if rules(state).effects and not step.get("squared"):
        push(state, {"do": "turn", "seat": seat, "squared": True})
        if standing_squares(state, seat, events):
            return  # the Square (and its Nut window) first, then this turn again
        state["queue"].pop(0)
    forced = state["forced"][seat]
    while forced and forced[0] not in rollable(state, seat) + [None]:
        events.append(Event("square-lapses", {"seat": seat, "die": forced.pop(0)}))
    if forced and forced[0] not in rollable(state, seat):
        forced.pop(0)
    general = state.get("general", {}).get(seat)
    if general and owned(state, seat, "garden", "field") == [general]:
        eliminate(state, seat, events, "only its General is left")
        return
    if not rollable(state, seat):
        eliminate(state, seat, events, "cannot play")
        return
    state["pending"] = {"kind": "roll", "seat": seat}


def fistful(state: State, seat: str, events: list[Event]) -> bool:
    """Spec 1: two players left, each with one die in the field; after 4 turns the lower
    designed value wins. Returns True when that decides the game."""
    left = active(state)
    lone = {s: owned(state, s, "garden", "field") for s in left}
    if len(left) != 2 or any(len(d) != 1 or state["dice"][d[0]]["place"] != "field"
                             for d in lone.values()):
        state["pugno"] = None
        return False
    state["pugno"] = (state["pugno"] or 0) + 1
    if state["pugno"] <= 4:
        if state["pugno"] == 1:
            events.append(Event("pugno-start", {"seats": left}))
        return False
    values = {s: spec(lone[s][0]).value for s in left}
    low = min(values.values())
    best = [s for s in left if values[s] == low]
    if len(best) != 1:
        events.append(Event("pugno-tie", {"values": values}))
        state["pugno"] = 0
        return False
    loser = next(s for s in left if s != best[0])
    for d in owned(state, loser):
        to_limbo(state, d, [], "its player lost the fistful of dice")
    state["out"].append(loser)
    events.append(Event("pugno", {"values": values, "winner": best[0], "loser": loser}))
    return _finished(state, events)


def _resume(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    """A decision set aside while a Square played out is asked again. From revision 4 a
    reaction window is asked as it stands now, or not at all when the Square's own
    windows used what it offered (revisions 1-3 asked it as it was)."""
    pending = step["pending"]
    if pending["kind"] == "react" and revision_of(state) >= 4:
        pending = reopen(state, pending)
    state["pending"] = pending


STEPS = {"resume": _resume, "turn": _turn}
