"""The game state and the questions every rule asks of it.

State (plain JSON):
  level          the rules level being played (1-7; what each adds: levels.py)
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

from functools import cache
from typing import Any

from games.core.engine import REVISION, revision_of

from .dice import DICE, dice_for_level, die_type
from .levels import LEVEL_RULES, level_rules, rules

State = dict[str, Any]
PLACES = ("pool", "garden", "field", "wasteland", "limbo")
PENDING_KINDS = ("draft", "roll", "read", "icon", "target", "triangle", "chaos", "react",
                 "defend", "legion")
BUILT = tuple(LEVEL_RULES)
"""Levels the code knows (levels.py); LEVELS are those the option offers (fully tested)."""
LEVELS = BUILT
NO_NUMBER = 99
"""What the condition word NUMBER reads while no Number stands: anything may be rolled."""
ORDERED_SINCE = 3
"""The rules revision from which the dice are walked in catalogue order (`dice_order`)."""
BARRED_SINCE = 4
"""The rules revision from which every die used in a main roll this turn is barred from
the seat's next main roll (a kept triangle result, the dice whose results a chaos
counted), not only the die he picked up and rolled (`barred`)."""
_CATALOGUE = {die: i for i, die in enumerate(DICE)}


@cache
def _catalogue_rank(die: str) -> tuple[int, int, str]:
    """Catalogue position of the die's type, then its copy (TANK before TANK2)."""
    kind = die_type(die)
    copy = die[len(kind):]
    return _CATALOGUE.get(kind, len(_CATALOGUE)), int(copy) if copy else 1, die


def dice_order(state: State) -> list[str]:
    """The dice in play, in the order every rule walks them.

    From rules revision 3: catalogue order (data/dice.toml; a Legion's copies after
    their first), whatever order the state's `dice` object has. Revisions 1-2 walked
    that object in its own order, so their games replay only in it: the engine hands
    them their dice sorted by id (`in_revision_order`), the order the service has always
    handed a stored state back in.
    """
    if revision_of(state) < ORDERED_SINCE:
        return list(state["dice"])
    return sorted(state["dice"], key=_catalogue_rank)


def in_revision_order(state: State) -> State:
    """The state as its rules revision walks it: for revisions 1-2, with its `dice`
    sorted by id (a shallow copy when they are not), as games.core.replay's
    canonical_state has handed every state to setup and resolution; from revision 3 the
    state as it is (dice_order defines the walk)."""
    if revision_of(state) >= ORDERED_SINCE:
        return state
    dice = state["dice"]
    ids = list(dice)
    if ids == sorted(ids):
        return state
    return {**state, "dice": {d: dice[d] for d in sorted(ids)}}


def new_state(seats: list[str], level: int, points: int = 500) -> State:
    lv = level_rules(level)
    state: State = {
        "version": 1, "level": level, "seats": list(seats),
        "dice": {d: {"owner": None, "place": "pool", "face": None}
                 for d in ([] if lv.legions else dice_for_level(level))},
        "number": None, "skips": {s: 0 for s in seats}, "out": [], "pending": None,
        "standing": {s: [] for s in seats}, "round": 1, "rolls": 0, "winner": None,
        "first": None,
    }
    if not lv.compact:  # the effects' bookkeeping (levels 1-4 leave it out: rules/flow.py)
        for info in state["dice"].values():
            info.update(pos=None, susp=None)
        state.update(
            last={s: None for s in seats},   # the die (from revision 4: dice) of each
            # seat's last main roll, barred from his next one (`barred`)
            forced={s: [] for s in seats},   # dice a Square obliges the seat to roll next
            paired={s: False for s in seats},  # a Pair used this turn (level 6)
            queue=[], roll=None, doubling=0, pugno=None, turns=0, chaos=None, tri=None,
            duel=None)
    if lv.legions:
        state.update(points=points, reserve={s: [] for s in seats},
                     general={s: None for s in seats})
    return state


def suspended(state: State, die: str) -> bool:
    return bool(state["dice"][die].get("susp"))


def valley(state: State, seat: str) -> list[str]:
    """The seat's unsuspended dice in the field (levels 5+: the left part of the field)."""
    return [d for d in owned(state, seat, "field") if not suspended(state, d)]


def ledges(state: State, seat: str) -> list[str]:
    """The seat's suspended dice (the right part of the field)."""
    return [d for d in owned(state, seat, "field") if suspended(state, d)]


def holders(state: State, effect: str, seats: list[str] | None = None) -> list[str]:
    """Seats still in holding a suspended die with this effect left to use."""
    out = []
    for seat in seats or active(state):
        for die in ledges(state, seat):
            susp = state["dice"][die]["susp"]
            if susp["effect"] == effect and susp["uses"] > 0:
                out.append(seat)
                break
    return out


def held(state: State, seat: str, effect: str) -> list[str]:
    return [d for d in ledges(state, seat)
            if state["dice"][d]["susp"]["effect"] == effect and state["dice"][d]["susp"]["uses"]]


def clockwise_from(state: State, seat: str) -> list[str]:
    """Seats still in, starting with `seat` (if still in) and going clockwise."""
    seats = state["seats"]
    i = seats.index(seat)
    return [seats[(i + k) % len(seats)] for k in range(len(seats))
            if seats[(i + k) % len(seats)] not in state["out"]]


