"""Domes: dismissal and banishment rolls, reinforcements, and the towers' adventures."""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog, challenge, hexmap
from ..state import State, alive, at, chars, on_map, other
from . import abilities
from .combat import Events, eliminate
from .equipment import receive
from .victory import check_sudden_death


def place_in_dome(state: State, rng: RngBase, events: Events, char: str, how: str) -> None:
    """Roll a die and put `char` in an empty dome of that number, else the next number up
    (6 wraps to 1); when every dome is taken, in a dome holding an ally; with none, off
    the map (see below)."""
    team = state["chars"][char]["team"]
    roller = team if how != "banished" else other(team)
    die = rng.die(f"{how}/{char}", 6)
    by_number = sorted(hexmap.domes().items(), key=lambda kv: (kv[1], hexmap.col_row(kv[0])))
    order = [(die - 1 + i) % 6 + 1 for i in range(6)]
    c = state["chars"][char]
    c["space"] = None
    chosen = None
    for number in order:
        empty = [s for s, n in by_number if n == number and not at(state, s)]
        if empty:
            chosen = _placed(state, roller, empty)
            break
    if chosen is None:
        for number in order:
            shared = [s for s, n in by_number if n == number
                      and all(state["chars"][k]["team"] == team for k in at(state, s))]
            if shared:
                chosen = _placed(state, roller, shared)
                break
    c["down"] = False
    if chosen is None:
        # every dome taken, none by allies only: never in with an enemy, and the
        # rulebook says no more, so (designed) he waits off the map for a reinforcement
        c["status"] = "reserve"
    else:
        c["space"], c["status"] = chosen, "map"
    events.append(Event("placed", {"char": char, "how": how, "die": die, "roller": roller,
                                   "space": c["space"]}))


def _placed(state: State, placer: str, domes: list[str]) -> str:
    """Which of the domes of the number rolled the character goes to. Rules revision 4:
    the placer's choice (the character's own team for a dismissal or a reinforcement,
    the enemy for a banishment), by its CHOOSE DOME list, written in advance; the first
    of them otherwise, as every revision before placed him."""
    wanted = state.get("turn_orders", {}).get("domes", {}).get(placer, [])
    return min(domes, key=lambda s: wanted.index(s) if s in wanted else len(wanted))


def reinforce(state: State, rng: RngBase, events: Events, team: str, wanted: list[str]
              ) -> None:
    """Two characters from the reserve each Reinforcement phase: the named ones first."""
    reserve = chars(state, team, "reserve")
    picks = [k for k in wanted if k in reserve]
    picks = list(dict.fromkeys(picks + reserve))[:2]
    for key in picks:
        place_in_dome(state, rng, events, key, "reinforcement")


TOWERS = {
    # level -> (damage, heal, lose cards, then: dismissed | banished | killed)
    "desperation": {"FOPP": (0, 0, False, "killed"), "FAIL": (2, 0, False, "banished"),
                    "SQUEAK": (1, 0, False, "banished"), "PASS": (0, 0, False, "banished"),
                    "AMAZE": (0, 0, False, "dismissed")},
    "vortex": {"FOPP": (1, 0, True, "banished"), "FAIL": (0, 0, False, "banished"),
               "SQUEAK": (0, 1, False, "banished"), "PASS": (0, 2, False, "banished"),
               "AMAZE": (0, 4, False, "banished")},
}


KNOWLEDGE = {"FOPP": (-1, "banished"), "FAIL": (0, "dismissed"), "SQUEAK": (1, "dismissed"),
             "PASS": (2, "dismissed"), "AMAZE": (4, "dismissed")}
"""Tower of Knowledge: how many enemy cards are revealed (-1: all the challenger's own)."""


def _choice(state: State, word: str) -> Any:
    """The waiting team's CHOOSE answer, written in advance (None: not given)."""
    return state.get("turn_orders", {}).get("choose", {}).get(word)


