"""One team's turn, phase by phase, then the end-of-turn victory check."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.orders import merge_standing
from games.core.rng import RngBase
from games.core.types import Event, Orders

from .. import catalog, hexmap, pieces
from ..state import SEATS, State, alive, on_map, other, with_me
from . import abilities, build, labyrinth, victory
from .combat import Events, lose_card, reveal
from .domes import adventure, reinforce
from .equipment import receive, set_turn_orders
from .fire import condition_holds, fire_phase, opfire_phase
from .melee import melee_phase
from .movement import move_phase


def setup(seats: list[str], options: dict[str, Any], rng: RngBase) -> tuple[State, Events]:
    """Deal each team its characters and each character one equipment card."""
    size = options["team_size"]
    roster = rng.shuffle("deal/characters", sorted(catalog.characters()))
    deck = rng.shuffle("deal/equipment", sorted(catalog.equipment()))
    state: State = {"active": SEATS[0], "round": 1, "rounds": options["rounds"],
                    "limit": options.get("limit", "rounds"), "turns": 0,
                    "clock_turns": options.get("hours", 3) * 60 // MINUTES_PER_TURN,
                    "chars": {}, "deck": [], "discard": [], "ground": {},
                    "standing": {s: [] for s in SEATS}, "over": False, "winner": None,
                    "summary": ""}
    events: Events = []
    for i, seat in enumerate(SEATS):
        team = roster[i * size:(i + 1) * size]
        for key in team:
            state["chars"][key] = {"team": seat, "status": "reserve", "space": None,
                                   "down": False,
                                   "health": catalog.character(key)["health"], "cards": []}
            if options.get("starting_card", True):
                card = deck.pop(0)
                state["chars"][key]["cards"].append({"card": card, "revealed": False})
                events.append(Event("dealt_card", {"char": key, "card": card}, (seat,)))
        # dealt face down: a team sees its own; all are shown when the map is built
        events.append(Event("team", {"team": seat, "chars": team}, (seat,)))
    state["deck"] = deck
    kind = options.get("map", "skirmish")
    if kind == "build":
        build.start(state)
    elif kind == "standard":
        state["map"] = pieces.standard()
    with hexmap.using(state.get("map")):
        labyrinth.setup(state, rng, revision_of(options))
    if kind != "build":
        build.reveal(state, events)
    return state, events


def _items(state: State, seat: str, orders: Orders | None) -> list[dict[str, Any]]:
    """This turn's items: new orders, then the standing ones (stored back in state)."""
    kept, turn = merge_standing(state["standing"][seat], orders.items if orders else [])
    state["standing"][seat] = kept
    return turn


def _plain(items: list[dict[str, Any]], ops: set[str]) -> list[dict[str, Any]]:
    return [i["order"] for i in items if "order" in i and i["order"]["op"] in ops]


