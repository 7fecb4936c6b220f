"""The one turn engine of every level: a turn as a queue of steps, so a roll can stop
for a choice (reading a die on an edge, the level-4 icon choice, an effect's target, a
reaction) and go on when it is answered.

A main roll sets off a chain: the die may rest between two sides (read), may be
suspended at once, reaction windows open (Gear, Smile, Pair), the face settles (a
Number, an overshoot, or an icon: a missed turn or the level-4 recall at levels 1-4,
an effect with its Double-arrow window, its target and its Nut window from level 5),
and the turn ends. Each link is a small JSON step in `state["queue"]`; `run` carries
steps out until one needs a seat's decision (`state["pending"]`), and the answer to
that decision pushes the steps that follow. What a level adds is a switch in
levels.py; the effects live in effects.py, the windows in windows.py, the start of a
turn in turns.py, and steps.py holds `run` with every handler by name (so this module,
the bottom of the rules, imports none of them).

Levels 1-4 store a compact state without the effects' bookkeeping (the queue, the roll
in progress, each die's Ledges...). `unpack` reads such a state with that bookkeeping at
rest (the steps left are implied by the decision pending) and `pack` takes it out again,
so one engine runs every level and stored games keep their format and hashes.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from ..dice import ROMAN, SUSPENDING, is_balanced, read, sides, spec
from ..levels import rules
from ..state import (
    BARRED_SINCE,
    State,
    active,
    barred,
    clockwise_from,
    dice_order,
    held,
    holders,
    next_seat,
    owned,
    suspended,
    valley,
)

Step = dict[str, Any]
RUN_LIMIT = 10_000


def push(state: State, *steps: Step) -> None:
    """Put steps at the front of the queue, in the order given."""
    state["queue"][0:0] = [dict(s) for s in steps]


# -- moving dice ------------------------------------------------------------------
def is_white(die: str) -> bool:
    return spec(die).colour == "white"


def suspend(state: State, die: str, effect: str | None, events: list[Event],
            d6: list[int] | None = None) -> None:
    uses = (len(d6) if d6 else 1) if effect else 0
    state["dice"][die]["susp"] = {"effect": effect, "uses": uses,
                                  "d6": d6 or [], "roll": state["rolls"]}
    events.append(Event("suspend", {"die": die,
                                    "seat": state["dice"][die]["owner"], "effect": effect,
                                    "d6": list(d6 or [])}))


def unsuspend(state: State, die: str, events: list[Event], why: str = "used") -> None:
    """The die leaves the Ledges for the Valley (a white die goes to Limbo instead)."""
    info = state["dice"][die]
    info["susp"] = None
    events.append(Event("unsuspend", {"die": die, "seat": info["owner"], "why": why}))
    if is_white(die) and info["place"] == "field" and why != "picked up to roll":
        to_limbo(state, die, events, "a white die may not rest unsuspended in the field")


def use_up(state: State, die: str, events: list[Event]) -> None:
    """One use of a suspended effect is spent; the die leaves the Ledges when none is left."""
    susp = state["dice"][die]["susp"]
    susp["uses"] -= 1
    if susp["uses"] <= 0:
        unsuspend(state, die, events)


def to_limbo(state: State, die: str, events: list[Event], why: str) -> None:
    info = state["dice"][die]
    info.update(place="limbo", owner=None, susp=None)
    events.append(Event("limbo-die", {"die": die, "why": why}))


def to_wasteland(state: State, die: str, events: list[Event] | None = None) -> None:
    """A white die never rests in a wasteland: it goes to Limbo instead."""
    info = state["dice"][die]
    info["susp"] = None
    if is_white(die):
        info.update(place="limbo", owner=None)
        if events is not None:
            events.append(Event("limbo-die", {"die": die, "why": "white dice go to Limbo"}))
        return
    info["place"] = "wasteland"


def white_sweep(state: State, events: list[Event]) -> None:
    """After a main roll a white die in the field goes to Limbo unless it is suspended."""
    for die in dice_order(state):
        info = state["dice"][die]
        if info["place"] == "field" and is_white(die) and not info.get("susp"):
            to_limbo(state, die, events, "a white die leaves after its roll")


def throw(state: State, die: str, rng: RngBase, label: str, events: list[Event], *,
          to_field: bool = True) -> Any:
    """Roll one die; it lands in its owner's field (a duel die stays where it was)."""
    faces = spec(die).faces
    pos = rng.die(f"{label}/{die}", len(faces))
    info = state["dice"][die]
    if to_field and info.get("susp"):
        unsuspend(state, die, events, "picked up to roll")
    info.update(pos=pos, face=faces[pos - 1])
    if to_field:
        info["place"] = "field"
    state["rolls"] += 1
    return faces[pos - 1]


