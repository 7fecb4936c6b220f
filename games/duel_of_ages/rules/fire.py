"""The Fire phase (the moving team shoots first) and the Opportunity Fire phase (the
waiting team shoots at characters who spent move points)."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog, hexmap
from ..state import (
    State,
    at,
    carried_weapons,
    on_map,
    other,
    position,
    ranged_card,
    with_me,
)
from . import abilities
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
from .trade import undo_trades
from .victory import check_sudden_death


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
        weapon = choose_weapon(state, key, order.get("with"), targets)
        if weapon is None:
            named = order.get("with")
            why = (f"does not carry a usable {catalog.card(named)['title']}" if named
                   else "has no usable ranged weapon")
            events.append(_no_shot(state, key, why))
            continue
        legal = [k for k in targets
                 if ranged_block(state, key, *position(state, k), weapon) is None]
        if not legal:
            why = "no enemy in sight and range"
            if order.get("at") in targets:
                why = ranged_block(state, key, *position(state, order["at"]), weapon) or why
            events.append(_no_shot(state, key, why))
            continue
        intended = max(legal, key=lambda k: hit_number(state, key, k, weapon))
        fired.add(key)
        if catalog.card(weapon).get("target") == "area":
            # everyone in the space, friend and foe, each with his own Hit roll
            victims = with_me(state, intended)
            records = [strike(state, rng, events, "fire", key, v, weapon) for v in victims]
            settle_weapon(state, events, [land(state, events, r) for r in records])
        else:
            target = random_target(state, rng, events, key, intended)
            apply(state, events, strike(state, rng, events, "fire", key, target, weapon))
        check_sudden_death(state, events)
    return fired


def choose_weapon(state: State, key: str, named: str | None, targets: list[str]
                  ) -> str | None:
    """Pick Your Weapon: the card named by WITH (None if he does not carry it or cannot
    use it); otherwise the first usable ranged card that reaches one of the targets, or
    the first usable one when none does (so the reason given is about range or sight)."""
    if named is not None:
        return ranged_card(state, key, named)
    weapons = carried_weapons(state, key, "ranged")
    for weapon in weapons:
        if any(ranged_block(state, key, *position(state, k), weapon) is None for k in targets):
            return weapon
    return weapons[0] if weapons else None


def rewind(state: State, events: Events, mover: str, moved: dict[str, dict[str, Any]],
           index: int) -> None:
    """A mover about to die from a shot at step `index` of his path dies there: he is put
    back in that space, cards he picked up further on go back to the ground where they
    lay, and trades he had not yet reached are undone (he never got there)."""
    record = moved[mover]
    c = state["chars"][mover]
    # the trades first: a trade's "before" holds what he had picked up by then, so
    # undoing it after the pickups put the picked cards back in his hands as well as on
    # the ground (a card in two places; found by the revision-4 trades on the way)
    undo_trades(state, events, mover, moved, index)
    for taken in reversed(record.get("pickups", [])):
        if taken["index"] <= index:
            continue
        picked = {id(e) for e in taken["cards"]}
        c["cards"] = [e for e in c["cards"] if id(e) not in picked]
        held = {id(e) for e in c["cards"]}
        for entry in taken["discarded"]:
            state["discard"].remove(entry["card"])
            if id(entry) not in picked and id(entry) not in held:
                c["cards"].append(entry)
        state["ground"][taken["pile"]] = list(taken["cards"])
        events.append(Event("pickup_undone", {"char": mover, "space": taken["pile"]}))
    c["space"], c["down"] = record["steps"][index]


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
    OpFire rating, at most once per target and once per space, only at movers.

    Each FIRE line for a character is one shot's choice (its AT and IN), in the order
    written, as the rulebook's firer picks each shot's target and space in turn (its
    area example: C first, then D in a later space); a line with no shot left to take
    is passed over, and the last line also governs any further shots, so a single line
    covers them all. One weapon for all of them: the first line's."""
    lines: dict[str, list[dict[str, Any]]] = {}
    for order in orders:
        lines.setdefault(order["char"], []).append(order)
    for key, plans in lines.items():
        if state["chars"][key]["status"] != "map":
            continue
        if revision_of(state) < 2:  # rules revision 1: the first line governed every shot
            plans = plans[:1]
        named = plans[0].get("with")
        fit = [w for w in carried_weapons(state, key, "ranged")
               if catalog.card(w)["opfire"] > 0 and named in (None, w)]
        if not fit:
            events.append(_no_shot(state, key, "no weapon fit for opportunity fire" if not named
                                   else f"does not carry a usable "
                                        f"{catalog.card(named)['title']} fit for it"))
            continue
        weapon = fit[0]
        if [k for k in with_me(state, key, other(team)) if k not in moved]:
            events.append(_no_shot(state, key, "an enemy stayed in his space"))
            continue
        _shoot(state, rng, events, team, key, weapon, plans, moved)


def _shoot(state: State, rng: RngBase, events: Events, team: str, key: str, weapon: str,
           plans: list[dict[str, Any]], moved: dict[str, dict[str, Any]]) -> None:
    """One character's opportunity fire, shot by shot (see opfire_phase)."""
    here = state["chars"][key]["space"]
    shot_targets: set[str] = set()
    shot_spaces: set[tuple[str, bool]] = set()
    shots, line = 0, 0
    allowed = catalog.card(weapon)["opfire"] + abilities.value(state, key, "opfire_bonus")
    while shots < allowed and ranged_card(state, key, weapon) == weapon:
        order = plans[min(line, len(plans) - 1)]
        best = None
        for mover, record in moved.items():
            if state["chars"][mover]["status"] != "map" or mover in shot_targets:
                continue
            if state["chars"][mover]["team"] == team or order.get("at") not in (None, mover):
                continue
            for index, (space, down) in enumerate(record["steps"]):
                if (space, down) in shot_spaces or order.get("in") not in (None, space):
                    continue
                if ranged_block(state, key, space, down, weapon) is not None:
                    continue
                number = hit_number(state, key, mover, weapon, here, space, down)
                rank = (number, -index)
                if best is None or rank > best[0]:
                    best = (rank, mover, (space, down))
        line += 1
        if best is None:
            if line < len(plans):
                continue  # this line's shot cannot be taken: the next line's may
            if shots == 0:
                events.append(_no_shot(state, key, "no moving enemy in sight and range"))
            break
        _, mover, (space, down) = best
        shots += 1
        shot_targets.add(mover)
        shot_spaces.add((space, down))
        if catalog.card(weapon).get("target") == "area":
            victims = area_victims(state, moved, space, down)
            records = [strike(state, rng, events, "opfire", key, v, weapon, here, space,
                              down) for v in victims]
            settle_weapon(state, events, [_land_on_path(state, events, r, moved)
                                          for r in records])
        else:
            record = strike(state, rng, events, "opfire", key, mover, weapon, here, space,
                            down)
            settle_weapon(state, events, [_land_on_path(state, events, record, moved)])
        check_sudden_death(state, events)


def _land_on_path(state: State, events: Events, record: dict[str, Any],
                  moved: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Opportunity fire lands where the target was shot: a mover it kills dies in that
    space of his path (and drops his cards there), not where his move ended."""
    target = record["target"]
    if target in moved and record["damage"] >= state["chars"][target]["health"]:
        spot = [record["space"], record["down"]]
        steps = moved[target]["steps"]
        if spot in steps:
            rewind(state, events, target, moved, steps.index(spot))
    return land(state, events, record)
