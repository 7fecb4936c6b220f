"""One combat turn, phase by phase: (yield, spells,) roll, initiative, maneuver, attack,
damage.

`begin` runs up to the maneuver phase. If the initiative winner's reroll is settled
by orders (or the game does not ask), `finish` runs the rest at once; otherwise the
turn is parked in `state["pending"]` and `finish` runs when the choice arrives. The
parked turn, an "exchange", carries everything thrown so far, so nothing is rerolled
by accident and a replay draws the same dice.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.orders import merge_standing
from games.core.rng import RngBase
from games.core.types import Event, Orders

from .. import catalog
from ..orders import (
    GRAMMAR,
    ROLL_OPS,
    condition_values,
    first_order,
    weapon_ok,
)
from ..state import default_weapon, foe, status
from . import criticals, spells
from .scores import gear, recovers, rolled_maneuver, scores, throw

State = dict[str, Any]


# -- orders --------------------------------------------------------------------
def take_orders(state: State, orders: dict[str, Orders], events: list[Event]
                ) -> dict[str, list[dict[str, Any]]]:
    """Fold each seat's new orders into its standing list; return this turn's items."""
    items: dict[str, list[dict[str, Any]]] = {}
    for seat in state["seats"]:
        fighter = state["fighters"][seat]
        given = orders[seat].items if seat in orders else []
        kept, now = merge_standing(fighter["standing"], given)
        if kept != fighter["standing"]:
            events.append(Event("standing", {"seat": seat, "orders": [
                GRAMMAR.render(i) for i in kept]}, (seat,)))
        fighter["standing"] = kept
        items[seat] = now
    return items


# -- the turn ------------------------------------------------------------------
def begin(state: State, orders: dict[str, Orders], rng: RngBase
          ) -> tuple[State, list[Event]]:
    """Start combat turn N+1: yields, weapons, the combat roll, initiative, maneuver."""
    s = clone(state)
    s["turn"] += 1
    turn = s["turn"]
    events: list[Event] = [Event("turn", {"turn": turn})]
    items = take_orders(s, orders, events)
    before = {seat: condition_values(s, seat, None) for seat in s["seats"]}

    yielders = [seat for seat in s["seats"]
                if first_order(items[seat], ("yield",), before[seat])[0]]
    if yielders:
        for seat in yielders:
            events.append(Event("yield", {"seat": seat}))
        standing = [seat for seat in s["seats"] if seat not in yielders]
        end(s, events, standing, "yield")
        return s, events

    ex: dict[str, Any] = {"turn": turn, "weapons": {}, "stunned": {}, "entangled": {},
                          "rolls": {}, "scores": {}, "first": None, "chooser": None,
                          "boost": {seat: {} for seat in s["seats"]},
                          "dazzled": dict.fromkeys(s["seats"], 0)}
    spells.cast_phase(s, ex, items, before, rng, events)
    for seat in s["seats"]:
        fighter = s["fighters"][seat]
        fx = fighter["effects"]
        ex["stunned"][seat], fx["stun_next"] = fx["stun_next"], 0
        ex["entangled"][seat], fx["entangled_next"] = fx["entangled_next"], False
        order, _ = first_order(items[seat], ("wield",), before[seat],
                               accept=weapon_ok(fighter, turn))
        ex["weapons"][seat] = order["weapon"] if order else default_weapon(fighter, turn).id

    for seat in s["seats"]:
        fighter = s["fighters"][seat]
        dice = throw(rng, f"roll/{seat}", fighter, _lost_dice(ex, seat))
        ex["rolls"][seat] = dice
        first = scores(fighter, ex["weapons"][seat], dice, ex["entangled"][seat],
                       _boost(ex, seat))
        shaken = recovers(fighter, dice)
        for key in shaken:
            fighter["effects"][key] = False
        if shaken:
            first = scores(fighter, ex["weapons"][seat], dice, ex["entangled"][seat],
                           _boost(ex, seat))
        ex["scores"][seat] = first
        events.append(Event("roll", {
            "seat": seat, "weapon": ex["weapons"][seat], "dice": dice, "scores": first,
            "stunned": ex["stunned"][seat], "entangled": ex["entangled"][seat],
            "dazzled": _dazzled(ex, seat), "boost": _boost(ex, seat),
            "recovered": shaken, "rolled_maneuver": rolled_maneuver(dice),
            "gear": [i.id for i in gear(fighter, ex["weapons"][seat])],
            "slung": catalog.ALL_ITEMS[ex["weapons"][seat]].hands == 2
            and any(catalog.ITEMS[i].kind == "shield" for i in fighter["items"])}))

    a, b = s["seats"]
    ia, ib = ex["scores"][a]["initiative"], ex["scores"][b]["initiative"]
    ex["first"] = None if ia == ib else (a if ia > ib else b)
    events.append(Event("initiative", {"first": ex["first"], "scores": {a: ia, b: ib}}))

    first = ex["first"]
    if first is not None and ex["scores"][first]["maneuver"] > \
            ex["scores"][foe(s, first)]["maneuver"]:
        ex["chooser"] = first
        values = condition_values(s, first, ex["scores"])
        order, item = first_order(items[first], ROLL_OPS, values)
        if order is None and s["options"]["reroll"] == "ask":
            s["pending"] = ex
            s["phase"] = "reroll"
            events.append(Event("maneuver", {"seat": first, "choice": "asked",
                                             "maneuvers": _maneuvers(ex)}))
            return s, events
        choice = order["op"] if order else "keep"
        events.append(Event("maneuver", {
            "seat": first, "choice": choice, "maneuvers": _maneuvers(ex),
            "because": GRAMMAR.render(item) if item else "no order called for a reroll"}))
        finish(s, ex, choice == "reroll", rng, events)
    else:
        events.append(Event("maneuver", {"seat": None, "choice": None,
                                         "maneuvers": _maneuvers(ex)}))
        finish(s, ex, False, rng, events)
    return s, events


def answer(state: State, orders: dict[str, Orders], rng: RngBase
           ) -> tuple[State, list[Event]]:
    """The paused turn resumes with the initiative winner's REROLL or KEEP."""
    s = clone(state)
    ex, s["pending"] = s["pending"], None
    s["phase"] = "fight"
    seat = ex["chooser"]
    given = orders.get(seat)
    choice = given.items[0]["order"]["op"] if given and given.items else "keep"
    events: list[Event] = [Event("maneuver", {
        "seat": seat, "choice": choice, "maneuvers": _maneuvers(ex),
        "because": "the answer to the paused turn" if given and not given.default
        else "no answer came, so the roll stands"})]
    finish(s, ex, choice == "reroll", rng, events)
    return s, events


