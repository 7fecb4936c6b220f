from __future__ import annotations

import pytest

from games.core.canonical import CanonicalError, canonical_json, clone, state_hash


def test_sorted_compact_utf8():
    assert canonical_json({"b": 1, "a": [True, None, "é"]}) == '{"a":[true,null,"é"],"b":1}'


def test_hash_ignores_key_order():
    assert state_hash({"a": 1, "b": 2}) == state_hash({"b": 2, "a": 1})
    assert state_hash({"a": 1}) != state_hash({"a": 2})
    assert len(state_hash({})) == 64


@pytest.mark.parametrize("bad", [1.5, {"a": 0.1}, {1: "x"}, {"s": {1, 2}}])
def test_refuses_values_without_a_canonical_form(bad):
    with pytest.raises(CanonicalError):
        canonical_json(bad)


def test_clone_is_deep():
    a = {"x": [1, {"y": 2}]}
    b = clone(a)
    b["x"][1]["y"] = 3
    assert a["x"][1]["y"] == 2
