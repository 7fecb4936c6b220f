"""The Fire phase (the moving team shoots first) and the Opportunity Fire phase (the
waiting team shoots at characters who spent move points)."""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog, hexmap
from ..state import State, at, on_map, other, position, ranged_card, with_me
from .combat import (
    Events,
    apply,
    hit_number,
    land,
    random_target,
    ranged_block,
    settle_weapon,
    strike,
)


def _no_shot(state: State, key: str, why: str) -> Event:
    """Only the character's team hears why he held fire: the reason can tell what he
    carries (or lacks), which the enemy has no way of knowing."""
    return Event("no_shot", {"char": key, "why": why}, (state["chars"][key]["team"],))


def fire_phase(state: State, rng: RngBase, events: Events, team: str,
               orders: list[dict[str, Any]]) -> set[str]:
    """One shot per character with one weapon. Returns who fired (they may not move)."""
    fired: set[str] = set()
    tried: set[str] = set()
    for order in orders:
        key = order["char"]
        if key in tried or state["chars"][key]["status"] != "map":
            continue
        tried.add(key)  # the first FIRE order for a character is the one that counts
        if with_me(state, key, other(team)):
            events.append(_no_shot(state, key, "an enemy shares his space"))
            continue
        targets = [k for k in on_map(state, other(team))
                   if (order.get("at") in (None, k))
                   and order.get("in") in (None, state["chars"][k]["space"])]
        legal = [k for k in targets if ranged_block(state, key, *position(state, k)) is None]
        if not legal:
            why = "no enemy in sight and range"
            if order.get("at") in targets:
                why = ranged_block(state, key, *position(state, order["at"])) or why
            elif ranged_card(state, key) is None:
                why = "has no usable ranged weapon"
            events.append(_no_shot(state, key, why))
            continue
        weapon = ranged_card(state, key)
        intended = max(legal, key=lambda k: hit_number(state, key, k, weapon))
        fired.add(key)
        if catalog.card(weapon).get("target") == "area":
            # everyone in the space, friend and foe, each with his own Hit roll
            victims = with_me(state, intended)
            records = [strike(state, rng, events, "fire", key, v, weapon) for v in victims]
            settle_weapon(state, events, [land(state, events, r) for r in records])
            continue
        target = random_target(state, rng, events, key, intended)
        apply(state, events, strike(state, rng, events, "fire", key, target, weapon))
    return fired


def condition_holds(state: State, cond: dict[str, Any], moved: dict[str, dict[str, Any]],
                    shooter: str | None) -> bool:
    """Conditions look at this turn's enemy movement (see README, Conditional orders)."""
    if cond["test"] == "moves":
        return cond["who"] in moved
    who = [cond["who"]] if cond["who"] != "ENEMY" else list(moved)
    for key in who:
        for space, down in moved.get(key, {}).get("steps", []):
            if cond["where"] == "LOS":
                if shooter and state["chars"][shooter]["status"] == "map" \
                        and hexmap.sight(*position(state, shooter), space, down):
                    return True
            elif space == cond["where"]:
                return True
    return False


def area_victims(state: State, moved: dict[str, dict[str, Any]], space: str, down: bool
                 ) -> list[str]:
    """An area shot during opportunity fire hits everyone who moved through the space
    and everyone standing in it who did not move."""
    out = [k for k, r in moved.items() if [space, down] in r["steps"]
           and state["chars"][k]["status"] == "map"]
    out += [k for k in at(state, space, down=down) if k not in moved]
    return out


def opfire_phase(state: State, rng: RngBase, events: Events, team: str,
                 orders: list[dict[str, Any]], moved: dict[str, dict[str, Any]]) -> None:
    """`team` is the waiting team. Each ordered character shoots up to his weapon's
    OpFire rating, at most once per target and once per space, only at movers."""
    done: set[str] = set()
    for order in orders:
        key = order["char"]
        if key in done or state["chars"][key]["status"] != "map":
            continue
        done.add(key)
        weapon = ranged_card(state, key)
        if weapon is None or catalog.card(weapon)["opfire"] == 0:
            events.append(_no_shot(state, key, "no weapon fit for opportunity fire"))
            continue
        here = state["chars"][key]["space"]
        squatters = [k for k in with_me(state, key, other(team)) if k not in moved]
        if squatters:
            events.append(_no_shot(state, key, "an enemy stayed in his space"))
            continue
        shot_targets: set[str] = set()
        shot_spaces: set[tuple[str, bool]] = set()
        shots = 0
        while shots < catalog.card(weapon)["opfire"] and ranged_card(state, key) == weapon:
            best = None
            for mover, record in moved.items():
                if state["chars"][mover]["status"] != "map" or mover in shot_targets:
                    continue
                if state["chars"][mover]["team"] == team or order.get("at") not in (None, mover):
                    continue
                for index, (space, down) in enumerate(record["steps"]):
                    if (space, down) in shot_spaces or order.get("in") not in (None, space):
                        continue
                    if ranged_block(state, key, space, down) is not None:
                        continue
                    number = hit_number(state, key, mover, weapon, here, space, down)
                    rank = (number, -index)
                    if best is None or rank > best[0]:
                        best = (rank, mover, (space, down))
            if best is None:
                if shots == 0:
                    events.append(_no_shot(state, key,
                                           "no moving enemy in sight and range"))
                break
            _, mover, (space, down) = best
            shots += 1
            shot_targets.add(mover)
            shot_spaces.add((space, down))
            if catalog.card(weapon).get("target") == "area":
                victims = area_victims(state, moved, space, down)
                records = [strike(state, rng, events, "opfire", key, v, weapon, here, space,
                                  down) for v in victims]
                settle_weapon(state, events, [land(state, events, r) for r in records])
            else:
                apply(state, events, strike(state, rng, events, "opfire", key, mover, weapon,
                                            here, space, down))
