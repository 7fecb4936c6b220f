"""Orders kept during a game turn, and how a rule takes the one it needs.

A seat's orders for the turn are stored by kind (plan, set, defend, absorb, and the two
armor exchanges: exhaust at the start, before_absorb once a hit is known), each a list
consumed front first: the n-th SET line is the n-th attack's die. When the list has
nothing that applies, the seat's standing orders are tried in order; when those fail
too, the choice is asked for (`ask`) and the turn waits. Armor exchanges are optional:
nothing is asked when no order covers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core.orders import choose, merge_standing
from games.core.types import Event, Orders

from ..orders import item_op, test_condition
from ..state import ORDER_KINDS, State, player

Order = dict[str, Any]


def empty() -> dict[str, list[Any]]:
    return {kind: [] for kind in ORDER_KINDS}


def store(state: State, orders: Orders, *, answer: bool) -> None:
    """Keep the seat's orders for this turn.

    An answer to a question arising mid-turn goes in front of what the seat ordered
    earlier, so the newest lines cover the choice being asked."""
    seat = orders.seat
    p = player(state, seat)
    p["standing"], _ = merge_standing(p["standing"], orders.items)
    stored = state["turn"]["orders"].setdefault(seat, empty())
    fresh = empty()
    for item in orders.items:
        if "cancel" in item or item.get("standing"):
            continue
        op = item_op(item)
        if op in fresh:
            fresh[op].append(item)
    for kind in ORDER_KINDS:
        stored[kind] = fresh[kind] + stored.get(kind, []) if answer else fresh[kind]


def take(state: State, seat: str, kind: str, facts: dict[str, Any],
         valid: Callable[[Order], bool] | None = None, *, standing: bool = True
         ) -> Order | None:
    """The order that covers this choice, or None (then it must be asked, or for an
    optional choice nothing happens). `standing=False` looks at this turn's lines only."""
    ok = valid or (lambda _order: True)

    def test(cond: dict[str, Any]) -> bool:
        return test_condition(cond, facts)

    queue = state["turn"]["orders"].get(seat, {}).get(kind, [])
    if queue:
        order = choose(queue.pop(0), test)
        if order is not None and ok(order):
            return order
    if not standing:
        return None
    for item in player(state, seat)["standing"]:
        if item_op(item) == kind:
            order = choose(item, test)
            if order is not None and ok(order):
                return order
    return None


def ask(state: State, seat: str, kind: str, events: list[Event]) -> None:
    state["awaiting"] = {seat: kind}
    turn = state["turn"]
    detail: dict[str, Any] = {"seat": seat, "kind": kind, "attack": turn["index"] + 1}
    if kind == "absorb" and turn.get("cur"):
        detail["damage"] = turn["cur"]["damage"]
    events.append(Event("asked", detail))
