"""Engine.canonical: the state and its canonical text in one pass, for run_setup and
run_turn; it must give exactly what the long way gave (from_json of the canonical JSON of
to_json, and state_hash of to_json of that), or stored hashes would stop replaying."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.core import registry
from games.core.canonical import CanonicalError, canonical_json, sha256_hex, state_hash
from games.core.engine import Engine
from games.core.replay import run_setup, run_turn, secret_rng

ENGINES = sorted(registry.engines())


def long_way(engine: Engine, state: Any) -> tuple[Any, str]:
    """What run_setup/run_turn did before Engine.canonical: the state and its hash."""
    canon = engine.from_json(json.loads(canonical_json(engine.to_json(state))))
    return canon, state_hash(engine.to_json(canon))


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_gets_the_state_and_hash_of_the_long_way(name):
    engine = registry.get(name)
    secret = "5e" * 16
    seats = engine.seat_names(engine.max_seats if engine.max_seats <= 4 else 2)
    state = run_setup(engine, seats, engine.validate_options({}), secret_rng(secret, None)).state
    rnd = random.Random(4)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    for number in range(1, 8):
        canon, text = engine.canonical(state)
        expected_state, expected_hash = long_way(engine, state)
        assert canon == expected_state and list(canon) == list(expected_state)
        assert sha256_hex(text) == expected_hash
        decision = engine.decision(state)
        if decision is None:
            break
        orders = {s: engine.parse_orders(state, s, engine.random_orders(state, s, pick))
                  for s in decision.seats}
        step = run_turn(engine, state, orders, secret_rng(secret, number))
        assert step.before_hash == expected_hash
        assert step.after_hash == long_way(engine, step.state)[1]
        state = step.state


def test_keys_come_out_sorted_and_the_state_is_a_copy():
    engine = registry.get(ENGINES[0])
    state = {"b": {"z": 1, "a": [1, {"y": True, "x": None}]}, "a": "é"}
    canon, text = engine.canonical(state)
    assert text == '{"a":"é","b":{"a":[1,{"x":null,"y":true}],"z":1}}'
    assert list(canon) == ["a", "b"] and list(canon["b"]) == ["a", "z"]
    canon["b"]["a"].append(2)
    assert state["b"]["a"] == [1, {"y": True, "x": None}]


def test_an_int_key_becomes_a_string_as_the_copy_made_it():
    engine = registry.get(ENGINES[0])
    canon, text = engine.canonical({"seats": {2: "b", 1: "a"}})
    assert canon == {"seats": {"1": "a", "2": "b"}} and text == '{"seats":{"1":"a","2":"b"}}'


def test_a_float_is_still_refused():
    engine = registry.get(ENGINES[0])
    with pytest.raises(CanonicalError, match="float at"):
        engine.canonical({"hp": 1.5})


class Boxed(dict):
    """A state type of its own: the engine's to_json/from_json must be called."""


class OwnTypeEngine(type(registry.get(ENGINES[0]))):  # type: ignore[misc]
    calls: list[str] = []

    def to_json(self, state: Any) -> Any:
        self.calls.append("to_json")
        return dict(state)

    def from_json(self, data: Any) -> Any:
        self.calls.append("from_json")
        return Boxed(data)


def test_an_engine_with_its_own_state_type_gets_its_own_methods_called():
    engine = OwnTypeEngine()
    canon, text = engine.canonical(Boxed(b=1, a=2))
    assert isinstance(canon, Boxed) and text == '{"a":2,"b":1}'
    assert engine.calls == ["to_json", "from_json"]
