"""Labelled, recorded, verifiable randomness.

Each turn gets its own stream: HMAC-SHA256(secret, "<stream>|<index>|<label>|<block>")
yields 256-bit blocks that are turned into uniform integers by rejection sampling.
Because the construction uses only HMAC and integer arithmetic, a game's dice never
change with the Python version, and anyone holding the revealed secret can recompute
every draw (`python -m games.core.verify`).

Every draw is recorded as a `Draw` (index, label, kind, args, result). A GM may fix a
die result: `overrides` maps a draw index to the value to use instead, and the record
keeps both the computed and the used value so verification shows the human hand.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Draw:
    index: int
    label: str
    kind: str  # "int" (uniform in [0, n)), "die", "choice", "shuffle"
    args: list[int]
    result: Any
    computed: Any = None  # set only when a GM override replaced the computed result

    def to_json(self) -> dict[str, Any]:
        data = {"i": self.index, "label": self.label, "kind": self.kind, "args": list(self.args),
                "result": self.result}
        if self.computed is not None:
            data["computed"] = self.computed
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Draw:
        return cls(data["i"], data["label"], data["kind"], list(data["args"]), data["result"],
                   data.get("computed"))


class RngBase:
    """Shared draw logic; subclasses supply `_below(label, n)` for a uniform int in [0, n)."""

    def __init__(self) -> None:
        self.draws: list[Draw] = []

    # -- primitives ---------------------------------------------------------
    def _below(self, label: str, n: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _record(self, label: str, kind: str, args: list[int], result: Any,
                computed: Any = None) -> Any:
        self.draws.append(Draw(len(self.draws), label, kind, args, result, computed))
        return result

    # -- public draws -------------------------------------------------------
    def die(self, label: str, sides: int) -> int:
        """A roll of one die with `sides` faces: 1..sides."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return self._draw(label, "die", [sides], lambda: self._below(label, sides) + 1)

    def dice(self, label: str, count: int, sides: int) -> list[int]:
        """`count` separate labelled dice, recorded one by one (label#1, label#2...)."""
        return [self.die(f"{label}#{i + 1}", sides) for i in range(count)]

    def below(self, label: str, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        return self._draw(label, "int", [n], lambda: self._below(label, n))

    def choice(self, label: str, items: Sequence[T]) -> T:
        """One of `items`, uniformly; the draw records the index."""
        if not items:
            raise ValueError("choice from an empty sequence")
        index = self._draw(label, "choice", [len(items)], lambda: self._below(label, len(items)))
        return items[index]

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates, each swap index by rejection sampling.

        The draw records the resulting permutation (as indices into `items`).
        """
        n = len(items)

        def compute() -> list[int]:
            perm = list(range(n))
            for i in range(n - 1, 0, -1):
                j = self._below(f"{label}/{i}", i + 1)
                perm[i], perm[j] = perm[j], perm[i]
            return perm

        perm = self._draw(label, "shuffle", [n], compute)
        return [items[k] for k in perm]

    def _draw(self, label: str, kind: str, args: list[int], compute: Any) -> Any:
        return self._record(label, kind, args, compute())


class Rng(RngBase):
    """The real RNG: HMAC-SHA256 of the game secret over a labelled counter."""

    def __init__(self, secret: bytes | str, stream: str,
                 overrides: dict[int, Any] | None = None) -> None:
        super().__init__()
        self._key = secret.encode("utf-8") if isinstance(secret, str) else secret
        self.stream = stream
        self.overrides = {int(k): v for k, v in (overrides or {}).items()}

    def _block(self, label: str, block: int) -> int:
        msg = f"{self.stream}|{len(self.draws)}|{label}|{block}".encode()
        return int.from_bytes(hmac.new(self._key, msg, hashlib.sha256).digest(), "big")

    def _below(self, label: str, n: int) -> int:
        # 256-bit blocks; reject the top slice that would bias the modulo.
        space = 1 << 256
        limit = space - (space % n)
        block = 0
        while True:
            value = self._block(label, block)
            if value < limit:
                return value % n
            block += 1  # practically never happens for game-sized n

    def _draw(self, label: str, kind: str, args: list[int], compute: Any) -> Any:
        index = len(self.draws)
        result = compute()
        if index in self.overrides:
            forced = self.overrides[index]
            _check_override(kind, args, forced)
            return self._record(label, kind, args, forced, computed=result)
        return self._record(label, kind, args, result)


def _check_override(kind: str, args: list[int], value: Any) -> None:
    n = args[0]
    if kind == "die" and not (isinstance(value, int) and 1 <= value <= n):
        raise ValueError(f"override {value!r} is not a d{n} result")
    if kind in ("int", "choice") and not (isinstance(value, int) and 0 <= value < n):
        raise ValueError(f"override {value!r} is not in [0, {n})")
    if kind == "shuffle" and sorted(value) != list(range(n)):
        raise ValueError("override is not a permutation")


class ScriptedRng(RngBase):
    """An RNG for tests: returns scripted results in order and fails loudly when it runs out.

    Script values are the *results* callers see: a die face for `die`, an index for
    `below`/`choice`, a permutation of indices for `shuffle`. Optionally each entry can be
    a (label_prefix, value) pair, asserting that the draw's label starts with the prefix,
    which keeps scenario tests honest about which die they are scripting.
    """

    def __init__(self, script: Sequence[Any], *, strict_end: bool = True) -> None:
        super().__init__()
        self.script = list(script)
        self.strict_end = strict_end
        self._pos = 0

    def _next(self, label: str) -> Any:
        if self._pos >= len(self.script):
            raise AssertionError(f"ScriptedRng ran out of values at draw {label!r}")
        value = self.script[self._pos]
        self._pos += 1
        if isinstance(value, tuple):
            prefix, value = value
            if not label.startswith(prefix):
                raise AssertionError(f"scripted draw expected label {prefix!r}, got {label!r}")
        return value

    def _draw(self, label: str, kind: str, args: list[int], compute: Any) -> Any:
        value = self._next(label)
        _check_override(kind, args, value)
        return self._record(label, kind, args, value)

    @property
    def remaining(self) -> int:
        return len(self.script) - self._pos


class ReplayRng(RngBase):
    """Serves recorded draws back, checking each label/kind/args matches the record.

    Used where the secret is not known (a public export before the game ends) to check
    that a record is internally consistent.
    """

    def __init__(self, draws: Sequence[Draw]) -> None:
        super().__init__()
        self._recorded = list(draws)

    def _draw(self, label: str, kind: str, args: list[int], compute: Any) -> Any:
        i = len(self.draws)
        if i >= len(self._recorded):
            raise ReplayDrawMismatch(i, "the record has no draw here", label)
        rec = self._recorded[i]
        if (rec.label, rec.kind, list(rec.args)) != (label, kind, list(args)):
            raise ReplayDrawMismatch(i, f"recorded {rec.label}/{rec.kind}{rec.args}", label)
        return self._record(label, kind, args, rec.result, rec.computed)


class ReplayDrawMismatch(AssertionError):
    def __init__(self, index: int, recorded: str, label: str) -> None:
        super().__init__(f"draw {index}: engine asked for {label!r}, {recorded}")
        self.index = index


def new_secret(entropy: bytes) -> str:
    """A hex secret from caller-supplied entropy (the service passes os.urandom(32))."""
    return entropy.hex()