def legendary_clash(state: State, seat: str, die: str) -> bool:
    """Level 6 "all dice are Legendary": a copy of this die is already in the field.

    Survival instinct waives it for a seat's last die, unless the copy in the field is
    itself an opponent's last die.
    """
    from .dice import die_type
    kind = die_type(die)
    mine = owned(state, seat, "garden", "field")
    for other in dice_order(state):
        info = state["dice"][other]
        if other == die or die_type(other) != kind or info["place"] != "field":
            continue
        if len(mine) != 1:
            return True
        owner = info["owner"]
        if owner != seat and len(owned(state, owner, "garden", "field")) == 1:
            return True
    return False


def barred(state: State, seat: str) -> list[str]:
    """The dice the seat used in a main roll on his last turn: never twice in a row.

    Revisions 1-3 keep one die, the one he picked up and rolled. From revision 4 `last`
    lists every die used in a main roll that turn (rules/flow.py `bar`): that die, the
    result he kept from a triangle, and each die whose result a chaos counted.
    """
    last = state["last"][seat]
    if last is None:
        return []
    return [last] if isinstance(last, str) else list(last)


def rollable(state: State, seat: str) -> list[str]:
    """Dice the seat may pick for its main roll now.

    Levels 1-4: its playable dice. Level 5 up: never the die of its last main roll; from
    level 6 a seat's last die may be rolled again (survival instinct) and a garden die
    whose copy is in the field may not (legendary); a Square's choice narrows it to one.
    """
    dice = playable(state, seat)
    lv = rules(state)
    if not lv.effects:
        return dice
    survival = lv.survival and len(dice) == 1
    bar = barred(state, seat)
    out = [d for d in dice if not lv.never_twice or d not in bar or survival]
    if lv.legendary:
        out = [d for d in out if state["dice"][d]["place"] == "field"
               or not legendary_clash(state, seat, d)]
    forced = state["forced"][seat]
    if forced and forced[0] in out:
        return [forced[0]]
    return out


def owned(state: State, seat: str, *places: str) -> list[str]:
    """The seat's dice in the given places (all places when none given), in dice_order."""
    dice = state["dice"]
    return [d for d in dice_order(state)
            if dice[d]["owner"] == seat and (not places or dice[d]["place"] in places)]


def playable(state: State, seat: str) -> list[str]:
    """Dice the seat may roll: its garden, and from level 3 its dice in the field too."""
    return owned(state, seat, "garden", "field")


def in_pool(state: State) -> list[str]:
    return [d for d in dice_order(state) if state["dice"][d]["place"] == "pool"]


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


@cache
def _state_keys(level: int) -> frozenset[str]:
    """The keys a state at this level keeps (what new_state lays out)."""
    return frozenset(new_state(["P1", "P2"], level))


def invariants(state: State) -> list[str]:
    problems: list[str] = []
    seats = state["seats"]
    level = state["level"]
    if level not in BUILT:
        return [f"unknown level {level}"]
    lv = rules(state)
    keys = _state_keys(level)
    if set(state) - {REVISION} != keys:  # the rules revision: absent in games before it
        problems.append(f"the state's keys are not level {level}'s: "
                        f"{sorted(set(state) ^ keys)}")
    die_keys = {"owner", "place", "face"} | (set() if lv.compact else {"pos", "susp"})
    if not lv.legions and set(state["dice"]) != set(dice_for_level(level)):
        problems.append("the dice in play are not the level's dice")
    for die in dice_order(state):
        info = state["dice"][die]
        if die_type(die) not in DICE:
            problems.append(f"unknown die {die}")
        if set(info) != die_keys:
            problems.append(f"{die}: keys {sorted(info)} are not level {level}'s")
        if lv.effects and info.get("susp") and info["place"] != "field":
            problems.append(f"{die} suspended outside the field")
        if lv.white_dice and DICE[die_type(die)].colour == "white" and \
                info["place"] == "wasteland":
            problems.append(f"white die {die} in a wasteland")
        if info["place"] not in PLACES:
            problems.append(f"{die} in unknown place {info['place']}")
        if (info["owner"] is None) != (info["place"] in ("pool", "limbo")):
            problems.append(f"{die}: owner {info['owner']} does not fit place {info['place']}")
        if info["owner"] is not None and info["owner"] not in seats:
            problems.append(f"{die} owned by unknown seat")
        if not lv.field and info["place"] == "field":
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
        elif pending["kind"] not in PENDING_KINDS or (
                pending["kind"] != "legion" and pending["seat"] not in active(state)):
            problems.append(f"bad pending decision {pending}")
        elif not lv.compact and state["queue"] and pending["kind"] == "roll":
            problems.append("a roll is asked while steps are still queued")
        elif pending["kind"] == "draft" and not in_pool(state):
            problems.append("a draft pick is pending with an empty pool")
        elif pending["kind"] == "roll" and not rollable(state, pending["seat"]):
            problems.append("a seat with no playable die is asked to roll")
        elif pending["kind"] == "icon" and (not lv.icon_recall or
                                            not owned(state, pending["seat"], "wasteland")):
            problems.append("an icon choice is pending without a wasteland to recall from")
        if len(active(state)) < 2:
            problems.append("fewer than two seats remain but there is no winner")
    if not lv.out_to_limbo and (pending is None or pending["kind"] != "draft"):
        for seat in active(state):
            if not playable(state, seat) and not (pending and pending["seat"] == seat
                                                  and pending["kind"] in ("read", "icon")):
                problems.append(f"{seat} is still in but has no die to play")
    for seat in state["out"]:
        if playable(state, seat):
            problems.append(f"{seat} is out but still has dice to play")
    return problems
