"""The game state (a plain JSON dict) and the small questions asked of it everywhere."""

from __future__ import annotations

from typing import Any

from . import catalog

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
