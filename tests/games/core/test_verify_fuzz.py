"""The verifier takes any input without an exception: arbitrary JSON, damaged real
exports (a node replaced, a key removed, a list cut) and arbitrary bytes all give a
Verdict, failed with a message unless the damage changed nothing that counts."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import registry
from games.core.replay import FORMAT, Verdict
from games.core.verify import verify_bytes, verify_record

from ..conformance import play_random_game

SCALARS = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False) | st.text(max_size=12))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=25)
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.fixture(scope="module")
def record():
    engine = registry.get("combat_dice")
    seed = 5
    play = play_random_game(engine, seed, check=False)
    while len(play.turns) < 2:
        seed += 1
        play = play_random_game(engine, seed, check=False)
    return play.record


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _checked(verdict) -> Verdict:
    assert isinstance(verdict, Verdict)
    assert verdict.ok or (isinstance(verdict.error, str) and verdict.error)
    return verdict


@FUZZ
@given(JSON)
def test_arbitrary_json_is_a_failed_verdict(value):
    assert not _checked(verify_record(value)).ok


@FUZZ
@given(st.dictionaries(st.sampled_from(["format", "ruleset", "seats", "options", "setup",
                                        "turns", "secret", "secret_sha256", "final_hash"]),
                       JSON, max_size=9))
def test_export_shaped_json_is_a_failed_verdict(value):
    value["format"] = FORMAT
    assert not _checked(verify_record(value)).ok


@FUZZ
@given(st.data())
def test_a_damaged_real_export_never_raises(record, data):
    damaged = copy.deepcopy(record)
    paths = [p for p in _paths(damaged) if p]
    path = data.draw(st.sampled_from(paths))
    parent = damaged
    for key in path[:-1]:
        parent = parent[key]
    how = data.draw(st.sampled_from(["replace", "delete", "cut"]))
    if how == "replace":
        parent[path[-1]] = data.draw(JSON)
    elif isinstance(parent, dict):
        del parent[path[-1]]
    else:
        del parent[path[-1]:]
    _checked(verify_record(damaged))


@FUZZ
@given(st.binary(max_size=200))
def test_arbitrary_bytes_are_a_failed_verdict(raw):
    assert not _checked(verify_bytes(raw)).ok


@pytest.mark.parametrize("depth", [100, 1000, 100_000])
def test_deep_nesting_is_refused_with_a_message(record, depth):
    nested = "[" * depth + "]" * depth
    verdict = verify_bytes(f'{{"format": "{FORMAT}", "options": {nested}}}'.encode())
    assert not verdict.ok and "nested" in verdict.error
    damaged = copy.deepcopy(record)
    damaged["turns"][0]["orders"] = json.loads("[" * 200 + "]" * 200)
    verdict = verify_record(damaged)
    assert not verdict.ok and "nested more than 100 levels" in verdict.error


def test_the_honest_export_still_verifies(record):
    assert verify_record(copy.deepcopy(record)).ok
    assert verify_bytes(json.dumps(record).encode()).ok
