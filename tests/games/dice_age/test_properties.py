"""Properties over whole random games (all levels): the one rule holds throughout."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.rng import Rng
from games.dice_age.engine import ENGINE


def _game(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    rnd = random.Random(seed)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    seats = ENGINE.seat_names(rnd.randint(2, 4))
    level = rnd.choice([1, 2, 3, 4])
    state, events = ENGINE.setup(seats, {"level": level}, Rng(str(seed), "setup"))
    states = [state]
    for number in range(1, 2000):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        orders = ENGINE.parse_orders(state, seat, ENGINE.random_orders(state, seat, pick))
        state, new = ENGINE.resolve(state, {seat: orders}, Rng(str(seed), f"turn/{number}"))
        events += new
        states.append(state)
    return state, [{"kind": e.kind, "data": e.data} for e in events], states


@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_the_number_only_falls_within_a_round(seed):
    final, events, _ = _game(seed)
    number = None
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind == "number":
            assert number is None or data["number"] <= number
            number = data["number"]
        elif kind == "overshoot":
            assert number is not None and data["number"] > number == data["limit"]
            number = None
    assert final["winner"] is not None
    assert sorted(final["out"]) == sorted(s for s in final["seats"] if s != final["winner"])


@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_dice_stay_where_the_level_allows(seed):
    final, _, states = _game(seed)
    level = final["level"]
    for state in states:
        places = {info["place"] for info in state["dice"].values()}
        if level < 3:
            assert places <= {"pool", "garden", "wasteland"}
        if level < 4:
            assert "limbo" not in places
        else:
            assert "pool" not in places
