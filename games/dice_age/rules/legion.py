"""Level 7: each player builds a Legion in secret from the designed point values.

The rules: each colour after the first costs 50 points; at most two of a die; at most
(points / 30) dice; a General counts its value twice; reserve dice may use a further 20%
of the points. The orders arrive together (one simultaneous decision), so no player sees
another's choice before his own is in; the Legions are then laid out in the gardens,
while each General and each reserve stays known to its owner only.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.core.rng import RngBase
from games.core.types import Event, OrderError

from ..dice import DICE
from ..state import State

COLOUR_COST = 50
MOST_OF_A_DIE = 2
POINTS_PER_DIE = 30
RESERVE_SHARE = 20  # percent of the Legion's points


def cost(dice: list[str], general: str | None) -> int:
    colours = {DICE[d].colour for d in dice}
    return sum(DICE[d].value for d in dice) + (DICE[general].value if general else 0) + \
        COLOUR_COST * max(0, len(colours) - 1)


def budget_text(state: State) -> str:
    points = state["points"]
    return (f"{points} points, at most {points // POINTS_PER_DIE} dice, reserve up to "
            f"{points * RESERVE_SHARE // 100} points")


def _combine(orders: list[dict[str, Any]]) -> tuple[list[str], str | None, list[str]]:
    dice: list[str] = []
    general, reserve = None, []
    for order in orders:
        if order["op"] == "legion":
            dice += order["dice"]
        elif order["op"] == "general":
            general = order["die"]
        else:
            reserve += order["dice"]
    return dice, general, reserve


def problems(state: State, orders: list[dict[str, Any]]) -> list[str]:
    dice, general, reserve = _combine(orders)
    points = state["points"]
    out: list[str] = []
    if not dice:
        out.append("a Legion needs at least one die (LEGION ...)")
    for die, n in Counter(dice).items():
        if n > MOST_OF_A_DIE:
            out.append(f"{n} × {die}: at most two of the same die")
    if len(dice) > points // POINTS_PER_DIE:
        out.append(f"{len(dice)} dice: a {points}-point Legion holds at most "
                   f"{points // POINTS_PER_DIE}")
    if general is not None and general not in dice:
        out.append(f"the General {general} is not in your Legion")
    total = cost(dice, general)
    if total > points:
        out.append(f"the Legion costs {total} points (values, +{COLOUR_COST} per extra "
                   f"colour, the General twice): more than {points}")
    for die, n in Counter(reserve).items():
        if n > MOST_OF_A_DIE:
            out.append(f"{n} × {die} in reserve: at most two of the same die")
    spare = sum(DICE[d].value for d in reserve)
    if spare > points * RESERVE_SHARE // 100:
        out.append(f"the reserve costs {spare} points: more than "
                   f"{points * RESERVE_SHARE // 100}")
    return out


def check(state: State, orders: list[dict[str, Any]], line: int) -> list[OrderError]:
    hint = budget_text(state)
    if sum(1 for o in orders if o["op"] == "legion") > 1:
        # Two of the order form's suggested Legions clicked (each button adds a line).
        hint += "; LEGION lines add up to one Legion: keep one suggested Legion"
    return [OrderError(line, p, hint) for p in problems(state, orders)]


def default_legion(state: State) -> list[dict[str, Any]]:
    """For a seat that misses the deadline: one colour (no extra cost), the cheapest dice
    first, two of each while the points and the size cap allow; no General, no reserve."""
    points = state["points"]
    best: list[str] = []
    for colour in ("yellow", "green", "red", "orange"):
        chosen: list[str] = []
        for die in sorted((d for d in DICE.values() if d.colour == colour),
                          key=lambda d: (d.value, d.id)):
            for _ in range(MOST_OF_A_DIE):
                if len(chosen) < points // POINTS_PER_DIE and \
                        cost([*chosen, die.id], None) <= points:
                    chosen.append(die.id)
        if len(chosen) > len(best):
            best = chosen
    return [{"op": "legion", "dice": best}]


def examples(state: State) -> list[str]:
    """Quick picks: the default Legion, and a two-colour one with a General."""
    default = "LEGION " + " ".join(default_legion(state)[0]["dice"])
    mixed = ["TANK", "ROCKET", "MINE", "CASTLE", "BARREL"]
    out = [default]
    if not problems(state, [{"op": "legion", "dice": mixed}, {"op": "general", "die": "TANK"}]):
        out.append("LEGION " + " ".join(mixed) + "\nGENERAL TANK")
    return out


def reveal(state: State, orders: dict[str, list[dict[str, Any]]], events: list[Event]) -> None:
    """The Legions go to the gardens (copies numbered: CASTLE, CASTLE2...)."""
    used: Counter[str] = Counter()
    for seat in state["seats"]:
        dice, general, reserve = _combine(orders[seat])
        mine: list[str] = []
        general_id = None
        for kind in dice:
            used[kind] += 1
            inst = kind if used[kind] == 1 else f"{kind}{used[kind]}"
            state["dice"][inst] = {"owner": seat, "place": "garden", "face": None,
                                   "pos": None, "susp": None}
            mine.append(inst)
            if kind == general and general_id is None:
                general_id = inst
        state["general"][seat] = general_id
        state["reserve"][seat] = reserve
        events.append(Event("legion", {"seat": seat, "dice": mine}))
        events.append(Event("legion-private", {"seat": seat, "general": general_id,
                                               "reserve": reserve,
                                               "cost": cost(dice, general)}, (seat,)))


def first_roll(state: State, rng: RngBase, events: list[Event]) -> None:
    from . import setup
    setup.first_player(state, rng, events)
