"""Properties over random games: canonical order text parses back to the same orders,
and every state keeps its invariants and round-trips through JSON."""

import random

import pytest

from games.core.canonical import canonical_json
from games.core.replay import secret_rng
from games.duel_of_ages.engine import ENGINE


@pytest.mark.parametrize("seed", range(6))
def test_canonical_orders_are_stable_through_random_games(seed):
    rnd = random.Random(seed)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    options = {"team_size": 3 + seed % 3, "rounds": 6,
               "starting_card": bool(seed % 2)}
    state, _ = ENGINE.setup(["White", "Black"], options, secret_rng("ab" * 32, None))
    for number in range(1, 200):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        orders = {}
        for seat in decision.seats:
            parsed = ENGINE.parse_orders(state, seat, ENGINE.random_orders(state, seat, pick))
            again = ENGINE.parse_orders(state, seat, parsed.text)
            assert again.items == parsed.items and again.text == parsed.text
            orders[seat] = parsed
        state, _ = ENGINE.resolve(state, orders, secret_rng("ab" * 32, number))
        assert ENGINE.invariants(state) == []
        assert canonical_json(ENGINE.from_json(ENGINE.to_json(state))) == canonical_json(state)
    assert ENGINE.decision(state) is None
