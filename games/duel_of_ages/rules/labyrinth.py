"""Labyrinths: guardian decks, guardian positions, challenges, chain reactions, begging
for mercy, and the victory points they are worth."""

from __future__ import annotations

from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog, challenge, hexmap
from ..state import SEATS, State
from . import abilities
from .combat import Events
from .domes import place_in_dome
from .equipment import receive
from .victory import check_sudden_death


def setup(state: State, rng: RngBase) -> None:
    """Each labyrinth's guardians shuffled face down; both teams on the red eye (once
    the labyrinth is on the map: see place_markers)."""
    state["labyrinths"] = {}
    for age in catalog.AGES:
        deck = sorted(k for k, g in catalog.guardians().items() if g["age"] == age)
        state["labyrinths"][age] = {"deck": rng.shuffle(f"guardians/{age}", deck),
                                    "face_up": False, "positions": {}}
    place_markers(state)


def place_markers(state: State) -> None:
    """A Team White and a Team Black marker on each labyrinth's red eye."""
    for age, spaces in hexmap.labyrinths().items():
        state["labyrinths"][age]["positions"] = {seat: len(spaces) - 1 for seat in SEATS}


def guardian_space(state: State, age: str, team: str) -> str:
    return hexmap.labyrinths()[age][state["labyrinths"][age]["positions"][team]]


def draw(state: State, events: Events, char: str, count: int) -> None:
    """Cards come face down from the deck (none when it is empty), then the carrying
    limit (see receive)."""
    c = state["chars"][char]
    got = []
    for _ in range(count):
        if state["deck"]:
            got.append(state["deck"].pop(0))
    c["cards"] += [{"card": k, "revealed": False} for k in got]
    data: dict[str, Any] = {"char": char, "count": len(got)}
    events.append(Event("draw", data))
    events.append(Event("draw_cards", {"char": char, "cards": got}, (c["team"],)))
    data["discarded"] = receive(state, events, char)


def challenge_guardian(state: State, rng: RngBase, events: Events, char: str, age: str
                       ) -> None:
    lab = state["labyrinths"][age]
    team = state["chars"][char]["team"]
    key = lab["deck"][0]
    lab["face_up"] = True
    guardian = catalog.guardians()[key]
    me = catalog.character(char)
    bonus = (1 if me["age"] == age else 0) + abilities.value(state, char, "guardian_bonus")
    number = challenge.challenge_number(me[guardian["rating"]], guardian["against"], bonus)
    result = challenge.roll(rng, f"guardian/{char}", number)
    events.append(Event("guardian", {"char": char, "age": age, "guardian": key,
                                     "bonus": bonus, **result,
                                     "results": guardian[result["level"]]}))
    for effect in guardian[result["level"]]:
        if effect == "defeated":
            lab["deck"] = lab["deck"][1:] + [key]
            lab["face_up"] = False
            lab["positions"][team] = max(0, lab["positions"][team] - 1)
            events.append(Event("guardian_defeated", {"age": age, "guardian": key,
                                                      "team": team,
                                                      "space": guardian_space(state, age,
                                                                              team)}))
        elif effect.startswith("heal"):
            c = state["chars"][char]
            gain = min(int(effect.split()[1]), me["health"] - c["health"])
            c["health"] += gain
            events.append(Event("healed", {"char": char, "card": None, "health": gain}))
        elif effect.startswith("draw"):
            draw(state, events, char, int(effect.split()[1]))
        elif effect == "lose":
            c = state["chars"][char]
            state["discard"] += [e["card"] for e in c["cards"]]
            events.append(Event("cards_lost_all", {"char": char,
                                                   "cards": [e["card"] for e in c["cards"]]}))
            c["cards"], c["mount"] = [], None
        else:
            place_in_dome(state, rng, events, char, effect)


def adventure(state: State, rng: RngBase, events: Events, team: str,
              orders: list[dict[str, Any]]) -> None:
    """CHALLENGE orders are tried again after every challenge, so a guardian position
    that moves under (or stays with) another ready character lets him go next."""
    done: set[str] = set()
    progress = True
    while progress:
        progress = False
        for order in orders:
            key = order["char"]
            c = state["chars"][key]
            if key in done or c["status"] != "map" or c.get("down"):
                continue
            for age in hexmap.labyrinths():
                spaces = hexmap.labyrinths()[age]
                if order["op"] == "mercy" and c["space"] == spaces[-1]:
                    done.add(key)
                    lab = state["labyrinths"][age]
                    events.append(Event("mercy", {"char": key, "age": age,
                                                  "guardian": lab["deck"][0]
                                                  if lab["face_up"] else None}))
                    lab["deck"] = lab["deck"][1:] + lab["deck"][:1]
                    lab["face_up"] = False
                    place_in_dome(state, rng, events, key, "dismissed")
                    progress = True
                    break
                if order["op"] == "challenge" and c["space"] == guardian_space(state, age, team):
                    done.add(key)
                    challenge_guardian(state, rng, events, key, age)
                    check_sudden_death(state, events)
                    progress = True
                    break
