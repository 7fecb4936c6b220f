"""What a seat may see: the only way a Duelists state leaves the engine.

A seat sees its own hand, discard pile, queue (face-down cards marked as such) and
standing orders; of the other side only face-up queue cards, counts, the exhausted
pile and tokens. The public sees what both opponents see of each other. "*" is the GM.
"""

from __future__ import annotations

from typing import Any

from . import cards
from .orders import GRAMMAR
from .rules.attack import label
from .state import State


def view(state: State, seat: str | None) -> dict[str, Any]:
    gm = seat == "*"
    out: dict[str, Any] = {
        "game": "duelists", "viewer": seat, "stage": state["stage"],
        "turn_number": state["number"], "starter": state["starter"],
        "start_rolls": state["rolls"], "awaiting": dict(state["awaiting"]),
        "winner": state["winner"], "reason": state["reason"],
        "players": {s: _player(state, s, gm or s == seat, gm) for s in state["seats"]},
    }
    if state["stage"] == "pick":
        taken = {p["champion"] for p in state["players"].values()}
        out["champions"] = [{"key": c.key, "name": c.name, "epithet": c.epithet,
                             "taken": c.key in taken,
                             "cards": _catalogue(c)} for c in cards.champions().values()]
    if state["turn"]:
        out["turn"] = _turn(state, seat, gm)
    return out


def _catalogue(champ: cards.Champion) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for c in champ.cards:
        entry = seen.setdefault(c.name, {**c.face(), "count": 0})
        entry["count"] += 1
    return list(seen.values())


def _player(state: State, seat: str, mine: bool, gm: bool) -> dict[str, Any]:
    p = state["players"][seat]
    champ = cards.champions()[p["champion"]] if p["champion"] else None
    data: dict[str, Any] = {
        "champion": champ.name if champ else None,
        "hand_count": len(p["hand"]), "deck_count": len(p["deck"]),
        "discard_count": len(p["discard"]),
        "exhausted": [cards.name(c) for c in p["exhausted"]],
        "queue": [_slot(slot, mine) for slot in p["queue"]],
        "tokens": dict(p["tokens"]),
        "last_discard": cards.name(p["last_discard"]) if p["last_discard"] else None,
    }
    if mine:
        data["hand"] = [cards.card(c).face() for c in p["hand"]]
        data["discard"] = sorted(cards.name(c) for c in p["discard"])
        data["standing"] = [GRAMMAR.render(item) for item in p["standing"]]
    if gm:
        data["deck"] = [cards.name(c) for c in p["deck"]]
    return data


def _slot(slot: dict[str, Any], mine: bool) -> dict[str, Any]:
    shown = slot["up"] or mine
    return {"face_up": slot["up"], "defended": slot["defended"],
            "card": cards.card(slot["card"]).face() if shown else None}


def _turn(state: State, seat: str | None, gm: bool) -> dict[str, Any]:
    turn = state["turn"]
    data: dict[str, Any] = {
        "attacker": turn["attacker"], "defender": turn["defender"],
        "first": turn["first"], "planned": turn["planned"],
        "attacks": [label(a) for a in turn["attacks"]],
        "attack_index": turn["index"],
    }
    cur = turn["cur"]
    if cur:
        current: dict[str, Any] = {"defends_with": cur["pos"], "card": cards.name(cur["card"]),
                                   "guesses_allowed": cur["allowed"], "die": cur["die"]}
        if cur["die"] is not None or gm or seat == turn["defender"]:
            current["guesses"] = list(cur["guesses"])
        if cur["die"] is not None:
            current["damage"] = cur["damage"]
        data["current"] = current
    for s, stored in turn["orders"].items():
        if gm or s == seat:
            data.setdefault("orders_kept", {})[s] = {
                k: [GRAMMAR.render(i) for i in v] for k, v in stored.items()}
    return data
