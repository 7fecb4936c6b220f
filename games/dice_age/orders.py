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

import re
from typing import Any

from games.core.orders import (
    Grammar,
    OrderSyntax,
    choose,
    compare,
    expect_int,
    expect_word,
    order_lines,
)
from games.core.types import OrderError, Orders, OrdersInvalid

from .dice import COLOURS, DICE, ICONS, ROMAN, Face, face_text, read, spec
from .levels import rules
from .order_text import WINDOW_OP, render
from .rules.windows import square_problem
from .state import NO_NUMBER, State, barred, dice_order, in_pool, owned, playable, rollable

CONDITION_WORDS = ("NUMBER", "DICE", "FIELD", "WASTELAND", "ROLL")
OPS_FOR = {"draft": ("pick",), "roll": ("roll",), "read": ("read",),
           "icon": ("skip", "recall"),
           "target": ("pit", "skip", "cannon", "radiation", "capture", "attack", "pass",
                      "pick"),
           "triangle": ("triangle", "keep"), "chaos": ("apply",), "defend": ("defend",),
           "react": ("gear", "smile", "pair", "double", "nut", "instead", "pass"),
           "legion": ("legion", "general", "reserve")}
EFFECTS = ("pit", "blank", "cannon", "capture", "square")
Ctx = tuple[State, str]


def _die(token: str, state: State) -> str:
    known = dice_order(state) or list(DICE)
    return expect_word(token.strip(",").upper(), known, "die")


def _type(token: str) -> str:
    return expect_word(token.strip(",").upper(), list(DICE), "die")


def _seat(token: str, state: State) -> str:
    return expect_word(token.upper(), state["seats"], "seat")


