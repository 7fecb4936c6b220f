"""The Dice Age order language (built on games.core.orders.Grammar).

  PICK <die> [<die> ...]     draft: take the first of these dice still in the centre
  ROLL <die>                 your turn: roll this die
  READ <side>                a die resting between two sides: which one counts
  SKIP | RECALL <die>        level 4 icon: skip your next turn, or bring a die back
                             from your wasteland to the field
  IF <word> <op> <n> THEN <order> [ELSE <order>]   words: NUMBER DICE FIELD WASTELAND
  STANDING <order>           kept for later decisions; settles them without asking you
  CANCEL STANDING [n|ALL]

Several lines are tried in order; the first that fits the decision and is legal now is
carried out, then your standing orders, then the default.
"""

from __future__ import annotations

from typing import Any

from games.core.orders import (
    Grammar,
    OrderSyntax,
    choose,
    compare,
    expect_word,
    order_lines,
    parse_comparison,
)
from games.core.types import OrderError, Orders, OrdersInvalid

from .dice import DICE, ICONS, ROMAN, Face, face_text, read
from .state import NO_NUMBER, State, in_pool, owned, playable

CONDITION_WORDS = ("NUMBER", "DICE", "FIELD", "WASTELAND")
OPS_FOR = {"draft": ("pick",), "roll": ("roll",), "read": ("read",),
           "icon": ("skip", "recall")}
Ctx = tuple[State, str]


def _die(token: str, state: State) -> str:
    return expect_word(token.strip(",").upper(), list(state["dice"]), "die")


