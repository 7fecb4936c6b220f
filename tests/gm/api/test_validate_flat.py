"""`serializers.validate_flat` answers exactly as the serializer it stands in for."""

from __future__ import annotations

import pytest

from gm.api import serializers as s

CASES = [
    {"text": "EQUIP SWORD"},
    {"text": "EQUIP SWORD", "turn": 3},
    {},
    {"text": 5},
    {"text": None},
    {"text": ["a"]},
    {"text": "", "turn": 3},
    {"text": "   "},
    {"text": "a", "turn": 0},
    {"text": "a", "turn": "x"},
    {"text": "a", "turn": 2**31},
    {"text": "a", "unknown": 1},
    [1],
    "text",
]


def _plain(errors) -> dict[str, list[str]]:
    return {k: [str(e) for e in v] for k, v in errors.items()}


@pytest.mark.parametrize("data", CASES, ids=repr)
@pytest.mark.parametrize("serializer", [s.OrdersSerializer, s.TurnSerializer])
def test_same_answer_as_the_serializer(serializer, data):
    ser = serializer(data=data)
    expected = (dict(ser.validated_data), {}) if ser.is_valid() else ({}, _plain(ser.errors))
    valid, errors = s.validate_flat(serializer, data)
    assert (dict(valid), _plain(errors)) == expected