def _pick(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    names = [t for t in " ".join(tokens).replace(",", " ").split() if t]
    if not names:
        raise OrderSyntax("PICK needs at least one die", "e.g. PICK TANK MINE")
    dice = [_die(t, ctx[0]) for t in names]
    return {"op": "pick", "dice": list(dict.fromkeys(dice))}


def _one_die(word: str, example: str) -> Any:
    def handler(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
        if len(tokens) != 1:
            raise OrderSyntax(f"{word} takes exactly one die", f"e.g. {word} {example}")
        return {"op": word.lower(), "die": _die(tokens[0], ctx[0])}
    return handler


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
    """SKIP alone: level 4's icon choice; SKIP <seat>: the blank side's target (level 5)."""
    if not tokens:
        return {"op": "skip"}
    if len(tokens) != 1:
        raise OrderSyntax("SKIP takes one player or nothing", "e.g. SKIP P2")
    return {"op": "skip", "seat": _seat(tokens[0], ctx[0])}


def _blank(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("BLANK takes one player", "e.g. BLANK P2")
    return {"op": "skip", "seat": _seat(tokens[0], ctx[0])}


def _cannon(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("CANNON takes one player to duel", "e.g. CANNON P2")
    return {"op": "cannon", "seat": _seat(tokens[0], ctx[0])}


def _radiation(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("RADIATION takes one colour", "e.g. RADIATION RED")
    return {"op": "radiation", "colour": expect_word(tokens[0], COLOURS, "colour").lower()}


def _triangle(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("TRIANGLE takes one die (or ALL)", "e.g. TRIANGLE FERN")
    if tokens[0].upper() == "ALL":
        return {"op": "triangle", "die": None}
    return {"op": "triangle", "die": _die(tokens[0], ctx[0])}


def _apply(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("APPLY takes one icon", "e.g. APPLY CROSS")
    return {"op": "apply", "icon": expect_word(tokens[0], ICONS, "icon").lower()}


def _square(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 2:
        raise OrderSyntax("SQUARE takes a player and his die", "e.g. SQUARE P2 TANK")
    return {"op": "square", "seat": _seat(tokens[0], ctx[0]), "die": _die(tokens[1], ctx[0])}


def _postfix(tokens: list[str], ctx: Ctx, word: str) -> tuple[list[str], dict[str, Any]]:
    """Split `... [IF <a> <op> <b>] [WHEN <icon> | WHEN TARGETED [BY <effect>]]`."""
    extra: dict[str, Any] = {}
    head: list[str] = []
    key, part = None, []
    for token in [*tokens, "END"]:
        up = token.upper()
        if up in ("IF", "WHEN", "END"):
            if key == "IF":
                extra["cond"] = _condition(part, ctx)
            elif key == "WHEN":
                extra["when"] = _when(part, word)
            elif key is None:
                head = part
            if up in extra or (up == "IF" and "cond" in extra) or \
                    (up == "WHEN" and "when" in extra):
                raise OrderSyntax(f"{up} appears twice in one {word} order")
            key, part = up, []
        else:
            part.append(token)
    return head, extra


def _when(tokens: list[str], word: str) -> dict[str, Any]:
    up = [t.upper() for t in tokens]
    if up and up[0] == "TARGETED":
        if len(up) == 1:
            return {"targeted": True, "by": None}
        if len(up) == 3 and up[1] == "BY":
            return {"targeted": True, "by": expect_word(up[2], EFFECTS, "effect").lower()}
        raise OrderSyntax("write WHEN TARGETED or WHEN TARGETED BY <effect>",
                          "e.g. NUT WHEN TARGETED BY PIT")
    if len(up) == 1:
        return {"icon": expect_word(up[0], ICONS, "icon").lower()}
    raise OrderSyntax(f"cannot read WHEN {' '.join(tokens)}", f"e.g. {word} WHEN CROSS")


def _reaction(word: str) -> Any:
    def handler(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
        rest, extra = _postfix(tokens, ctx, word)
        order: dict[str, Any] = {"op": word.lower()}
        if word == "SMILE":
            if not rest or rest[0] not in ("+", "-"):
                raise OrderSyntax("SMILE needs + or -", "e.g. SMILE - or SMILE + 4")
            order["sign"] = rest[0]
            order["value"] = expect_int(rest[1], "the d6", 1, 6) if len(rest) > 1 else None
            if len(rest) > 2:
                raise OrderSyntax("SMILE takes a sign and at most one d6 value")
        elif word in ("GEAR", "PAIR"):
            if len(rest) > 1:
                raise OrderSyntax(f"{word} takes at most one die", f"e.g. {word}")
            order["die"] = _die(rest[0], ctx[0]) if rest else None
        elif rest:
            raise OrderSyntax(f"{word} takes no die", f"e.g. {word} or {word} WHEN ...")
        order.update(cond=extra.get("cond"), when=extra.get("when"))
        return order
    return handler


def _pass(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) > 1:
        raise OrderSyntax("PASS takes at most one reaction", "e.g. PASS GEAR")
    kind = expect_word(tokens[0], [k.upper() for k in WINDOW_OP], "reaction").lower() \
        if tokens else None
    return {"op": "pass", "kind": kind}


def _legion(word: str) -> Any:
    def handler(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
        names = [t for t in " ".join(tokens).replace(",", " ").split() if t]
        if not names and word != "RESERVE":
            raise OrderSyntax(f"{word} needs dice", f"e.g. {word} CASTLE CASTLE TANK")
        if word == "GENERAL":
            if len(names) != 1:
                raise OrderSyntax("GENERAL names one die of your Legion", "e.g. GENERAL TANK")
            return {"op": "general", "die": _type(names[0])}
        return {"op": word.lower(), "dice": [_type(n) for n in names]}
    return handler


def _condition(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """`<word> <op> <number|word>`: IF ROLL > NUMBER, IF NUMBER < 6."""
    joined = " ".join(tokens)
    match = re.fullmatch(r"\s*([A-Za-z]+)\s*(<=|>=|==|!=|<>|<|>|=)\s*(-?\d+|[A-Za-z]+)\s*",
                         joined)
    if not match:
        raise OrderSyntax(f"cannot read condition {joined!r}", "write e.g. NUMBER < 6")
    left = expect_word(match.group(1), CONDITION_WORDS, "condition")
    right: Any = match.group(3)
    right = int(right) if right.lstrip("-").isdigit() else \
        expect_word(right, CONDITION_WORDS, "condition")
    return {"test": "compare", "name": left, "op": match.group(2), "value": right}


def _base(order: dict[str, Any]) -> str:
    """The order without its IF/WHEN tail: what the legal choices list."""
    return render({k: v for k, v in order.items() if k not in ("cond", "when")})


GRAMMAR = Grammar({"PICK": _pick, "ROLL": _roll, "READ": _read, "SKIP": _skip,
                   "RECALL": _one_die("RECALL", "TANK"), "BLANK": _blank,
                   "PIT": _one_die("PIT", "TANK"), "CANNON": _cannon, "DUEL": _cannon,
                   "DEFEND": _one_die("DEFEND", "TANK"),
                   "ATTACK": _one_die("ATTACK", "ROCKET"),
                   "RADIATION": _radiation, "CAPTURE": _one_die("CAPTURE", "FERN"),
                   "TRIANGLE": _triangle, "KEEP": _one_die("KEEP", "MOSS"), "APPLY": _apply,
                   "GEAR": _reaction("GEAR"), "SMILE": _reaction("SMILE"),
                   "DOUBLE": _reaction("DOUBLE"), "NUT": _reaction("NUT"),
                   "PAIR": _reaction("PAIR"), "INSTEAD": _one_die("INSTEAD", "FERN"),
                   "PASS": _pass, "SQUARE": _square, "LEGION": _legion("LEGION"),
                   "GENERAL": _legion("GENERAL"), "RESERVE": _legion("RESERVE")},
                  condition=_condition, render=render)


# -- what is legal now ------------------------------------------------------------------
def measure(state: State, seat: str, word: str | int) -> int | None:
    if isinstance(word, int):
        return word
    if word == "NUMBER":
        return NO_NUMBER if state["number"] is None else state["number"]
    if word == "DICE":
        return len(playable(state, seat))
    if word == "FIELD":
        return len(owned(state, seat, "field"))
    if word == "ROLL":
        if not rules(state).effects:
            return None
        from .rules.effects import roll_number
        return roll_number(state)
    return len(owned(state, seat, "wasteland"))


def holds(state: State, seat: str, cond: dict[str, Any]) -> bool:
    left, right = measure(state, seat, cond["name"]), measure(state, seat, cond["value"])
    return left is not None and right is not None and compare(cond["op"], left, right)


def _when_holds(state: State, order: dict[str, Any]) -> bool:
    when = order.get("when")
    if not when:
        return True
    pending = state["pending"]
    if when.get("targeted"):
        return pending.get("window") == "nut" and when["by"] in (None, pending.get("effect"))
    if pending.get("window") == "double":
        return pending.get("icon") == when["icon"]
    roll = state.get("roll") or {}
    die = roll.get("die")
    return bool(die) and state["dice"][die]["face"] == when["icon"]


def problem(state: State, seat: str, order: dict[str, Any], *, conditions: bool = True
            ) -> str | None:
    """Why `order` cannot settle the decision pending now, or None when it can."""
    pending = state["pending"]
    if pending is None:
        return "you owe no decision now"
    kind = pending["kind"]
    if kind == "legion":
        if seat not in pending["seats"]:
            return "you owe no decision now"
    elif pending["seat"] != seat:
        return "you owe no decision now"
    op = order["op"]
    if op not in OPS_FOR[kind]:
        wanted = " or ".join(o.upper() for o in OPS_FOR[kind])
        return f"{op.upper()} does not answer this decision (it wants {wanted})"
    if kind == "legion":
        return None
    if "legal" in pending:
        return _legal_problem(state, order, conditions)
    if op == "pick" and not any(d in in_pool(state) for d in order["dice"]):
        return "none of these dice is still in the centre"
    if op == "roll" and order["die"] not in rollable(state, seat):
        if rules(state).never_twice and order["die"] in barred(state, seat):
            return f"{order['die']} made your last main roll: never the same die twice in a row"
        return f"{order['die']} is not one of the dice you can roll now"
    if op == "read" and order["face"] not in pending["sides"]:
        return f"the die does not rest on {face_text(order['face'])}"
    if op == "recall" and order["die"] not in owned(state, seat, "wasteland"):
        return f"{order['die']} is not in your wasteland"
    if op in ("skip", "recall") and (not rules(state).icon_recall or order.get("seat")):
        return "the icon choice exists at level 4 only"
    return None


def _legal_problem(state: State, order: dict[str, Any], conditions: bool) -> str | None:
    pending = state["pending"]
    legal = pending["legal"]
    op = order["op"]
    if op == "pass":
        if "PASS" not in legal:
            return "you must choose here: PASS is not allowed"
        if order.get("kind") and order["kind"] != pending.get("window"):
            return f"this is the {pending.get('window')} window, not {order['kind']}"
        return None
    if op == "smile" and order.get("value") is None:
        ok = any(line.startswith(f"SMILE {order['sign']} ") for line in legal)
    elif op in ("gear", "pair") and order.get("die") is None:
        ok = any(line.split()[0] == op.upper() for line in legal)
    else:
        ok = _base(order) in legal
    if not ok:
        return f"{_base(order)} is not open to you now"
    if conditions and order.get("cond") and not holds(state, pending["seat"], order["cond"]):
        return "its IF condition does not hold now"
    if conditions and not _when_holds(state, order):
        return "its WHEN moment is not this one"
    return None


def legal_lines(state: State, seat: str) -> list[str]:
    pending = state["pending"]
    if pending is None:
        return []
    kind = pending["kind"]
    if kind == "legion":
        return legion_examples(state) if seat in pending["seats"] else []
    if pending["seat"] != seat:
        return []
    if "legal" in pending:
        return list(pending["legal"])
    if kind == "draft":
        return [f"PICK {d}" for d in in_pool(state)]
    if kind == "roll":
        return [f"ROLL {d}" for d in rollable(state, seat)]
    if kind == "read":
        return [f"READ {face_text(f)}" for f in pending["sides"]]
    return ["SKIP"] + [f"RECALL {d}" for d in owned(state, seat, "wasteland")]


def pick_order(state: State, seat: str, items: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first item that, read now, answers the pending decision legally."""
    for item in items:
        order = choose(item, lambda cond: holds(state, seat, cond))
        if order is None or order["op"] in ("square", "legion", "general", "reserve"):
            continue
        if problem(state, seat, order) is None:
            return order
    return None


def standing_answer(state: State, seat: str) -> dict[str, Any] | None:
    """What the seat's standing orders say to the pending decision, if anything.

    In a reaction window, standing reactions of that kind answer it: the first whose
    IF/WHEN holds is carried out; when none holds (or a PASS of that kind stands) the seat
    does not react, and is not asked.
    """
    pending = state["pending"]
    if pending is None or pending["kind"] == "legion":
        return None
    order = pick_order(state, seat, state["standing"][seat])
    if order is not None or pending["kind"] != "react":
        return order
    window = pending["window"]
    for item in state["standing"][seat]:
        for o in [item.get("order"), item.get("then"), item.get("else")]:
            if o and (o["op"] == WINDOW_OP[window] or
                      (o["op"] == "pass" and o.get("kind") in (window, None))):
                return {"op": "pass", "kind": window}
    return None


# -- parsing ------------------------------------------------------------------------------
def parse(state: State, seat: str, text: str) -> Orders:
    """Every line is read; each error (syntax, or an order this decision cannot take now)
    is reported with its line. Standing orders are only checked for their words: they
    wait for a later decision. A reaction's IF/WHEN tail is not an error when it does not
    hold: the line is simply passed over.
    """
    items: list[dict[str, Any]] = []
    errors: list[OrderError] = []
    legion_lines: list[tuple[int, dict[str, Any]]] = []
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
            if order["op"] == "square":
                why = square_problem(state, seat, order)
            else:
                why = problem(state, seat, order, conditions=False)
            if why:
                legal = legal_lines(state, seat)
                hint = ("choose from: " + ", ".join(legal[:12])) if legal else ""
                errors.append(OrderError(line.number, why, hint))
                break
        else:
            items.append(item)
            if "order" in item and item["order"]["op"] in ("legion", "general", "reserve"):
                legion_lines.append((line.number, item["order"]))
    if legion_lines and not errors:
        from .rules.legion import check
        errors += check(state, [o for _, o in legion_lines], legion_lines[0][0])
    if errors:
        raise OrdersInvalid(errors, [GRAMMAR.render(i) for i in items])
    return Orders(seat, items, "\n".join(GRAMMAR.render(i) for i in items))


def default(state: State, seat: str) -> Orders:
    order = default_order(state, seat)
    items = [{"order": order}] if order else []
    if state["pending"] and state["pending"]["kind"] == "legion":
        from .rules.legion import default_legion
        items = [{"order": o} for o in default_legion(state)]
    return Orders(seat, items, "\n".join(GRAMMAR.render(i) for i in items), default=True)


def default_order(state: State, seat: str) -> dict[str, Any] | None:
    """A cautious player's choice (the README lists each): the lowest-average die, the
    safest side, no reaction, the next opponent as target."""
    pending = state["pending"]
    if pending is None or pending["kind"] == "legion" or pending["seat"] != seat:
        return None
    kind = pending["kind"]
    if kind == "draft":
        die = min(in_pool(state), key=lambda d: spec(d).average)
        return {"op": "pick", "dice": [die]}
    if kind == "roll":
        return {"op": "roll", "die": min(rollable(state, seat), key=lambda d: spec(d).average)}
    if kind == "read":
        return {"op": "read", "face": min(pending["sides"], key=lambda f: _risk(state, f))}
    if kind == "icon":
        recallable = owned(state, seat, "wasteland")
        return {"op": "recall", "die": min(recallable, key=lambda d: spec(d).average)}
    if kind == "react":
        return {"op": "pass", "kind": None}
    legal = pending["legal"]
    line = legal[0]
    if kind == "target" and pending["effect"] in ("blank", "cannon"):
        others = [x for x in legal if x.split()[1] != seat]
        seats = state["seats"]
        i = seats.index(seat)
        ring = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
        line = next((x for s in ring for x in others if x.split()[1] == s), legal[0])
    elif kind == "target" and pending["effect"] == "pit":
        theirs = [x for x in legal if state["dice"][x.split()[1]]["owner"] != seat]
        line = min(theirs or legal, key=lambda x: spec(x.split()[1]).average)
    elif kind in ("defend",) or (kind == "target" and pending["effect"] == "attack"):
        line = max(legal, key=lambda x: spec(x.split()[1]).average)
    elif kind == "triangle" and pending["stage"] == "keep":
        keeps = [x for x in legal if x.startswith("KEEP")]
        if keeps:
            line = min(keeps, key=lambda x: _risk(state, state["dice"][x.split()[1]]["face"]))
    elif kind == "triangle":
        line = min(legal, key=lambda x: spec(x.split()[1]).average
                   if x != "TRIANGLE ALL" else 0)
    return GRAMMAR.parse_line(line, (state, seat))["order"]


def _risk(state: State, face: Face) -> tuple[int, int]:
    """Lower is better: a safe number (lowest first), then an icon, then an overshoot."""
    kind, value = read(face)
    if kind == "icon":
        return (1, 0)
    limit = NO_NUMBER if state["number"] is None else state["number"]
    return (0, int(value)) if int(value) <= limit else (2, int(value))


def legion_examples(state: State) -> list[str]:
    from .rules.legion import examples
    return examples(state)


TITLES = {
    "draft": "Pick a die from the centre",
    "roll": "Your turn: choose a die to roll",
    "read": "Your die rests between two sides: choose the one that counts",
    "icon": "You rolled an icon: skip your next turn, or recall a die",
    "target": "Your effect needs a target",
    "triangle": "Triangle: add a die to the throw, or keep one result as your main roll",
    "chaos": "Chaos: choose which rolled effect takes place next",
    "defend": "You are challenged to a duel: choose your die",
    "react": "Reaction: a suspended die of yours may act now",
    "legion": "Choose your Legion in secret",
}
HELPS = {
    "draft": "PICK lists dice in order of preference; the first still free is taken. "
             "STANDING PICK ... keeps picking for you in later rounds of the draft.",
    "roll": "IF NUMBER < <n> THEN ROLL <die> ELSE ROLL <die>; STANDING ROLL <die> rolls "
            "that die whenever it is your turn and it can be rolled.",
    "read": "READ the side you want.",
    "icon": "SKIP, or RECALL a die from your wasteland to your side of the field.",
    "target": "Name the target (PIT <die>, SKIP <player>, CANNON <player>, RADIATION "
              "<colour>, CAPTURE <die> or PASS, ATTACK <die>, PICK <die>: the copy a "
              "radiation brings back).",
    "triangle": "TRIANGLE <die> adds a die and rolls them all again; KEEP <die> makes its "
                "result your main roll.",
    "chaos": "APPLY <icon>: each effect rolled takes place once, in your order.",
    "defend": "DEFEND <die>: the lower number of the duel goes to Limbo (icons count 0).",
    "react": "Answer now or PASS; a missed deadline is no reaction. A standing reaction "
             "answers this kind of window for you from now on, e.g. {standing}.",
    "legion": "LEGION <die> ... (at most two of a die), then optionally GENERAL <die> and "
              "RESERVE <die> ...; the other players see it only when the game begins.",
}


def _effect_name(icon: str | None) -> str:
    return {None: "effect", "roman": "Roman numeral's capture"}.get(icon, str(icon))


def prompt(state: State, seat: str) -> dict[str, Any]:
    pending = state["pending"]
    kind = pending["kind"]
    choices = legal_lines(state, seat)
    title = TITLES[kind]
    if kind == "react":
        title = f"Reaction ({pending['window']}): " + {
            "gear": "void the roll just made and turn the die over?",
            "smile": "add or subtract your d6 to the number you just rolled?",
            "pair": "bring back a die showing the same face from your wasteland?",
            "double": f"double the {_effect_name(pending.get('icon'))} that takes place?",
            "nut": f"you are the only target of {pending.get('by')}'s "
                   f"{pending.get('effect')}: protect yourself?",
            "instead": "your General is about to be lost: send another die instead?",
        }[pending["window"]]
    elif kind == "target" and pending["effect"] == "copy":
        title = (f"Your radiation: which player's {spec(pending['type']).name} comes back "
                 f"(only one copy may be in the field)?")
    elif kind == "target":
        title = f"Your {pending['effect']} needs a target"
    if kind == "legion":
        from .rules.legion import budget_text
        title += f" ({budget_text(state)})"
    return {"title": title, "help": _help(state, kind, pending, choices), "choices": choices,
            "example": choices[0] if choices else ""}


# A standing reaction for each kind of window, shown in that window's help: the help names
# only the reaction the seat is being asked for, never the suspended dice it may not hold.
STANDING_FOR_WINDOW = {
    "gear": "STANDING GEAR IF ROLL > NUMBER", "smile": "STANDING SMILE - IF ROLL > NUMBER",
    "pair": "STANDING PAIR", "double": "STANDING DOUBLE WHEN CROSS",
    "nut": "STANDING NUT WHEN TARGETED", "instead": "STANDING PASS INSTEAD",
}


def _faces_line(die: str) -> str:
    """'SUN, the Sun (yellow): faces 6 7 8 9 10 smile' ('5|6': it rests between them).

    Icons in lower case, as the data writes them: in capitals a face list read as orders
    ("RADIATION CANNON"), to players and to the check that every order in a help parses."""
    d = spec(die)
    return f"{die}, the {d.name} ({d.colour}): faces " + " ".join(str(f) for f in d.faces)


def _help(state: State, kind: str, pending: dict[str, Any], choices: list[str]) -> str:
    """The help of a decision, its examples made of this seat's own legal orders."""
    text = HELPS[kind]
    if kind == "react":
        window = pending["window"]
        return text.format(standing=f"{STANDING_FOR_WINDOW[window]} or STANDING PASS "
                                    f"{window.upper()}")
    if kind == "draft":
        # A line per die still in the centre, with its faces: the picks named dice only
        # ("PICK SUN", "PICK TANK"), and a new player drafted blind. The faces are public
        # (every die is in the README and shows on the board once taken).
        text += "".join(f"\n{_faces_line(c.split()[1])}" for c in choices
                        if c.startswith("PICK ") and len(c.split()) == 2)
    if kind == "roll":
        dice = [c.split()[1] for c in choices if c.startswith("ROLL ")]
        # The Number first: the help said "see the board", and a phone player rolled the
        # Sun (6 to 10) against a Number of 5 from the example without scrolling to it.
        number = state["number"]
        text = (f"The Number is {number}: roll no higher or you lose the round. "
                if number is not None else "No Number stands: your roll sets it. ") + text
        if rules(state).never_twice:  # a level 1 game was told of level 5's rules
            text += (" Never the die of your last main roll; SQUARE <player> <die> on its "
                     "own line plays a suspended Square.")
        if dice:
            branch = f" ELSE ROLL {dice[1]}" if len(dice) > 1 else ""
            text += (f" For example IF NUMBER < 6 THEN ROLL {dice[0]}{branch}, or "
                     f"STANDING ROLL {dice[0]}.")
            text += "".join(f"\n{_faces_line(d)}" for d in dict.fromkeys(dice))
    return text