def reveal_cards(state: State, events: Events, team: str, count: int | None) -> None:
    """Turn `count` (None: all) of a team's face-down cards face up, of the team's
    choice: the cards its CHOOSE SHOW order names first, in that order, then by
    character (state.chars' order) and carrying order."""
    hidden = [(key, entry) for key in chars(state, team)
              if state["chars"][key]["status"] != "dead"
              for entry in state["chars"][key]["cards"] if not entry["revealed"]]
    wanted = _choice(state, "show") or []
    hidden.sort(key=lambda ke: wanted.index(ke[1]["card"]) if ke[1]["card"] in wanted
                else len(wanted))
    for key, entry in hidden[:count]:
        entry["revealed"] = True
        events.append(Event("reveal", {"char": key, "card": entry["card"]}))


def _fewest(state: State, keys: list[str]) -> str:
    return min(keys, key=lambda k: (len(state["chars"][k]["cards"]), keys.index(k)))


def _most(state: State, keys: list[str]) -> str:
    return max(keys, key=lambda k: (len(state["chars"][k]["cards"]), -keys.index(k)))


def havoc(state: State, events: Events, key: str, level: str, wish: dict[str, Any]) -> None:
    """The enemy's giver hands all his cards to the receiver (the four-card limit then
    bites). Who chooses depends on the level: the challenger by his HAVOC order, the
    enemy by its CHOOSE GIVER/RECEIVER order; choices not ordered are designed: the
    challenger picks the enemy with the most cards, the enemy the one with the fewest."""
    team = state["chars"][key]["team"]
    enemies = alive(state, other(team))
    if not enemies:
        return  # every enemy is dead: nobody holds cards to give or lose
    if len(enemies) == 1:
        lost = [e["card"] for e in state["chars"][enemies[0]]["cards"]]
        state["discard"] += lost
        state["chars"][enemies[0]]["cards"], state["chars"][enemies[0]]["mount"] = [], None
        events.append(Event("cards_lost_all", {"char": enemies[0], "cards": lost}))
        return
    mine_giver = level in ("PASS", "AMAZE")
    theirs = {"giver": _choice(state, "giver"), "receiver": _choice(state, "receiver")}
    if mine_giver:
        giver = wish["giver"] if wish.get("giver") in enemies else _most(state, enemies)
    else:
        giver = theirs["giver"] if theirs["giver"] in enemies else _fewest(state, enemies)
    rest = [k for k in enemies if k != giver]
    if level == "AMAZE":
        receiver = wish["receiver"] if wish.get("receiver") in rest else _most(state, rest)
    else:
        receiver = theirs["receiver"] if theirs["receiver"] in rest else _fewest(state, rest)
    g, r = state["chars"][giver], state["chars"][receiver]
    moved, g["cards"], g["mount"] = g["cards"], [], None
    r["cards"] += moved
    data: dict[str, Any] = {"giver": giver, "receiver": receiver, "count": len(moved)}
    events.append(Event("havoc", data))
    data["discarded"] = receive(state, events, receiver)


def maneuver(state: State, rng: RngBase, events: Events, key: str, level: str,
             wish: dict[str, Any]) -> None:
    """SQUEAK: an ally is dismissed; PASS/AMAZE: an ally dismissed or an enemy banished.
    Without an order the first other ally on the map is dismissed."""
    team = state["chars"][key]["team"]
    allies = [k for k in on_map(state, team) if k != key]
    enemies = on_map(state, other(team))
    if level != "SQUEAK" and wish.get("banish") in enemies:
        place_in_dome(state, rng, events, wish["banish"], "banished")
        return
    ally = wish.get("dismiss") if wish.get("dismiss") in allies else (allies or [None])[0]
    if ally:
        place_in_dome(state, rng, events, ally, "dismissed")


MANEUVER_THEN = {"FOPP": "outmaneuvered", "FAIL": "banished", "SQUEAK": "banished",
                 "PASS": "banished", "AMAZE": "dismissed"}
HAVOC_THEN = {"FOPP": "banished", "FAIL": "banished", "SQUEAK": "dismissed",
              "PASS": "dismissed", "AMAZE": "dismissed"}


def adventure(state: State, rng: RngBase, events: Events, team: str,
              wishes: dict[str, dict[str, Any]] | None = None) -> None:
    """Each character of the team standing in a tower must challenge it (before rules
    revision 4 every tower is taken this way, in the towers' order, before any
    labyrinth; see labyrinth.adventures for revision 4)."""
    wishes = wishes or {}
    for space, kind in sorted(hexmap.towers().items()):
        for key in at(state, space, team):
            tower(state, rng, events, key, space, kind, wishes.get(key, {}))