def value_of(face: Any) -> int | None:
    """The number a face shows; None for an icon or a die still resting on an edge."""
    if face is None or is_balanced(face):
        return None
    kind, value = read(face)
    return int(value) if kind == "number" else None


# -- the turn -----------------------------------------------------------------------
def start(state: State, seat: str) -> None:
    state["queue"] = [{"do": "turn", "seat": seat}]


def main_roll(state: State, seat: str, die: str, rng: RngBase, events: list[Event]) -> None:
    """The seat's main roll: the queue then takes it to its end. Without the field
    (levels 1-2) the die goes back to its owner's hand."""
    forced = state["forced"][seat]
    if forced and forced[0] == die:
        forced.pop(0)
        events.append(Event("square-obeyed", {"seat": seat, "die": die}))
    state["pending"] = None
    state["last"][seat] = die if revision_of(state) < BARRED_SINCE else [die]
    state["turns"] += 1
    number = state["number"]
    face = throw(state, die, rng, "roll", events, to_field=rules(state).field)
    state["roll"] = {"seat": seat, "die": die, "adjust": 0, "geared": False}
    events.append(Event("roll", {"seat": seat, "die": die, "face": face, "number": number}))
    push(state, *read_steps(state, seat, [die]), {"do": "after-roll", "seat": seat, "die": die},
         {"do": "end", "seat": seat})


def bar(state: State, seat: str, die: str) -> None:
    """From revision 4 a die whose result counts as the seat's main roll this turn (a kept
    triangle result, a die a chaos counted) is barred from his next main roll too, as
    the die he rolled is (never the same die twice in a row; revisions 1-3 barred only
    the die he rolled)."""
    if revision_of(state) < BARRED_SINCE or not rules(state).never_twice:
        return
    last = barred(state, seat)
    if die not in last:
        state["last"][seat] = [*last, die]


def read_steps(state: State, seat: str, dice: list[str]) -> list[Step]:
    return [{"do": "read", "seat": seat, "die": d} for d in dice
            if is_balanced(state["dice"][d]["face"])]


