"""Canonical JSON and state hashes.

Every hash the service publishes (state before/after a turn, order receipts) is the
SHA-256 of this encoding, so it must never depend on dict order, whitespace, or the
float formatting of a Python version. Floats are refused outright: game state is made
of integers, strings, booleans, lists and string-keyed objects.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


class CanonicalError(TypeError):
    """A value that has no canonical JSON form (a float, a set, a non-string key...)."""


def _plain(value: Any) -> bool:
    """True when `value` is made of exact str/int/bool/None/list/tuple/str-keyed dict only.

    The fast path of `_check`: iterative, no path strings built; anything else (a float,
    a subclass, a bad key) goes to `_check_slowly`, which names where it is or accepts it.
    """
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    return False
            extend(item.values())
        elif kind is list or kind is tuple:
            extend(item)
        else:
            return False
    return True


def _check(value: Any, path: str = "$") -> None:
    if not _plain(value):
        _check_slowly(value, path)


def _check_slowly(value: Any, path: str = "$") -> None:
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        raise CanonicalError(f"float at {path}: game state must use integers")
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_slowly(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalError(f"non-string key {key!r} at {path}")
            _check_slowly(item, f"{path}.{key}")
        return
    raise CanonicalError(f"{type(value).__name__} at {path} has no canonical JSON form")


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept as is; raises CanonicalError on floats etc."""
    _check(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(data: str | bytes) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def state_hash(value: Any) -> str:
    """SHA-256 of the canonical JSON of a JSON-compatible value."""
    return sha256_hex(canonical_json(value))


def clone(value: Any) -> Any:
    """A deep copy of a JSON-compatible value (faster than copy.deepcopy for plain data)."""
    return json.loads(json.dumps(value))