def tower(state: State, rng: RngBase, events: Events, key: str, space: str, kind: str,
          wish: dict[str, Any]) -> None:
    """One character challenges the tower he stands in."""
    team = state["chars"][key]["team"]
    me = catalog.character(key)
    bonus = abilities.value(state, key, "tower_bonus")  # never the age bonus
    if kind in ("havoc", "maneuver"):
        against = "green" if kind == "havoc" else "blue"
        number = challenge.challenge_number(me["strength"], against, bonus)
        result = challenge.roll(rng, f"tower/{key}", number)
        level = result["level"]
        then = (HAVOC_THEN if kind == "havoc" else MANEUVER_THEN)[level]
        events.append(Event("tower", {"char": key, "tower": kind,
                                      "rating": "strength", **result, "damage": 0,
                                      "heal": 0, "then": then}))
        c = state["chars"][key]
        if kind == "havoc" and level == "FOPP":
            state["discard"] += [e["card"] for e in c["cards"]]
            events.append(Event("cards_lost_all", {
                "char": key, "cards": [e["card"] for e in c["cards"]]}))
            c["cards"], c["mount"] = [], None
        elif kind == "havoc" and level != "FAIL":
            havoc(state, events, key, level, wish)
        elif kind == "maneuver" and level in ("SQUEAK", "PASS", "AMAZE"):
            maneuver(state, rng, events, key, level, wish)
        if then == "outmaneuvered":
            # the enemy picks the empty dome (CHOOSE DOME), else the lowest one
            c["space"] = None
            empty = sorted((n, s) for s, n in hexmap.domes().items()
                           if not at(state, s))
            chosen = _choice(state, "dome")
            free = [s for _, s in empty]
            for dome in state.get("turn_orders", {}).get("domes", {}).get(other(team), []):
                if dome in free:  # revision 4: the first empty one of the enemy's list
                    chosen = dome
                    break
            c["space"] = chosen if chosen in free else (empty[0][1] if empty else space)
            c["down"] = False
            events.append(Event("placed", {"char": key, "how": "outmaneuvered",
                                           "die": 0, "roller": other(team),
                                           "space": c["space"]}))
        else:
            place_in_dome(state, rng, events, key, then)
        return
    if kind == "knowledge":
        number = challenge.challenge_number(me["wits"], "blue", bonus)
        result = challenge.roll(rng, f"tower/{key}", number)
        shown, then = KNOWLEDGE[result["level"]]
        events.append(Event("tower", {"char": key, "tower": kind, "rating": "wits",
                                      **result, "damage": 0, "heal": 0,
                                      "then": then}))
        if shown < 0:
            for entry in state["chars"][key]["cards"]:
                if not entry["revealed"]:
                    entry["revealed"] = True
                    events.append(Event("reveal", {"char": key,
                                                   "card": entry["card"]}))
        else:
            reveal_cards(state, events, other(team), shown)
        place_in_dome(state, rng, events, key, then)
        return
    if kind == "desperation":
        number = challenge.challenge_number(me["wits"], "green", bonus)
        rating = "wits"
    else:
        rating = max(("strength", "wits"),
                     key=lambda r: catalog.colour_value(me[r]))
        number = challenge.challenge_number(me[rating], "yellow", bonus)
    result = challenge.roll(rng, f"tower/{key}", number)
    damage, heal, lose, then = TOWERS[kind][result["level"]]
    c = state["chars"][key]
    healed = min(me["health"], c["health"] + heal) - c["health"]
    c["health"] = max(0, c["health"] + healed - damage)
    events.append(Event("tower", {"char": key, "tower": kind, "rating": rating,
                                  **result, "damage": damage, "heal": healed,
                                  "then": then}))
    if lose:
        state["discard"] += [e["card"] for e in c["cards"]]
        events.append(Event("cards_lost_all", {"char": key,
                                               "cards": [e["card"] for e in c["cards"]]}))
        c["cards"], c["mount"] = [], None
    if then == "killed" or c["health"] == 0:
        eliminate(state, events, key)
    else:
        place_in_dome(state, rng, events, key, then)
    check_sudden_death(state, events)
