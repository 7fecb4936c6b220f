"""Trading cards: two team-mates in one space, each spending 2 move points, with no
enemy there; a mount in use cannot change hands."""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from ..state import State, other, position, with_me
from .combat import Events, lose_card
from .equipment import receive


def trade_phase(state: State, events: Events, orders: list[dict[str, Any]],
                moved: dict[str, dict[str, Any]], points: dict[str, int]) -> None:
    """At the end of the team's movement; `points` is what each character has left."""
    for order in orders:
        a, b = order["char"], order["with"]
        ca, cb = state["chars"][a], state["chars"][b]
        why = None
        if ca["status"] != "map" or cb["status"] != "map" or position(state, a) != position(
                state, b):
            why = "they are not in the same space"
        elif with_me(state, a, other(ca["team"])):
            why = "an enemy is in the space"
        elif points.get(a, 0) < 2 or points.get(b, 0) < 2:
            why = "each needs 2 move points left"
        give = [e for e in ca["cards"] if e["card"] in order.get("give", [])]
        take = [e for e in cb["cards"] if e["card"] in order.get("take", [])]
        if why is None and (len(give) != len(order.get("give", [])) or
                            len(take) != len(order.get("take", []))):
            why = "a card named is no longer carried"
        if why is None and any(e["card"] in (ca.get("mount"), cb.get("mount"))
                               for e in give + take):
            why = "a mount in use cannot be traded"
        if why:
            events.append(Event("no_trade", {"char": a, "with": b, "why": why},
                                (ca["team"],)))
            continue
        record_trade = {"seq": sum(len(r.get("trades", [])) for r in moved.values()),
                        "chars": (a, b), "index": {},
                        "before": {a: list(ca["cards"]), b: list(cb["cards"])}}
        for key in (a, b):
            points[key] -= 2
            record = moved.setdefault(key, {"steps": [], "spent": 0, "stop": None})
            record["spent"] += 2
            here = list(position(state, key))
            if record["steps"][-1:] != [here]:
                record["steps"].append(here)  # spending points here makes him a target
            record_trade["index"][key] = len(record["steps"]) - 1
            record.setdefault("trades", []).append(record_trade)
        ca["cards"] = [e for e in ca["cards"] if e not in give] + take
        cb["cards"] = [e for e in cb["cards"] if e not in take] + give
        gone = len(state["discard"])
        for key, c in ((a, ca), (b, cb)):
            for card in order.get("destroy", []):  # destroying cards while trading
                if any(e["card"] == card for e in c["cards"]):
                    lose_card(state, events, key, card, "destroyed")
        extra = {a: receive(state, events, a), b: receive(state, events, b)}
        record_trade["discarded"] = state["discard"][gone:]
        events.append(Event("trade", {
            "char": a, "with": b, "gave": len(give), "took": len(take),
            "shown": [e["card"] for e in give + take if e["revealed"]],
            "discarded": [k for x in extra.values() for k in x]}))
        events.append(Event("trade_cards", {"char": a, "with": b,
                                            "gave": [e["card"] for e in give],
                                            "took": [e["card"] for e in take]},
                            (ca["team"],)))


def undo_trades(state: State, events: Events, char: str, moved: dict[str, dict[str, Any]],
                shot_at: int) -> None:
    """A trader killed before he reached the trade: the trade never happened (the Chief
    Weewak's ruling). Every trade he made after step `shot_at` of his path is undone (one
    made where he was shot stands: he had reached it), and so is every later trade by a
    character whose cards that changes, so the cards go back the way they were."""
    trades = {t["seq"]: t for r in moved.values() for t in r.get("trades", [])}
    undone = [t for t in trades.values() if char in t["chars"]
              and t["index"][char] > shot_at]
    if not undone:
        return
    first = min(t["seq"] for t in undone)
    affected = {char}
    restore: dict[str, list[dict[str, Any]]] = {}
    for seq in sorted(trades):
        t = trades[seq]
        if seq < first or not affected & set(t["chars"]):
            continue
        for key in t["chars"]:
            affected.add(key)
            restore.setdefault(key, t["before"][key])
        for card in t["discarded"]:
            state["discard"].remove(card)
        for key in t["chars"]:
            moved[key]["trades"].remove(t)
        events.append(Event("trade_undone", {"char": t["chars"][0], "with": t["chars"][1]}))
    for key, cards in restore.items():
        state["chars"][key]["cards"] = list(cards)
