"""What must always hold in a Duel of Ages state (the engine's `invariants`).

It sits above both `state` and the rules, because one check (how many cards a character
may carry) is a rule: `state` is the ground every rules module stands on, so it may not
ask the rules anything.
"""

from __future__ import annotations

from . import catalog, hexmap
from .rules.equipment import capacity
from .state import SEATS, State, at


def invariants(state: State) -> list[str]:
    problems: list[str] = []
    terrain = hexmap.terrain()
    seen_cards: list[str] = list(state["deck"]) + list(state["discard"]) + [
        e["card"] for pile in state["ground"].values() for e in pile]
    for where, pile in sorted(state["ground"].items()):
        space = where.removesuffix("/t")
        if not pile or space not in terrain or hexmap.terrain()[space] in hexmap.SEALED:
            problems.append(f"a bad pile of cards at {where}")
    for key, c in sorted(state["chars"].items()):
        if c["team"] not in SEATS:
            problems.append(f"{key} has no team")
        if c["status"] == "map":
            if c["space"] not in terrain:
                problems.append(f"{key} is on the map but not in a space")
            elif terrain[c["space"]] not in hexmap.MOVE_COST and terrain[c["space"]] != "dome":
                problems.append(f"{key} stands in {terrain[c['space']]}")
            if not 0 < c["health"] <= catalog.character(key)["health"]:
                problems.append(f"{key} is on the map with health {c['health']}")
            if c.get("down") and c["space"] not in hexmap.tunnel_spaces():
                problems.append(f"{key} is underground where there is no tunnel")
        elif c["space"] is not None:
            problems.append(f"{key} is off the map but has a space")
        if c["status"] == "dead" and c["health"] > 0:
            problems.append(f"{key} is dead with health left")
        if c.get("mount") and c["mount"] not in [e["card"] for e in c["cards"]]:
            problems.append(f"{key} rides a mount he does not carry")
        if len(c["cards"]) > capacity(state, key):
            problems.append(f"{key} carries more cards than he may")
        seen_cards += [e["card"] for e in c["cards"]]
    if sorted(seen_cards) != sorted(catalog.equipment()):
        problems.append("equipment cards are missing or doubled")
    for space, kind in sorted(hexmap.towers().items()):
        if len(at(state, space)) > 1:
            problems.append(f"more than one character in the {kind} tower")
    for space in hexmap.domes():
        teams = {state["chars"][k]["team"] for k in at(state, space)}
        if len(teams) > 1:
            problems.append(f"enemies share the dome {space}")
    for age, lab in sorted(state["labyrinths"].items()) if state.get("phase") != "build" else ():
        if sorted(lab["deck"]) != sorted(k for k, g in catalog.guardians().items()
                                         if g["age"] == age):
            problems.append(f"the {age} guardian deck is wrong")
        if any(not 0 <= p < len(hexmap.labyrinths()[age]) for p in lab["positions"].values()):
            problems.append(f"a guardian position is off the {age} labyrinth")
        if "shown" in lab and (not set(lab["shown"]) <= set(lab["deck"])
                               or lab["shown"] != sorted(set(lab["shown"]))
                               or lab["face_up"] != (lab["deck"][0] in lab["shown"])):
            problems.append(f"the {age} guardians face up are wrong")
    if state["active"] not in SEATS:
        problems.append("no active team")
    return problems