def _dazzled(ex: dict[str, Any], seat: str) -> int:
    """Basic dice a foe's spell takes this turn (a turn paused before spells existed
    has no such entry)."""
    return ex.get("dazzled", {}).get(seat, 0)


def _lost_dice(ex: dict[str, Any], seat: str) -> int:
    """Basic dice lost this turn only: stuns from last turn plus a foe's dazzle."""
    return ex["stunned"][seat] + _dazzled(ex, seat)


def _boost(ex: dict[str, Any], seat: str) -> dict[str, int]:
    """Score modifiers from the seat's own spell this turn."""
    return ex.get("boost", {}).get(seat, {})


def _maneuvers(ex: dict[str, Any]) -> dict[str, int]:
    return {seat: sc["maneuver"] for seat, sc in ex["scores"].items()}


def finish(s: State, ex: dict[str, Any], reroll: bool, rng: RngBase,
           events: list[Event]) -> None:
    """Reroll if chosen, then blows in initiative order, bleeding, and the end check."""
    turn = ex["turn"]
    if reroll:
        seat = ex["chooser"]
        fighter = s["fighters"][seat]
        dice = throw(rng, f"reroll/{seat}", fighter, _lost_dice(ex, seat))
        fresh = scores(fighter, ex["weapons"][seat], dice, ex["entangled"][seat],
                       _boost(ex, seat))
        kept = ex["scores"][seat]
        # Only attack and damage phases see the new roll: initiative and maneuver stand.
        ex["scores"][seat] = {**fresh, "initiative": kept["initiative"],
                              "maneuver": kept["maneuver"]}
        events.append(Event("reroll", {"seat": seat, "dice": dice,
                                       "scores": ex["scores"][seat]}))

    a, b = s["seats"]
    order = [a, b] if ex["first"] is None else [ex["first"], foe(s, ex["first"])]
    bound: set[str] = {seat for seat in s["seats"] if ex["entangled"][seat]}
    for attacker in order:
        defender = foe(s, attacker)
        if ex["first"] is not None and attacker != ex["first"] and \
                s["fighters"][attacker]["hp"] <= 0:
            events.append(Event("strike", {"attacker": attacker, "defender": defender,
                                           "skipped": "down"}))
            continue
        strike(s, ex, attacker, defender, bound, rng, events)

    for seat in s["seats"]:
        bleed(s, seat, turn, events)

    down = [seat for seat in s["seats"] if s["fighters"][seat]["hp"] <= 0]
    events.append(Event("end-turn", {"turn": turn, "fighters": {
        seat: {"hp": f["hp"], "max_hp": f["max_hp"], "status": status(f["hp"]),
               "conditions": criticals.conditions(f["effects"])
               + spells.conditions(s, seat, turn + 1)}
        for seat, f in s["fighters"].items()}}))
    s["last"] = {"turn": turn, "weapons": ex["weapons"], "rolls": ex["rolls"],
                 "scores": ex["scores"], "first": ex["first"]}
    if down:
        end(s, events, [seat for seat in s["seats"] if seat not in down], "down")
    elif turn >= s["options"]["max_turns"]:
        end(s, events, [], "time")