def _conditional(state: State, items: list[dict[str, Any]], ops: set[str],
                 moved: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Plain orders of the given kinds, and the THEN or ELSE of each conditional one.

    A THEN order inherits its condition's space (IN) and enemy (AT) when it names none,
    so `IF ENEMY ENTERS F5 THEN FIRE TAMSIN` shoots at F5."""
    out = []
    for item in items:
        if "order" in item:
            if item["order"]["op"] in ops:
                out.append(item["order"])
            continue
        if "if" not in item:
            continue
        cond, then = item["if"], item["then"]
        if condition_holds(state, cond, moved, then.get("char")):
            order = dict(then)
            if cond.get("where") not in (None, "LOS"):
                order.setdefault("in", cond["where"])
            if cond.get("who") not in (None, "ENEMY"):
                order.setdefault("at", cond["who"])
        else:
            order = item.get("else")
        if order is not None and order["op"] in ops:
            out.append(order)
    return out


def play_turn(state: State, orders: dict[str, Orders], rng: RngBase) -> Events:
    team = state["active"]
    waiting = other(team)
    events: Events = [Event("turn", {"round": state["round"], "team": team})]
    state["turns"] = state.get("turns", 0) + 1
    items = {seat: _items(state, seat, orders.get(seat)) for seat in SEATS}
    for seat in SEATS:
        if any(i.get("order", {}).get("op") == "surrender" for i in items[seat]):
            finish(state, events, other(seat), f"{seat} surrendered")
            return events
    try:
        set_turn_orders(state, _plain(items[team], {"discard", "destroy"})
                        + _plain(items[waiting], {"discard", "choose"}))
        if revision_of(state) >= 4:  # each team's domes, for the placements it makes
            state["turn_orders"]["domes"] = {
                seat: [d for o in _plain(items[seat], {"choose"})
                       for d in o.get("domes", [o["dome"]] if "dome" in o else [])]
                for seat in SEATS}
        free_actions(state, events, team,
                     _plain(items[team], {"destroy", "heal", "ride", "dismount", "use"}))
        fired = fire_phase(state, rng, events, team, _plain(items[team], {"fire"}))
        moved = move_phase(state, events, team, _plain(items[team], {"move"}), fired,
                           _plain(items[team], {"trade"}))
        if moved:
            opfire_phase(state, rng, events, waiting,
                         _conditional(state, items[waiting], {"fire"}, moved), moved)
        melee_phase(state, rng, events, team,
                    {seat: _conditional(state, items[seat], {"melee", "hold"}, moved)
                     for seat in (team, waiting)})
        if revision_of(state) >= 4:  # in the order the team writes
            labyrinth.adventures(state, rng, events, team, _plain(
                items[team], {"challenge", "mercy", "havoc", "maneuver"}))
        else:  # the towers, then the labyrinths
            wishes: dict[str, dict[str, Any]] = {}
            for order in _plain(items[team], {"havoc", "maneuver"}):
                wishes.setdefault(order["char"], order)
            adventure(state, rng, events, team, wishes)
            labyrinth.adventure(state, rng, events, team,
                                _plain(items[team], {"challenge", "mercy"}))
        reinforce(state, rng, events, team, [o["char"] for o in _plain(items[team], {"reinforce"})])
    except victory.GameOver:
        return events
    finally:
        state.pop("turn_orders", None)
    check_end(state, events)
    if not state["over"]:
        if team == SEATS[1]:
            state["round"] += 1
        state["active"] = waiting
    return events


def free_actions(state: State, events: Events, team: str, orders: list[dict[str, Any]]
                 ) -> None:
    """The Free Action phase: the medic and regenerate abilities, then the orders:
    destroying a carried card (a DESTROY for a card not carried waits for the moment he
    receives it), one medical card per character, showing a gadget (USE), choosing or
    leaving a mount."""
    healing_abilities(state, events, team)
    healed: set[str] = set()
    for order in orders:
        key = order["char"]
        c = state["chars"][key]
        if c["status"] == "dead":
            continue
        if order["op"] == "destroy":
            if any(e["card"] == order["card"] for e in c["cards"]):
                state["turn_orders"]["destroy"][key].remove(order["card"])
                lose_card(state, events, key, order["card"], "destroyed")
                receive(state, events, key)  # a pack destroyed: the limit bites again
        elif order["op"] == "use":
            card = _usable(state, key, "gadget", order.get("with"))
            if card:
                reveal(state, events, key, card)
        elif order["op"] == "heal" and key not in healed:
            card = _usable(state, key, "medical", order.get("with"))
            wound = catalog.character(key)["health"] - c["health"]
            if card and wound > 0:
                healed.add(key)
                reveal(state, events, key, card)
                gain = min(wound, catalog.card(card)["heal"])
                c["health"] += gain
                events.append(Event("healed", {"char": key, "card": card, "health": gain}))
                lose_card(state, events, key, card, "used up")
        elif order["op"] == "ride":
            card = _usable(state, key, "mount", order.get("with"))
            if card:
                reveal(state, events, key, card)
                c["mount"] = card
                events.append(Event("mount", {"char": key, "card": card}))
        elif order["op"] == "dismount" and c.get("mount"):
            events.append(Event("mount", {"char": key, "card": None}))
            c["mount"] = None


def healing_abilities(state: State, events: Events, team: str) -> None:
    """Free healing at the start of the team's turn: regenerate heals the character
    himself, medic heals each wounded team-mate sharing his space (not himself)."""
    for key in on_map(state, team):
        c = state["chars"][key]
        gains = abilities.value(state, key, "regenerate")
        gains += sum(abilities.value(state, k, "medic") for k in with_me(state, key, team)
                     if k != key)
        gain = min(gains, catalog.character(key)["health"] - c["health"])
        if gain > 0:
            c["health"] += gain
            events.append(Event("healed", {"char": key, "card": None, "health": gain,
                                           "source": "ability"}))


def _usable(state: State, key: str, kind: str, wanted: str | None) -> str | None:
    for entry in state["chars"][key]["cards"]:
        card = entry["card"]
        if catalog.card(card)["kind"] == kind and wanted in (None, card) \
                and catalog.can_use(key, card):
            return card
    return None


MINUTES_PER_TURN = 10
"""Designed pace for the clock variant: a team turn by mail stands for ten minutes at the
table (the rulebook's tournament timing allows two for fire and move alone)."""


def time_is_up(state: State) -> tuple[bool, bool]:
    """(the points count now, sudden death has run its course). Rounds: after Black's
    turn of the last round. Clock: the clock rings during team turn `clock_turns`; that
    team finishes it and the other team has one more turn. Battle: never."""
    limit = state.get("limit", "rounds")
    if limit == "battle":
        return False, False
    if limit == "clock":
        last = state["clock_turns"] + 1
        return state["turns"] >= last, state["turns"] >= last + 6
    end_of_round = state["active"] == SEATS[1]
    past = state["round"] > state["rounds"] or (end_of_round and state["round"] == state["rounds"])
    return past, end_of_round and state["round"] >= state["rounds"] + 3


def check_end(state: State, events: Events) -> None:
    """Elimination ends the game at once. After the last round the points count: one for
    more characters alive, one per labyrinth led; a tie starts sudden death, which ends
    the moment the tie is broken (checked after every shot and adventure), and after
    three more rounds (six team turns on the clock) a tie is a draw; the battle variant
    ends only by elimination or surrender."""
    counts = {seat: len(alive(state, seat)) for seat in SEATS}
    if not all(counts.values()):
        standing = [s for s in SEATS if counts[s]]
        if standing:
            finish(state, events, standing[0], f"{other(standing[0])} has no one left")
        else:
            finish(state, events, None, "both teams are wiped out")
        return
    past, exhausted = time_is_up(state)
    if not past:
        return
    points, counts = victory.score(state)
    white, black = points[SEATS[0]], points[SEATS[1]]
    if white != black:
        finish(state, events, SEATS[0] if white > black else SEATS[1],
               f"time: {victory.detail(points, counts)}")
    elif exhausted:
        finish(state, events, None, f"time: still {victory.detail(points, counts)} "
                                    f"after sudden death")
    elif not state.get("sudden_death"):
        state["sudden_death"] = True
        events.append(Event("sudden_death", {"detail": victory.detail(points, counts)}))


finish = victory.finish
