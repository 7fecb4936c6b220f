"""Dice expressions and deck draws for the GM's adjudication.

An expression is terms joined by `+` and `-`: a number, or dice `NdS` (N defaults
to 1) optionally followed by `keep K` / `kh K` (the K highest) or `kl K` (the K
lowest). Examples: `2d6+1`, `d100`, `4d6 keep 3`, `3d8 - 2`. Every die is one
labelled draw of the engine's RNG, so the game's committed secret decides it and the
verifier recomputes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.core.rng import RngBase

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 10

_TERM = re.compile(
    r"\s*([+-])?\s*(?:(\d*)\s*d\s*(\d+)(?:\s*(keep|kh|kl)\s*(\d+))?|(\d+))\s*", re.I)


class DiceError(ValueError):
    """An expression that cannot be rolled; the message says why, for the GM."""


@dataclass(frozen=True)
class Term:
    sign: int
    count: int  # 0 for a constant
    sides: int
    keep: str = ""  # "", "high" or "low"
    kept: int = 0
    value: int = 0  # the constant

    def to_json(self) -> dict[str, Any]:
        return {"sign": self.sign, "count": self.count, "sides": self.sides,
                "keep": self.keep, "kept": self.kept, "value": self.value}


def parse(expr: str) -> list[Term]:
    """The terms of `expr`, or DiceError naming what is wrong."""
    text = expr.strip()
    if not text:
        raise DiceError("an empty dice expression; write e.g. 2d6+1, d100 or 4d6 keep 3")
    terms: list[Term] = []
    pos = 0
    while pos < len(text):
        m = _TERM.match(text, pos)
        if not m or m.end() == pos:
            raise DiceError(f"cannot read {text[pos:]!r} in the dice expression {text!r}; "
                            "write e.g. 2d6+1, d100 or 4d6 keep 3")
        sign_text, count, sides, keep, kept, const = m.groups()
        if terms and not sign_text:
            raise DiceError(f"terms of {text!r} must be joined with + or -")
        sign = -1 if sign_text == "-" else 1
        if const is not None:
            terms.append(Term(sign, 0, 0, value=int(const)))
        else:
            n = int(count) if count else 1
            s = int(sides)
            if not 1 <= n <= MAX_DICE:
                raise DiceError(f"{n} dice: roll 1 to {MAX_DICE} dice at once")
            if not 2 <= s <= MAX_SIDES:
                raise DiceError(f"d{s}: a die has 2 to {MAX_SIDES} sides")
            mode = "" if not keep else ("low" if keep.lower() == "kl" else "high")
            k = int(kept) if kept else 0
            if keep and not 1 <= k <= n:
                raise DiceError(f"keep {k} of {n} dice: keep 1 to {n}")
            terms.append(Term(sign, n, s, mode, k))
        pos = m.end()
        if len(terms) > MAX_TERMS:
            raise DiceError(f"at most {MAX_TERMS} terms in one expression")
    return terms


def roll(rng: RngBase, label: str, expr: str) -> dict[str, Any]:
    """Roll `expr` through `rng`, each die a draw labelled `label#k`; the result with
    every die, which were kept and the total."""
    terms = parse(expr)
    total = 0
    parts: list[dict[str, Any]] = []
    k = 0
    for term in terms:
        if term.count == 0:
            total += term.sign * term.value
            parts.append({"const": term.sign * term.value})
            continue
        faces = []
        for _ in range(term.count):
            k += 1
            faces.append(rng.die(f"{label}#{k}", term.sides))
        kept = list(range(len(faces)))
        if term.keep:
            order = sorted(range(len(faces)), key=lambda i: (faces[i], i),
                           reverse=term.keep == "high")
            kept = sorted(order[:term.kept])
        subtotal = sum(faces[i] for i in kept)
        total += term.sign * subtotal
        parts.append({"dice": f"{term.count}d{term.sides}", "sign": term.sign,
                      "faces": faces, "kept": kept})
    return {"expr": " ".join(expr.split()), "parts": parts, "total": total}


def describe(result: dict[str, Any]) -> str:
    """`2d6+1 = [3, 5] + 1 = 9`, with dropped dice struck through."""
    shown: list[str] = []
    for part in result["parts"]:
        if "const" in part:
            value = part["const"]
            shown.append(f"{'-' if value < 0 else '+'} {abs(value)}")
            continue
        faces = ", ".join(str(f) if i in part["kept"] else f"~~{f}~~"
                          for i, f in enumerate(part["faces"]))
        shown.append(f"{'-' if part['sign'] < 0 else '+'} [{faces}]")
    text = " ".join(shown)
    if text.startswith("+ "):
        text = text[2:]
    return f"{result['expr']}: {text} = **{result['total']}**"


def draw(rng: RngBase, label: str, deck: dict[str, Any], count: int) -> list[str]:
    """Draw `count` cards without replacement from `deck` (mutated: its `left` loses
    them); each draw one labelled RNG draw among the cards left."""
    cards: list[str] = []
    for k in range(count):
        if not deck["left"]:
            break
        index = rng.below(f"{label}#{k + 1}", len(deck["left"]))
        cards.append(deck["left"].pop(index))
    return cards
