"""Perturbations of hidden information, for the no-leak checks.

Each function changes exactly one thing `seat` may not see and leaves everything that
seat may see alone; the conformance suite and our own tests then demand that the
seat's view is byte for byte the same. The list below is the inventory of secrets:

* every deck's order (hidden even from its owner);
* the other side's hand, face-down queue cards and discard pile contents;
* the other side's standing orders and the orders kept for the turn in progress
  (armor exchanges included: one waiting BEFORE ABSORB is as secret as an ABSORB);
* the defender's guesses while the attacker is still being asked for the die.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.core.canonical import clone

from .state import State, player, sort_hand

Pick = Callable[[Sequence[Any]], Any]


def _reverse_deck(state: State, owner: str, pick: Pick) -> None:
    player(state, owner)["deck"].reverse()


def _swap(state: State, owner: str, pick: Pick, pile: str) -> None:
    p = player(state, owner)
    if pile == "queue":
        index = pick([i for i, slot in enumerate(p["queue"]) if not slot["up"]])
        j = pick(range(len(p["deck"])))
        p["queue"][index]["card"], p["deck"][j] = p["deck"][j], p["queue"][index]["card"]
        return
    i = pick([k for k, c in enumerate(p[pile]) if c != p["last_discard"]])
    j = pick(range(len(p["deck"])))
    p[pile][i], p["deck"][j] = p["deck"][j], p[pile][i]
    sort_hand(p)


STANDING_EXTRAS = (
    {"order": {"op": "absorb", "from": "deck", "cards": []}},
    {"order": {"op": "exhaust", "count": -1, "when": "absorb"}},
    {"if": {"test": "compare", "name": "DECK", "op": ">", "value": 4},
     "then": {"op": "exhaust", "count": 1, "when": "start"}, "else": None},
)


def _standing(state: State, owner: str, pick: Pick) -> None:
    p = player(state, owner)
    extra = pick(STANDING_EXTRAS)
    if extra in p["standing"]:
        p["standing"].remove(extra)
    else:
        p["standing"].append(extra)


def _kept_orders(state: State, owner: str, pick: Pick) -> None:
    kept = state["turn"]["orders"][owner]
    kind = pick(["set", "defend", "absorb", "before_absorb"])
    order: dict[str, Any] = {
        "set": {"op": "set", "value": pick(range(1, 7))},
        "defend": {"op": "defend", "pos": "SECOND", "guesses": [pick(range(1, 7))]},
        "absorb": {"op": "absorb", "from": "deck", "cards": []},
        "before_absorb": {"op": "exhaust", "count": pick(range(1, 4)), "when": "absorb"},
    }[kind]
    kept.setdefault(kind, []).insert(0, {"order": order})


def _guesses(state: State, owner: str, pick: Pick) -> None:
    cur = state["turn"]["cur"]
    new = pick(range(1, 7))
    cur["guesses"] = [new] if cur["guesses"] != [new] else [new % 6 + 1]


def options(state: State, seat: str | None) -> list[tuple[Callable[..., None], str, Any]]:
    found: list[tuple[Callable[..., None], str, Any]] = []
    turn = state.get("turn")
    for owner in state["seats"]:
        p = player(state, owner)
        if len(p["deck"]) >= 2:
            found.append((_reverse_deck, owner, None))
        if owner == seat or seat == "*":
            continue
        if p["deck"]:
            if p["hand"]:
                found.append((_swap, owner, "hand"))
            if any(c != p["last_discard"] for c in p["discard"]):
                found.append((_swap, owner, "discard"))
            if any(not slot["up"] for slot in p["queue"]):
                found.append((_swap, owner, "queue"))
        if state["stage"] == "turn":
            found.append((_standing, owner, None))
            if turn and owner in turn["orders"]:
                found.append((_kept_orders, owner, None))
    if (turn and turn.get("cur") and turn["cur"]["die"] is None
            and seat not in ("*", turn["defender"])):
        found.append((_guesses, turn["defender"], None))
    return found


def perturb(state: State, seat: str | None, pick: Pick) -> State | None:
    """A copy of `state` with one secret of `seat`'s changed, or None if it has none."""
    if seat == "*":
        return None
    choices = options(state, seat)
    if not choices:
        return None
    func, owner, arg = pick(choices)
    changed = clone(state)
    if arg is None:
        func(changed, owner, pick)
    else:
        func(changed, owner, pick, arg)
    return changed
