"""The Melee phase: everyone sharing a space with an enemy may strike once; all blows
land together, so a character killed in melee still makes his own attack."""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from ..state import State, melee_card, on_map, other, with_me
from . import abilities
from .combat import Events, apply, strike
from .victory import check_sudden_death


def melee_phase(state: State, rng: RngBase, events: Events, first: str,
                orders: dict[str, list[dict[str, Any]]]) -> None:
    """`first` is the moving team, whose attacks are rolled first. Characters with the
    first-strike ability land their blows before anyone else rolls; the rest strike
    together, dead or not, with the survivors of that first wave."""
    fighters = [k for k in on_map(state)
                if with_me(state, k, other(state["chars"][k]["team"]))]
    early = [k for k in fighters if abilities.has(state, k, "first_strike")]
    if early:
        _wave(state, rng, events, first, orders, early)
    rest = [k for k in fighters if k not in early and state["chars"][k]["status"] == "map"
            and with_me(state, k, other(state["chars"][k]["team"]))]
    _wave(state, rng, events, first, orders, rest)


def _wave(state: State, rng: RngBase, events: Events, first: str,
          orders: dict[str, list[dict[str, Any]]], fighters: list[str]) -> None:
    """One simultaneous round of blows: all rolled, then all applied."""
    second = [s for s in orders if s != first][0]
    records = []
    for team in (first, second):
        chosen: dict[str, dict[str, Any]] = {}
        for order in orders[team]:
            chosen.setdefault(order["char"], order)
        for key in fighters:
            if state["chars"][key]["team"] != team:
                continue
            order = chosen.get(key, {"op": "melee"})
            if order["op"] == "hold":
                continue
            enemies = with_me(state, key, other(team))
            target = order.get("at") if order.get("at") in enemies else enemies[0]
            weapon = _weapon(state, events, key, order.get("with"))
            records.append(strike(state, rng, events, "melee", key, target, weapon))
    for record in records:
        apply(state, events, record)
    check_sudden_death(state, events)  # the blows of one wave land together


def _weapon(state: State, events: Events, key: str, named: str | None) -> str | None:
    """Pick Your Weapon: NATURAL is the bare-handed attack; a named card is used if he
    carries it and can use it, else (told to his own team only) his first usable melee
    card; no choice means the first usable melee card, or bare hands."""
    if named == "NATURAL":
        return None
    if named is not None:
        weapon = melee_card(state, key, named)
        if weapon is not None:
            return weapon
        events.append(Event("no_weapon", {"char": key, "card": named},
                            (state["chars"][key]["team"],)))
    return melee_card(state, key)