def _pick(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    names = [t for t in " ".join(tokens).replace(",", " ").split() if t]
    if not names:
        raise OrderSyntax("PICK needs at least one die", "e.g. PICK TANK MINE")
    dice = [_die(t, ctx[0]) for t in names]
    return {"op": "pick", "dice": list(dict.fromkeys(dice))}


def _roll(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("ROLL takes exactly one die", "e.g. ROLL CASTLE")
    return {"op": "roll", "die": _die(tokens[0], ctx[0])}


def parse_face(token: str) -> Face:
    word = token.strip()
    if word.lstrip("-").isdigit():
        return int(word)
    if word.upper() in ROMAN:
        return word.upper()
    if word.lower() in ICONS:
        return word.lower()
    raise OrderSyntax(f"{token!r} is not a side of a die", "write a number or an icon name")


def _read(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("READ takes one side", "e.g. READ 10")
    return {"op": "read", "face": parse_face(tokens[0])}


def _skip(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if tokens:
        raise OrderSyntax("SKIP takes nothing after it")
    return {"op": "skip"}


def _recall(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("RECALL takes exactly one die", "e.g. RECALL TANK")
    return {"op": "recall", "die": _die(tokens[0], ctx[0])}


def _condition(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    return parse_comparison(tokens, CONDITION_WORDS)


def render(order: dict[str, Any]) -> str:
    op = order["op"]
    if op == "pick":
        return "PICK " + " ".join(order["dice"])
    if op in ("roll", "recall"):
        return f"{op.upper()} {order['die']}"
    if op == "read":
        return f"READ {face_text(order['face'])}"
    return op.upper()


GRAMMAR = Grammar({"PICK": _pick, "ROLL": _roll, "READ": _read, "SKIP": _skip,
                   "RECALL": _recall}, condition=_condition, render=render)


# -- what is legal now ------------------------------------------------------------------
def measure(state: State, seat: str, word: str) -> int:
    if word == "NUMBER":
        return NO_NUMBER if state["number"] is None else state["number"]
    if word == "DICE":
        return len(playable(state, seat))
    if word == "FIELD":
        return len(owned(state, seat, "field"))
    return len(owned(state, seat, "wasteland"))


def holds(state: State, seat: str, cond: dict[str, Any]) -> bool:
    return compare(cond["op"], measure(state, seat, cond["name"]), cond["value"])


def problem(state: State, seat: str, order: dict[str, Any]) -> str | None:
    """Why `order` cannot settle the decision pending now, or None when it can."""
    pending = state["pending"]
    if pending is None or pending["seat"] != seat:
        return "you owe no decision now"
    kind = pending["kind"]
    op = order["op"]
    if op not in OPS_FOR[kind]:
        wanted = " or ".join(o.upper() for o in OPS_FOR[kind])
        return f"{op.upper()} does not answer this decision (it wants {wanted})"
    if op == "pick" and not any(d in in_pool(state) for d in order["dice"]):
        return "none of these dice is still in the centre"
    if op == "roll" and order["die"] not in playable(state, seat):
        return f"{order['die']} is not one of the dice you can roll now"
    if op == "read" and order["face"] not in pending["sides"]:
        return f"the die does not rest on {face_text(order['face'])}"
    if op == "recall" and order["die"] not in owned(state, seat, "wasteland"):
        return f"{order['die']} is not in your wasteland"
    if op in ("skip", "recall") and state["level"] < 4:
        return "the icon choice exists from level 4 on"
    return None


def legal_lines(state: State, seat: str) -> list[str]:
    pending = state["pending"]
    if pending is None or pending["seat"] != seat:
        return []
    kind = pending["kind"]
    if kind == "draft":
        return [f"PICK {d}" for d in in_pool(state)]
    if kind == "roll":
        return [f"ROLL {d}" for d in playable(state, seat)]
    if kind == "read":
        return [f"READ {face_text(f)}" for f in pending["sides"]]
    return ["SKIP"] + [f"RECALL {d}" for d in owned(state, seat, "wasteland")]


def pick_order(state: State, seat: str, items: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first item that, read now, answers the pending decision legally."""
    for item in items:
        order = choose(item, lambda cond: holds(state, seat, cond))
        if order is not None and problem(state, seat, order) is None:
            return order
    return None


# -- parsing ------------------------------------------------------------------------------
def parse(state: State, seat: str, text: str) -> Orders:
    """Every line is read; each error (syntax, or an order this decision cannot take now)
    is reported with its line. Standing orders are only checked for their words: they
    wait for a later decision.
    """
    items: list[dict[str, Any]] = []
    errors: list[OrderError] = []
    for line in order_lines(text):
        try:
            item = GRAMMAR.parse_line(line.text, (state, seat))
        except OrderSyntax as exc:
            errors.append(OrderError(line.number, exc.message, exc.hint))
            continue
        if "cancel" in item or item.get("standing"):
            items.append(item)
            continue
        branches = [item["order"]] if "order" in item else \
            [o for o in (item["then"], item.get("else")) if o]
        for order in branches:
            why = problem(state, seat, order)
            if why:
                legal = legal_lines(state, seat)
                hint = ("choose from: " + ", ".join(legal[:12])) if legal else ""
                errors.append(OrderError(line.number, why, hint))
                break
        else:
            items.append(item)
    if errors:
        raise OrdersInvalid(errors, [GRAMMAR.render(i) for i in items])
    return Orders(seat, items, "\n".join(GRAMMAR.render(i) for i in items))


def default(state: State, seat: str) -> Orders:
    order = default_order(state, seat)
    items = [{"order": order}] if order else []
    return Orders(seat, items, "\n".join(GRAMMAR.render(i) for i in items), default=True)


def default_order(state: State, seat: str) -> dict[str, Any] | None:
    """A cautious player's choice: the lowest-average die, the lowest side that is safe."""
    pending = state["pending"]
    if pending is None or pending["seat"] != seat:
        return None
    kind = pending["kind"]
    if kind == "draft":
        die = min(in_pool(state), key=lambda d: DICE[d].average)
        return {"op": "pick", "dice": [die]}
    if kind == "roll":
        return {"op": "roll", "die": min(playable(state, seat), key=lambda d: DICE[d].average)}
    if kind == "read":
        return {"op": "read", "face": min(pending["sides"], key=lambda f: _risk(state, f))}
    recallable = owned(state, seat, "wasteland")
    return {"op": "recall", "die": min(recallable, key=lambda d: DICE[d].average)}


def _risk(state: State, face: Face) -> tuple[int, int]:
    """Lower is better: a safe number (lowest first), then an icon, then an overshoot."""
    kind, value = read(face)
    if kind == "icon":
        return (1, 0)
    limit = NO_NUMBER if state["number"] is None else state["number"]
    return (0, int(value)) if int(value) <= limit else (2, int(value))


def prompt(state: State, seat: str) -> dict[str, Any]:
    kind = state["pending"]["kind"]
    choices = legal_lines(state, seat)
    titles = {
        "draft": "Pick a die from the centre",
        "roll": "Your turn: choose a die to roll",
        "read": "Your die rests between two sides: choose the one that counts",
        "icon": "You rolled an icon: skip your next turn, or recall a die",
    }
    helps = {
        "draft": "PICK lists dice in order of preference; the first still free is taken. "
                 "STANDING PICK ... keeps picking for you in later rounds of the draft.",
        "roll": "Roll no higher than the current Number or you lose (see the board). "
                "IF NUMBER < 6 THEN ROLL A ELSE ROLL B; STANDING ROLL A rolls A whenever "
                "it is your turn and A can be rolled.",
        "read": "READ the side you want.",
        "icon": "SKIP, or RECALL a die from your wasteland to your side of the field.",
    }
    return {"title": titles[kind], "help": helps[kind], "choices": choices,
            "example": choices[0] if choices else ""}
