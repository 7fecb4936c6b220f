"""Labyrinths: guardian decks, guardian positions, challenges, chain reactions, begging
for mercy, and the victory points they are worth."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog, challenge, hexmap
from ..state import SEATS, State, at
from . import abilities
from .combat import Events
from .domes import place_in_dome, tower
from .equipment import receive
from .victory import check_sudden_death


def setup(state: State, rng: RngBase, revision: int = 1) -> None:
    """Each labyrinth's guardians shuffled face down; both teams on the red eye (once
    the labyrinth is on the map: see place_markers). From rules revision 4 a labyrinth
    also lists the guardians lying face up in its deck (`shown`, sorted)."""
    state["labyrinths"] = {}
    for age in catalog.AGES:
        deck = sorted(k for k, g in catalog.guardians().items() if g["age"] == age)
        state["labyrinths"][age] = {"deck": rng.shuffle(f"guardians/{age}", deck),
                                    "face_up": False, "positions": {}}
        if revision >= 4:
            state["labyrinths"][age]["shown"] = []
    place_markers(state)


def tracks_faces(state: State) -> bool:
    """Rules revision 4: a guardian once turned face up stays face up wherever it lies
    in its deck, so it is face up again when the deck comes round to it. Before, only
    the top card's face was kept, and a card put under the deck was face down."""
    return revision_of(state) >= 4


def turn_up(lab: dict[str, Any]) -> None:
    """The top guardian is turned face up (if it is not already)."""
    lab["face_up"] = True
    if "shown" in lab and lab["deck"][0] not in lab["shown"]:
        lab["shown"] = sorted(lab["shown"] + [lab["deck"][0]])


def put_under(state: State, lab: dict[str, Any]) -> None:
    """The top guardian goes to the bottom of its deck. It keeps its face (revision 4):
    the next one is face up if it was turned up before; before revision 4 the next one
    was always taken as face down."""
    lab["deck"] = lab["deck"][1:] + lab["deck"][:1]
    lab["face_up"] = tracks_faces(state) and lab["deck"][0] in lab.get("shown", [])


def faces(lab: dict[str, Any]) -> list[str | None]:
    """The deck from the top as everyone sees it: a face-up guardian by name, a face-down
    one as None."""
    shown = set(lab.get("shown", []))
    return [key if (i == 0 and lab["face_up"]) or key in shown else None
            for i, key in enumerate(lab["deck"])]


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
    revealed = not lab["face_up"]
    turn_up(lab)
    guardian = catalog.guardians()[key]
    me = catalog.character(char)
    bonus = (1 if me["age"] == age else 0) + abilities.value(state, char, "guardian_bonus")
    number = challenge.challenge_number(me[guardian["rating"]], guardian["against"], bonus)
    result = challenge.roll(rng, f"guardian/{char}", number)
    events.append(Event("guardian", {"char": char, "age": age, "guardian": key,
                                     "bonus": bonus, **result,
                                     **({"revealed": revealed} if tracks_faces(state)
                                        else {}),
                                     "results": guardian[result["level"]]}))
    for effect in guardian[result["level"]]:
        if effect == "defeated":
            put_under(state, lab)
            lab["positions"][team] = max(0, lab["positions"][team] - 1)
            events.append(Event("guardian_defeated", {
                "age": age, "guardian": key, "team": team,
                "space": guardian_space(state, age, team),
                **({"next": faces(lab)[0]} if tracks_faces(state) else {})}))
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
                    beg_for_mercy(state, rng, events, key, age)
                    progress = True
                    break
                if order["op"] == "challenge" and c["space"] == guardian_space(state, age, team):
                    done.add(key)
                    challenge_guardian(state, rng, events, key, age)
                    check_sudden_death(state, events)
                    progress = True
                    break


def adventures(state: State, rng: RngBase, events: Events, team: str,
               orders: list[dict[str, Any]]) -> None:
    """The Adventure phase of rules revision 4, in the order the team decides: each
    character at the place of his first CHALLENGE, MERCY, HAVOC or MANEUVER line, then
    any character standing in a tower that no line names (towers in their order).

    When his turn comes a character in a tower challenges it (he must; HAVOC and
    MANEUVER carry his choices); one on his team's guardian position with a CHALLENGE
    line challenges the guardian; one on a red eye with a MERCY line begs for mercy (the
    first of his lines that applies). After every guardian challenge, a team-mate with a
    CHALLENGE line who now stands on the team's guardian position of that labyrinth
    (moved under him, or not moved from his space) challenges at once, before the rest:
    the chain reaction. A character adventures once a phase."""
    wishes: dict[str, dict[str, Any]] = {}
    asks: dict[str, list[str]] = {}
    for order in orders:
        if order["op"] in ("havoc", "maneuver"):
            wishes.setdefault(order["char"], order)
        else:
            asks.setdefault(order["char"], []).append(order["op"])
    towers = sorted(hexmap.towers().items())
    sequence = list(dict.fromkeys([o["char"] for o in orders] + [
        k for space, _ in towers for k in at(state, space, team)]))
    done: set[str] = set()

    def ready(key: str) -> bool:
        c = state["chars"][key]
        return key not in done and c["status"] == "map" and not c.get("down")

    def go(key: str) -> None:
        c = state["chars"][key]
        kind = hexmap.towers().get(c["space"])
        if kind is not None:
            done.add(key)
            tower(state, rng, events, key, c["space"], kind, wishes.get(key, {}))
            return
        for op in asks.get(key, []):
            for age, spaces in hexmap.labyrinths().items():
                if op == "mercy" and c["space"] == spaces[-1]:
                    done.add(key)
                    beg_for_mercy(state, rng, events, key, age)
                    return
                if op == "challenge" and c["space"] == guardian_space(state, age, team):
                    done.add(key)
                    challenge_guardian(state, rng, events, key, age)
                    check_sudden_death(state, events)
                    for other_key in sequence:
                        if ready(other_key) and "challenge" in asks.get(other_key, []) \
                                and state["chars"][other_key]["space"] == \
                                guardian_space(state, age, team):
                            go(other_key)  # the chain reaction
                            break
                    return

    for key in sequence:
        if ready(key):
            go(key)


def beg_for_mercy(state: State, rng: RngBase, events: Events, key: str, age: str) -> None:
    """On a red eye: the guardian in play goes under its deck, the beggar is dismissed."""
    lab = state["labyrinths"][age]
    events.append(Event("mercy", {"char": key, "age": age,
                                  "guardian": lab["deck"][0] if lab["face_up"] else None}))
    put_under(state, lab)
    if tracks_faces(state):
        events[-1].data["next"] = faces(lab)[0]
    place_in_dome(state, rng, events, key, "dismissed")
