"""A stored state comes back with its keys in another order (PostgreSQL's jsonb sorts
them by length, then bytes); resolution must draw the same dice and reach the same
hash either way. run_setup/run_turn guarantee it for every engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import registry
from games.core.replay import run_setup, run_turn, secret_rng

ENGINES = sorted(registry.engines())


def jsonb_order(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: jsonb_order(value[k]) for k in sorted(value, key=lambda k: (len(k), k))}
    if isinstance(value, list):
        return [jsonb_order(v) for v in value]
    return value


def reversed_order(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: reversed_order(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_order(v) for v in value]
    return value


@pytest.mark.parametrize("name", ENGINES)
def test_resolution_ignores_key_order(name):
    engine = registry.get(name)
    secret = "0d" * 16
    seats = engine.seat_names(engine.max_seats if engine.max_seats <= 4 else 2)
    state = run_setup(engine, seats, engine.validate_options({}), secret_rng(secret, None)).state
    rnd = random.Random(9)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    for number in range(1, 25):
        decision = engine.decision(state)
        if decision is None:
            break
        orders = {s: engine.parse_orders(state, s, engine.random_orders(state, s, pick))
                  for s in decision.seats}
        steps = [run_turn(engine, engine.from_json(reorder(engine.to_json(state))), orders,
                          secret_rng(secret, number))
                 for reorder in (lambda x: x, jsonb_order, reversed_order)]
        assert len({s.after_hash for s in steps}) == 1
        assert len({tuple(d.label for d in s.draws) for s in steps}) == 1
        state = steps[0].state