def _read(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    die = step["die"]
    face = state["dice"][die]["face"]
    if not is_balanced(face):
        return
    state["pending"] = {"kind": "read", "seat": step["seat"], "die": die, "sides": sides(face)}


def choose_side(state: State, seat: str, side: Any, events: list[Event]) -> None:
    die = state["pending"]["die"]
    state["dice"][die]["face"] = side
    state["pending"] = None
    events.append(Event("read", {"seat": seat, "die": die, "face": side}))


def roll_value(state: State) -> int | None:
    """The number the current main roll shows, Smile adjustments included."""
    roll = state["roll"]
    if roll is None or roll.get("die") is None:
        return None
    base = value_of(state["dice"][roll["die"]]["face"]) if \
        state["dice"][roll["die"]]["face"] is not None else None
    return None if base is None else base + roll["adjust"]


def _after_roll(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    """The face is up: a suspending icon goes to the Ledges at once (spec 11), then the
    Gear holders (clockwise from the roller), the roller's Smile and Pair may react."""
    seat, die = step["seat"], step["die"]
    state["roll"] = {**(state["roll"] or {}), "seat": seat, "die": die}
    state["roll"].setdefault("adjust", 0)
    state["roll"].setdefault("geared", False)
    face = state["dice"][die]["face"]
    kind, icon = read(face)
    steps: list[Step] = []
    if rules(state).effects:
        if kind == "icon" and icon in SUSPENDING and not suspended(state, die):
            _suspend_icon(state, die, str(icon), rng, events)
        steps += [{"do": "window", "kind": "gear", "seat": s}
                  for s in holders(state, "gear", clockwise_from(state, seat))]
        steps.append({"do": "window", "kind": "smile", "seat": seat})
    if rules(state).pair:
        # revision 4: a kept triangle result was offered with its throw; asked again
        # only when a Gear has turned it over (windows.legal)
        steps.append({"do": "window", "kind": "pair", "seat": seat,
                      **({"kept": True} if step.get("kept") else {})})
    steps.append({"do": "settle", "seat": seat, "die": die})
    push(state, *steps)


def _suspend_icon(state: State, die: str, icon: str, rng: RngBase,
                  events: list[Event]) -> None:
    d6 = [rng.die("smile/d6", 6)] if icon == "smile" else None
    suspend(state, die, icon, events, d6)


def _settle(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat, die = step["seat"], step["die"]
    info = state["dice"][die]
    if info["owner"] != seat or info["place"] != ("field" if rules(state).field else "garden"):
        events.append(Event("void", {"seat": seat, "die": die}))
        return
    kind, value = read(info["face"])
    if kind == "number":
        settle_number(state, seat, die, _value(state), events)
        return
    icon = str(value)
    if rules(state).icon_skips:
        _icon_choice(state, seat, die, events)
        return
    if icon in SUSPENDING:
        if not suspended(state, die):
            _suspend_icon(state, die, icon, rng, events)
        effect_steps(state, seat, die, icon, suspended_die=True)
        return
    effect_steps(state, seat, die, icon)


def _icon_choice(state: State, seat: str, die: str, events: list[Event]) -> None:
    """Levels 1-4: an icon costs the roller his next turn; at level 4 he may recall a
    wasteland die to the field instead (a decision, when he has one to recall)."""
    if rules(state).icon_recall and owned(state, seat, "wasteland"):
        state["pending"] = {"kind": "icon", "seat": seat, "die": die}
        return
    skip(state, seat, die, events)


def skip(state: State, seat: str, die: str, events: list[Event]) -> None:
    state["pending"] = None
    state["skips"][seat] += 1
    events.append(Event("icon-skip", {"seat": seat, "die": die}))


def recall(state: State, seat: str, back: str, events: list[Event]) -> None:
    """Level 4 icon: one die from the roller's wasteland returns to his side of the field."""
    state["pending"] = None
    state["dice"][back].update(place="field", face=None)
    events.append(Event("recall", {"seat": seat, "die": back}))


def _value(state: State) -> int:
    value = roll_value(state)
    return 0 if value is None else value


def effect_steps(state: State, seat: str, die: str, icon: str, *,
                 suspended_die: bool = False) -> None:
    """An effect takes place: Double-arrow holders may double it, then it applies."""
    state["doubling"] = 0
    events_step = {"do": "effect", "seat": seat, "die": die, "icon": icon,
                   "suspended": suspended_die}
    doubles = [{"do": "window", "kind": "double", "seat": s, "icon": icon}
               for s in holders(state, "double-arrow", clockwise_from(state, seat))]
    push(state, {"do": "announce", "seat": seat, "die": die, "icon": icon}, *doubles,
         events_step)


def _announce(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    events.append(Event("effect", {"seat": step["seat"], "die": step["die"],
                                   "icon": step["icon"]}))


def settle_number(state: State, seat: str, die: str, value: int, events: list[Event]) -> None:
    limit = state["number"]
    if limit is not None and value > limit:
        overshoot(state, seat, die, value, events)
        return
    if limit is not None and value == limit and rules(state).resting \
            and state["dice"][die]["place"] == "field":  # (a chaos may have swept it away)
        state["dice"][die]["susp"] = {"effect": None, "uses": 0, "d6": [], "roll": state["rolls"]}
        events.append(Event("resting", {"seat": seat, "die": die, "number": value}))
        if revision_of(state) >= 3:  # revision 2 offered no capture to a resting numeral
            _capture(state, seat, die, value)
        return
    state["number"] = value
    events.append(Event("number", {"seat": seat, "number": value}))
    _capture(state, seat, die, value)


def _capture(state: State, seat: str, die: str, value: int) -> None:
    """A Roman numeral that did not overshoot may capture a die showing its number,
    whether it set the Number or equalled it and rests on the Ledges (level 6). From
    revision 3 the capture is an effect like the others: a Double arrow may double it."""
    face = state["dice"][die]["face"]
    if rules(state).effects and isinstance(face, str) and face in ROMAN:
        step = {"do": "choose", "effect": "capture", "seat": seat, "die": die,
                "number": value}
        push(state, {**step, "do": "capture"} if revision_of(state) >= 3 else step)


def overshoot(state: State, seat: str, die: str, number: int, events: list[Event]) -> None:
    """The roller loses: his whole field goes to his wasteland (levels 1-2: the die just
    rolled), the others' Valley dice go home, their Ledges stay; the Number is erased
    and the roller starts the new round (or is out, when he has no die left)."""
    field = owned(state, seat, "field") if rules(state).field else [die]
    lost = [d for d in field if not is_white(d)]
    whites = [d for d in field if is_white(d)]
    for d in field:
        to_wasteland(state, d)
    back = _valley_home(state, exclude=seat)
    data = {"seat": seat, "number": number, "level": state["level"], "limit": state["number"],
            "lost": lost, "back": back}
    if rules(state).white_dice:
        data["limbo"] = whites
    events.append(Event("overshoot", data))
    white_sweep(state, events)
    _new_round(state)
    state["queue"] = [{"do": "turn", "seat": seat}]


def _valley_home(state: State, exclude: str | None = None) -> dict[str, list[str]]:
    back: dict[str, list[str]] = {}
    for s in active(state):
        if s == exclude:
            continue
        dice = valley(state, s)
        for d in dice:
            if is_white(d):
                continue
            state["dice"][d].update(place="garden", face=None, pos=None)
        if dice:
            back[s] = [d for d in dice if not is_white(d)]
    return {s: d for s, d in back.items() if d}


def _new_round(state: State) -> None:
    state["number"] = None
    state["round"] += 1
    state["roll"] = None
    state["pugno"] = None


def eliminate(state: State, seat: str, events: list[Event], why: str) -> None:
    """A seat that cannot play is out and the next roller clockwise starts the new round
    (a seat owing a skipped turn is passed, as at any turn). From level 5 its dice go to
    Limbo and the round ends ("Next!"); before, only an overshoot leaves a seat without
    dice, the round has just ended, and its wasteland stays as it is."""
    limbo = rules(state).out_to_limbo
    dice = owned(state, seat) if limbo else []
    for d in dice:
        to_limbo(state, d, [], "its player is out")
    state["out"].append(seat)
    events.append(Event("eliminated", {"seat": seat, "why": why, "dice": dice}) if limbo
                  else Event("out", {"seat": seat}))
    if _finished(state, events):
        return
    if limbo:
        back = _valley_home(state)
        white_sweep(state, events)
        _new_round(state)
        events.append(Event("round-end", {"back": back}))
    if limbo and revision_of(state) < 2:
        # Rules revision 1 (games recorded before it, README "Rules revisions"): at
        # levels 5-7 the new round went to the next seat even when it owed a skip.
        state["queue"] = [{"do": "turn", "seat": next_seat(state, seat)}]
        return
    state["queue"] = [{"do": "turn", "seat": next_roller(state, seat, events)}]


def _finished(state: State, events: list[Event]) -> bool:
    """The last seat with dice wins (every level)."""
    left = active(state)
    if len(left) > 1:
        return False
    state["winner"] = left[0]
    state["pending"] = None
    state["queue"] = []
    events.append(Event("winner", {"seat": left[0]}))
    return True


def next_roller(state: State, seat: str, events: list[Event]) -> str:
    """The next seat clockwise that rolls; a seat owing skipped turns loses one and is
    passed."""
    cand = seat
    while True:
        cand = next_seat(state, cand)
        if state["skips"][cand] > 0:
            state["skips"][cand] -= 1
            events.append(Event("skipped", {"seat": cand}))
            continue
        return cand


def _end(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    white_sweep(state, events)
    state["roll"] = None
    push(state, {"do": "turn", "seat": next_roller(state, seat, events)})


# -- levels 1-4: the compact stored state ------------------------------------------------
BOOKKEEPING_AT_REST: dict[str, Any] = {"doubling": 0, "pugno": None, "chaos": None,
                                       "tri": None, "duel": None}
"""Keys a compact state leaves out that must be at rest when it is packed again."""
DERIVED = ("last", "paired", "turns")
"""Keys a compact state leaves out because nothing at its level reads them: the die of the
last main roll (never twice, level 5), a Pair used (level 6), the count of main rolls."""


def _implied(pending: dict[str, Any] | None) -> tuple[list[Step], dict[str, Any] | None]:
    """The steps left and the roll in progress while a compact level waits on `pending`:
    after a die resting on an edge is read, the roll settles and the turn ends; after the
    level-4 icon choice, the turn ends."""
    if pending is None or pending["kind"] not in ("read", "icon"):
        return [], None
    seat, die = pending["seat"], pending["die"]
    roll = {"seat": seat, "die": die, "adjust": 0, "geared": False}
    if pending["kind"] == "read":
        return [{"do": "after-roll", "seat": seat, "die": die}, {"do": "end", "seat": seat}], roll
    return [{"do": "end", "seat": seat}], roll


def unpack(state: State) -> State:
    """Give a compact (levels 1-4) state the turn engine's bookkeeping, at rest."""
    if not rules(state).compact:
        return state
    seats = state["seats"]
    queue, roll = _implied(state["pending"])
    state.update(BOOKKEEPING_AT_REST, last={s: None for s in seats},
                 forced={s: [] for s in seats}, paired={s: False for s in seats},
                 queue=queue, roll=roll, turns=0)
    for info in state["dice"].values():
        info.update(pos=None, susp=None)
    return state


def pack(state: State) -> State:
    """Take the bookkeeping out of a compact level's state again; it must be at rest."""
    if not rules(state).compact:
        return state
    queue, roll = _implied(state["pending"])
    problems = [k for k, v in BOOKKEEPING_AT_REST.items() if state[k] != v]
    if state["queue"] != queue or state["roll"] != roll:
        problems.append("queue")
    if any(state["forced"].values()):
        problems.append("forced")
    if any(info["susp"] for info in state["dice"].values()):
        problems.append("susp")
    if problems:  # pragma: no cover - a level 1-4 rule left effects' state behind
        raise RuntimeError(f"Dice Age level {state['level']}: cannot store {problems}")
    for key in (*BOOKKEEPING_AT_REST, *DERIVED, "forced", "queue", "roll"):
        del state[key]
    for info in state["dice"].values():
        del info["pos"], info["susp"]
    return state


STEPS = {"read": _read, "after-roll": _after_roll, "settle": _settle,
         "announce": _announce, "end": _end}

__all__ = ["held", "push", "main_roll", "start", "choose_side", "throw", "pack",
           "unpack", "skip", "recall", "next_roller"]
