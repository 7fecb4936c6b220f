"""Build Duel of Ages positions by hand and play one team turn into them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.core.engine import REVISION
from games.core.rng import ScriptedRng
from games.duel_of_ages import catalog, hexmap
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.state import SEATS

FIRST_GUARDIANS = {"RIDDLING_LION", "BRONZE_WARDEN", "LABYRINTH_SERPENT", "POWDER_MAGAZINE",
                   "DUELLING_MASTER", "STORM_AT_SEA", "MINEFIELD", "CODE_BREAKER",
                   "SNIPER_NEST", "ROGUE_ANDROID", "GRAVITY_WELL", "HIVE_MIND"}
"""The tests' guardian decks: these twelve first (sorted), then the rest (sorted), so
scenarios written against a known top guardian stay readable."""


def field(*rows: str, towers: dict[str, str] | None = None,
          tunnels: list[list[str]] | None = None, entrances: list[str] | None = None,
          labyrinths: dict[str, list[str]] | None = None,
          cavern: dict[str, Any] | None = None) -> dict[str, Any]:
    """A small map built for one scenario, in the codes of `data/map.toml` (one row a
    string, one code a space): the rulebook's examples are played on the very terrain
    they describe rather than on a stretch of the skirmish field that looks alike.
    A row of spaces is a chain of neighbours; a column is a straight line of sight."""
    data: dict[str, Any] = {
        "name": "scenario", "rows": list(rows), "towers": dict(towers or {}),
        "tunnels": {"segments": [list(s) for s in tunnels or []],
                    "entrances": list(entrances or [])},
        "labyrinths": dict(labyrinths or {})}
    if cavern:
        data["cavern"] = cavern
    # the map caches answer per key, so a key must name exactly this map
    data["key"] = "scenario-" + hashlib.sha256(
        json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]
    return data


def make(chars: dict[str, tuple], *, active: str = "White", round_: int = 1,
         rounds: int = 10, standing: dict[str, list] | None = None,
         ground: dict[str, list[str]] | None = None,
         labyrinths: dict[str, dict[str, Any]] | None = None,
         map_: dict[str, Any] | None = None, revision: int = ENGINE.revision
         ) -> dict[str, Any]:
    """chars: KEY -> (team, space or "reserve"/"dead", [cards], health or None).

    A space written "B5/t" is the tunnel under B5; a card written "LONGBOW!" is
    already revealed. `map_` (see `field`) replaces the skirmish field. The game plays
    by rules `revision` (1: recorded before revisions, no revision key)."""
    used: list[str] = []
    state: dict[str, Any] = {"active": active, "round": round_, "rounds": rounds,
                             "chars": {}, "deck": [], "discard": [], "ground": {},
                             "standing": {s: [] for s in SEATS}, "over": False,
                             "winner": None, "summary": "",
                             "seats": {"White": "White", "Black": "Black"}}
    for key, spec in chars.items():
        team, where, cards = spec[0], spec[1], spec[2]
        health = spec[3] if len(spec) > 3 and spec[3] is not None else \
            catalog.character(key)["health"]
        status = where if where in ("reserve", "dead") else "map"
        down = where.endswith("/t")
        where = where.removesuffix("/t")
        state["chars"][key] = {
            "team": team, "status": status, "space": where if status == "map" else None,
            "down": down,
            "health": 0 if status == "dead" else health,
            "cards": [{"card": c.rstrip("!"), "revealed": c.endswith("!")} for c in cards]}
        used += [c.rstrip("!") for c in cards]
    for where, cards in (ground or {}).items():
        state["ground"][where] = [{"card": c.rstrip("!"), "revealed": c.endswith("!")}
                                  for c in cards]
        used += [c.rstrip("!") for c in cards]
    state["deck"] = [c for c in sorted(catalog.equipment()) if c not in used]
    if standing:
        state["standing"].update(standing)
    if map_ is not None:
        state["map"] = map_
    if revision > 1:
        state[REVISION] = revision
    with hexmap.using(map_):
        ages = hexmap.labyrinths()
    state["labyrinths"] = {
        age: {"deck": sorted((k for k, g in catalog.guardians().items() if g["age"] == age),
                             key=lambda k: (k not in FIRST_GUARDIANS, k)),
              "face_up": False, "positions": {s: len(spaces) - 1 for s in SEATS},
              **({"shown": []} if revision >= 4 else {})}
        for age, spaces in ages.items()}
    for age, where in (labyrinths or {}).items():
        state["labyrinths"][age].update(where)
    for lab in state["labyrinths"].values():  # revision 4: the top card face up is shown
        if "shown" in lab and lab["face_up"] and lab["deck"][0] not in lab["shown"]:
            lab["shown"] = sorted(lab["shown"] + [lab["deck"][0]])
    assert ENGINE.invariants(state) == [], ENGINE.invariants(state)
    return state


def play(state: dict[str, Any], orders: dict[str, str], script: list[Any]):
    """Resolve one team turn with scripted dice; every scripted value must be used."""
    parsed = {seat: ENGINE.parse_orders(state, seat, text) for seat, text in orders.items()}
    rng = ScriptedRng(script)
    after, events = ENGINE.resolve(state, parsed, rng)
    assert rng.remaining == 0, f"{rng.remaining} scripted dice unused"
    assert ENGINE.invariants(after) == []
    return after, events


def kinds(events, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]
