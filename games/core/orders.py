"""The order language every game shares.

One order per line; keywords are case-insensitive; `#` starts a comment; a line `END`,
a signature separator (`--`) or a quoted reply block (`> ...`, `On ... wrote:`) ends the
orders, so a mail client's quoting never becomes orders. On top of a game's own
keywords the grammar provides:

* `IF <condition> THEN <order> [ELSE <order>]` - conditional orders, kept as data and
  evaluated by the engine inside `resolve`;
* `STANDING <order>` - an order kept from turn to turn until cancelled;
* `CANCEL STANDING [n|ALL]` - drop standing orders.

Errors carry the 1-based line number, a message and a hint; an unknown keyword gets a
"did you mean" from the game's vocabulary.
"""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .types import OrderError, OrdersInvalid

Order = dict[str, Any]
Handler = Callable[[list[str], Any], Order]
ConditionParser = Callable[[list[str], Any], dict[str, Any]]

_QUOTE_INTRO = re.compile(r"^on\b.+\bwrote:?$", re.IGNORECASE)
_COMPARATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "=": operator.eq, "==": operator.eq, "!=": operator.ne, "<>": operator.ne,
}


class OrderSyntax(ValueError):
    """Raised by a keyword handler; the grammar adds the line number."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class Line:
    number: int
    text: str


def order_lines(text: str) -> list[Line]:
    """The meaningful lines of an order text, with their original 1-based numbers."""
    lines: list[Line] = []
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        stripped = raw.strip()
        if stripped.upper() == "END" or stripped in ("--", "-- ") or raw.startswith("-- "):
            break
        if stripped.startswith(">") or _QUOTE_INTRO.match(stripped):
            break
        body = stripped.split("#", 1)[0].strip()
        if body:
            lines.append(Line(number, " ".join(body.split())))
    return lines


def suggest(word: str, vocabulary: Iterable[str]) -> str:
    """A "did you mean" hint, or a list of the allowed words when nothing is close."""
    vocab = sorted({v.upper() for v in vocabulary})
    close = difflib.get_close_matches(word.upper(), vocab, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]}?"
    return "expected one of: " + ", ".join(vocab)


def expect_int(token: str, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """Parse an integer argument with a clear error naming what was expected."""
    try:
        value = int(token)
    except ValueError:
        raise OrderSyntax(f"{what} must be a number, not {token!r}") from None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"{lo}..{hi}" if lo is not None and hi is not None else (
            f">= {lo}" if lo is not None else f"<= {hi}")
        raise OrderSyntax(f"{what} {value} is out of range", f"use {rng}")
    return value


def expect_word(token: str, choices: Iterable[str], what: str) -> str:
    """Match a token against allowed words (case-insensitive) and return the canonical one."""
    options = list(choices)
    by_upper = {c.upper(): c for c in options}
    if token.upper() in by_upper:
        return by_upper[token.upper()]
    raise OrderSyntax(f"unknown {what} {token!r}", suggest(token, options))


def parse_comparison(tokens: list[str], names: Iterable[str]) -> dict[str, Any]:
    """`<NAME> <op> <int>`, e.g. `LIFE < 5`; names are the game's condition words (the
    first one also gives the example in the hint)."""
    joined = " ".join(tokens)
    names = list(names)
    match = re.fullmatch(r"\s*([A-Za-z_][\w-]*)\s*(<=|>=|==|!=|<>|<|>|=)\s*(-?\d+)\s*", joined)
    if not match:
        # The example comes from the game's own condition words, never another game's.
        example = f"write e.g. {names[0].upper()} < 2" if names else "write <NAME> <op> <number>"
        raise OrderSyntax(f"cannot read condition {joined!r}", example)
    name = expect_word(match.group(1), names, "condition")
    return {"test": "compare", "name": name, "op": match.group(2), "value": int(match.group(3))}


def compare(op: str, left: int, right: int) -> bool:
    return _COMPARATORS[op](left, right)


class Grammar:
    """A game's order grammar: its keywords, how to read conditions, how to print orders.

    `keywords` maps a keyword to a handler taking the remaining tokens and a context
    object (whatever the engine passes, usually the state and seat) and returning an
    order dict that includes "op". `render` turns an order back into canonical text.
    `no_conditions`: the error for an IF line where this grammar has no conditions (a
    game whose orders have them later, e.g. after a setup choice, says when they apply).
    """

    def __init__(self, keywords: dict[str, Handler], *,
                 condition: ConditionParser | None = None,
                 render: Callable[[Order], str] | None = None,
                 standing: bool = True,
                 no_conditions: str = "this game has no conditional orders") -> None:
        self.keywords = {k.upper(): v for k, v in keywords.items()}
        self.no_conditions = no_conditions
        self.condition = condition
        self.render_order = render or default_render
        self.standing = standing

    # -- parsing ------------------------------------------------------------
    def parse(self, text: str, ctx: Any = None) -> tuple[list[dict[str, Any]], list[str]]:
        """Return (items, canonical lines) or raise OrdersInvalid with every error."""
        items: list[dict[str, Any]] = []
        errors: list[OrderError] = []
        for line in order_lines(text):
            try:
                items.append(self.parse_line(line.text, ctx))
            except OrderSyntax as exc:
                errors.append(OrderError(line.number, exc.message, exc.hint))
        if errors:
            raise OrdersInvalid(errors, [self.render(i) for i in items])
        return items, [self.render(i) for i in items]

    def parse_line(self, text: str, ctx: Any) -> dict[str, Any]:
        tokens = text.split()
        head = tokens[0].upper()
        if head == "IF":
            return self._conditional(text, ctx)
        if head == "STANDING" and self.standing:
            if len(tokens) < 2:
                raise OrderSyntax("STANDING needs an order after it", "e.g. STANDING " +
                                  next(iter(self.keywords), "ORDER"))
            inner = self.parse_line(" ".join(tokens[1:]), ctx)
            if "cancel" in inner or inner.get("standing"):
                raise OrderSyntax("that order cannot be standing")
            return {**inner, "standing": True}
        if head == "CANCEL" and self.standing and len(tokens) >= 2 and \
                tokens[1].upper() == "STANDING":
            if len(tokens) == 2 or tokens[2].upper() == "ALL":
                return {"cancel": "all"}
            return {"cancel": expect_int(tokens[2], "standing order number", lo=1)}
        return self.simple(tokens, ctx)

    def simple(self, tokens: list[str], ctx: Any) -> dict[str, Any]:
        head = tokens[0].upper()
        handler = self.keywords.get(head)
        if handler is None:
            extra = (["IF"] if self.condition else []) + (
                ["STANDING", "CANCEL"] if self.standing else [])
            raise OrderSyntax(f"unknown order {tokens[0]!r}",
                              suggest(tokens[0], list(self.keywords) + extra))
        order = handler(tokens[1:], ctx)
        order.setdefault("op", head.lower())
        return {"order": order}

    def _conditional(self, text: str, ctx: Any) -> dict[str, Any]:
        if self.condition is None:
            raise OrderSyntax(self.no_conditions)
        match = re.fullmatch(r"IF\s+(.+?)\s+THEN\s+(.+?)(?:\s+ELSE\s+(.+))?", text,
                             re.IGNORECASE)
        if not match:
            raise OrderSyntax("a conditional order reads IF <condition> THEN <order>",
                              "add THEN and the order to carry out")
        cond = self.condition(match.group(1).split(), ctx)
        then = self.simple(match.group(2).split(), ctx)["order"]
        other = self.simple(match.group(3).split(), ctx)["order"] if match.group(3) else None
        return {"if": cond, "then": then, "else": other}

    # -- rendering ----------------------------------------------------------
    def render(self, item: dict[str, Any]) -> str:
        if "cancel" in item:
            return "CANCEL STANDING" + ("" if item["cancel"] == "all" else f" {item['cancel']}")
        prefix = "STANDING " if item.get("standing") else ""
        if "if" in item:
            text = f"IF {render_condition(item['if'])} THEN {self.render_order(item['then'])}"
            if item.get("else"):
                text += f" ELSE {self.render_order(item['else'])}"
            return prefix + text
        return prefix + self.render_order(item["order"])


def default_render(order: Order) -> str:
    parts = [str(order["op"]).upper()]
    for key, value in order.items():
        if key == "op":
            continue
        if isinstance(value, list):
            parts.extend(str(v) for v in value)
        elif value is not None and value is not False:
            parts.append(str(value) if value is not True else key.upper())
    return " ".join(parts)


def render_condition(cond: dict[str, Any]) -> str:
    if cond.get("test") == "compare":
        return f"{cond['name']} {cond['op']} {cond['value']}"
    return cond.get("text") or " ".join(str(v) for k, v in sorted(cond.items()) if k != "test")


def choose(item: dict[str, Any], test: Callable[[dict[str, Any]], bool]) -> Order | None:
    """The order an item stands for now: plain, or THEN/ELSE of a conditional."""
    if "order" in item:
        return item["order"]
    if "if" in item:
        return item["then"] if test(item["if"]) else item.get("else")
    return None


def merge_standing(standing: list[dict[str, Any]], items: list[dict[str, Any]]
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply CANCEL and new STANDING items to a seat's standing list.

    Returns (new standing list, this turn's items). This turn's items are the
    non-standing orders followed by every standing order still in force; engines give
    the earlier item precedence where two orders compete.
    """
    kept = [dict(s) for s in standing]
    turn: list[dict[str, Any]] = []
    for item in items:
        if "cancel" in item:
            if item["cancel"] == "all":
                kept = []
            elif 1 <= item["cancel"] <= len(kept):
                kept.pop(item["cancel"] - 1)
        elif item.get("standing"):
            kept.append({k: v for k, v in item.items() if k != "standing"})
        else:
            turn.append(item)
    return kept, turn + [dict(s) for s in kept]
