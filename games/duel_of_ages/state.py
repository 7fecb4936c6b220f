"""The game state (a plain JSON dict) and the small questions asked of it everywhere."""

from __future__ import annotations

from typing import Any

from . import catalog, hexmap

SEATS = ("White", "Black")
State = dict[str, Any]


def other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def chars(state: State, team: str | None = None, status: str | None = None) -> list[str]:
    """Character keys in the one order every rule walks them, sorted by key, filtered by
    team and status. Sorted because the service hands every turn its state with sorted
    keys, so it is the order every stored game was played in; a state whose keys come in
    another order (PostgreSQL's jsonb, a GM's amendment) must play the same."""
    table = state["chars"]
    return [k for k in sorted(table)
            if (team is None or table[k]["team"] == team)
            and (status is None or table[k]["status"] == status)]


def alive(state: State, team: str) -> list[str]:
    return [k for k in chars(state, team) if state["chars"][k]["status"] != "dead"]


def on_map(state: State, team: str | None = None) -> list[str]:
    return chars(state, team, "map")


def at(state: State, space: str, team: str | None = None, down: bool | None = False
       ) -> list[str]:
    """Characters in a space: on the surface (default), in the tunnel below it
    (down=True) or either (down=None)."""
    return [k for k in on_map(state, team) if state["chars"][k]["space"] == space
            and (down is None or state["chars"][k].get("down", False) == down)]


def position(state: State, key: str) -> tuple[str, bool]:
    c = state["chars"][key]
    return c["space"], c.get("down", False)


def with_me(state: State, key: str, team: str | None = None) -> list[str]:
    """Characters sharing key's space and layer (key included)."""
    space, down = position(state, key)
    return at(state, space, team, down)


def carried_weapons(state: State, key: str, kind: str) -> list[str]:
    """The usable cards of one weapon kind ("ranged" or "melee") a character carries, in
    carrying order."""
    return [e["card"] for e in state["chars"][key]["cards"]
            if catalog.card(e["card"])["kind"] == kind and catalog.can_use(key, e["card"])]


def ranged_card(state: State, key: str, wanted: str | None = None) -> str | None:
    """The ranged weapon a character fights with: the one named (if he carries it and can
    use it), else the first one he can use."""
    weapons = carried_weapons(state, key, "ranged")
    if wanted is not None:
        return wanted if wanted in weapons else None
    return weapons[0] if weapons else None


def melee_card(state: State, key: str, wanted: str | None = None) -> str | None:
    """The melee card named (if carried and usable), else the first usable one."""
    weapons = carried_weapons(state, key, "melee")
    if wanted is not None:
        return wanted if wanted in weapons else None
    return weapons[0] if weapons else None


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
        from .rules.equipment import capacity  # the rules build on this module

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
