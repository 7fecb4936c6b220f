"""Getting to the first roll: who goes first, and how the dice reach the players.

Levels 1-3 draft: from the first player on, clockwise, each seat takes one die from the
centre until none is left. Level 4 deals by colour instead: each colour's dice are
scattered (a labelled shuffle stands for "the die that lands closest to you") and dealt
clockwise from the first player in whole rounds; what cannot go round evenly is set
aside, the set-aside dice are dealt the same way at the end, and the rest go to Limbo.
"""

from __future__ import annotations

from games.core.rng import RngBase
from games.core.types import Event

from ..dice import COLOURS, DICE
from ..state import State, in_pool, next_seat


def first_player(state: State, rng: RngBase, events: list[Event]) -> str:
    """Every seat rolls a d6; the highest starts; tied seats roll again among themselves."""
    contenders = list(state["seats"])
    attempt = 1
    while True:
        rolls = {s: rng.die(f"first-player/{attempt}/{s}", 6) for s in contenders}
        events.append(Event("first-roll", {"attempt": attempt, "rolls": rolls}))
        best = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == best]
        if len(contenders) == 1:
            state["first"] = contenders[0]
            events.append(Event("first-player", {"seat": contenders[0]}))
            return contenders[0]
        attempt += 1


def take(state: State, seat: str, die: str, events: list[Event]) -> None:
    """One draft pick; the next seat clockwise picks next; once the centre is empty the
    first player's turn begins."""
    state["dice"][die].update(owner=seat, place="garden")
    events.append(Event("pick", {"seat": seat, "die": die}))
    if in_pool(state):
        state["pending"] = {"kind": "draft", "seat": next_seat(state, seat)}
    else:
        from .flow import start
        events.append(Event("draft-done", {}))
        state["pending"] = None
        start(state, state["first"])


def _deal(state: State, dice: list[str], label: str, rng: RngBase,
          events: list[Event]) -> list[str]:
    """Deal whole rounds clockwise from the first player; return what is left over."""
    seats = state["seats"]
    start = seats.index(state["first"])
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    scattered = rng.shuffle(label, dice) if len(dice) > 1 else list(dice)
    whole = len(scattered) // len(seats) * len(seats)
    given: dict[str, list[str]] = {s: [] for s in order}
    for i, die in enumerate(scattered[:whole]):
        seat = order[i % len(order)]
        state["dice"][die].update(owner=seat, place="garden")
        given[seat].append(die)
    events.append(Event("deal", {"what": label.split("/", 1)[1], "given": given,
                                 "left": scattered[whole:]}))
    return scattered[whole:]


def distribute(state: State, rng: RngBase, events: list[Event]) -> None:
    """Levels 4+: deal colour by colour (white is a colour from level 5), then the
    set-aside dice; leftovers go to Limbo."""
    aside: list[str] = []
    for colour in COLOURS:
        dice = [d for d in in_pool(state) if DICE[d].colour == colour]
        if dice:  # white dice exist from level 5 only
            aside += _deal(state, dice, f"deal/{colour}", rng, events)
    rest = _deal(state, aside, "deal/set-aside", rng, events)
    for die in rest:
        state["dice"][die].update(owner=None, place="limbo")
    if rest:
        events.append(Event("limbo", {"dice": rest}))