def strike(s: State, ex: dict[str, Any], attacker: str, defender: str, bound: set[str],
           rng: RngBase, events: list[Event]) -> None:
    """One blow: attack against dodge, then damage against armour, then the damage dice."""
    att, dfn = ex["scores"][attacker], ex["scores"][defender]
    weapon = catalog.ALL_ITEMS[ex["weapons"][attacker]]
    data: dict[str, Any] = {"attacker": attacker, "defender": defender,
                            "weapon": weapon.id, "attack": att["attack"],
                            "dodge": dfn["dodge"]}
    if attacker in bound:
        data["skipped"] = "netted"
        events.append(Event("strike", data))
        return
    data["hit"] = att["attack"] > dfn["dodge"]
    target = s["fighters"][defender]
    if data["hit"] and weapon.entangle:
        target["effects"]["entangled_next"] = True
        data["netted"] = True
        if ex["first"] == attacker:
            bound.add(defender)  # struck first: the target's own blow never comes
        events.append(Event("strike", data))
        return
    if data["hit"]:
        data["damage"], data["armor"] = att["damage"], dfn["armor"]
        lost = max(0, att["damage"] - dfn["armor"])  # not above armour: no damage
        target["hp"] -= lost
        data["lost"], data["hp"] = lost, target["hp"]
    events.append(Event("strike", data))
    if data.get("lost") and s["options"].get("damage_dice", "on") == "on":
        for note in criticals.roll(rng, f"critical/{attacker}", target["effects"], ex["turn"]):
            events.append(Event("critical", {"attacker": attacker, "defender": defender,
                                             **note}))


def bleed(s: State, seat: str, turn: int, events: list[Event]) -> None:
    """Wounds from earlier turns each cost one hit point; each runs down by a turn."""
    fighter = s["fighters"][seat]
    wounds = fighter["effects"]["bleeding"]
    old = [w for w in wounds if w["since"] < turn]
    if not old:
        return
    fighter["hp"] -= len(old)
    for w in old:
        w["turns"] -= 1
    fighter["effects"]["bleeding"] = [w for w in wounds if w["turns"] > 0]
    events.append(Event("bleed", {"seat": seat, "lost": len(old), "hp": fighter["hp"]}))


def end(s: State, events: list[Event], winners: list[str], how: str) -> None:
    """The fight is over: record who stands, who fell and how."""
    fell = {seat: status(f["hp"]) for seat, f in s["fighters"].items()}
    if how == "yield":
        for seat in s["seats"]:
            if seat not in winners:
                fell[seat] = "yielded"
    if how == "time":
        summary = f"the fight is broken off after {s['turn']} turns: a draw"
    elif winners:
        loser = foe(s, winners[0])
        summary = f"{winners[0]} wins: {loser} {fell[loser]}"
    else:
        summary = "both fall: a draw" if how == "down" else "both yield: a draw"
    s["phase"] = "over"
    s["pending"] = None
    s["result"] = {"winners": winners, "outcome": how, "status": fell, "summary": summary}
    events.append(Event("over", dict(s["result"])))
