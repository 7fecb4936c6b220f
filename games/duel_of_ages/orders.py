"""The order language (MOVE, FIRE/OPFIRE, MELEE, HOLD, TRADE, DISCARD, USE, ...), plus the
shared IF/THEN/ELSE and STANDING forms. See README.md for examples."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.orders import Grammar, OrderSyntax, expect_word, order_lines, suggest
from games.core.types import OrderError, Orders, OrdersInvalid

from . import catalog, hexmap
from .state import State, chars

Ctx = tuple[State, str]


def _own(tokens: list[str], ctx: Ctx, what: str = "character") -> str:
    state, seat = ctx
    if not tokens:
        raise OrderSyntax(f"name the {what}", "e.g. " + ", ".join(chars(state, seat)))
    mine = [k for k in chars(state, seat) if state["chars"][k]["status"] != "dead"]
    key = tokens[0].upper()
    if key in mine:
        return key
    if key in state["chars"]:
        why = "is not on your team" if state["chars"][key]["team"] != seat else "is dead"
        raise OrderSyntax(f"{key} {why}", "your characters: " + ", ".join(mine))
    raise OrderSyntax(f"unknown character {tokens[0]!r}", suggest(tokens[0], mine or ["?"]))


def _enemy(token: str, ctx: Ctx) -> str:
    state, seat = ctx
    theirs = [k for k, c in sorted(state["chars"].items()) if c["team"] != seat]
    key = token.upper()
    if key in theirs:
        return key
    raise OrderSyntax(f"{token!r} is not an enemy character", suggest(token, theirs))


def _space(token: str) -> str:
    name = token.upper()
    if name not in hexmap.terrain():
        raise OrderSyntax(f"there is no space {token!r}", "spaces run A1 to K9")
    return name


def _options(tokens: list[str], allowed: set[str]) -> dict[str, str]:
    """Pairs like AT <x> IN <y>, each keyword at most once."""
    out: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        word = tokens[i].upper()
        if word not in allowed:
            raise OrderSyntax(f"unexpected {tokens[i]!r}", suggest(tokens[i], allowed))
        if i + 1 >= len(tokens):
            raise OrderSyntax(f"{word} needs a value after it")
        if word in out:
            raise OrderSyntax(f"{word} given twice")
        out[word] = tokens[i + 1]
        i += 2
    return out


def _move(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    key = _own(tokens, ctx)
    if len(tokens) < 3 or tokens[1].upper() != "TO":
        raise OrderSyntax("a move reads MOVE <character> TO <space> "
                          "[<space>|DOWN|UP|PICKUP|TRADE ...]",
                          f"e.g. MOVE {key} TO C4")
    path = [t.upper() if t.upper() in ("DOWN", "UP", "PICKUP", "TRADE") else _space(t)
            for t in tokens[2:]]
    state = ctx[0]
    if "TRADE" in path and revision_of(state) < 4:
        raise OrderSyntax("a trade on the way came with rules revision 4; this game plays "
                          f"revision {revision_of(state)}",
                          "write the TRADE line alone: it is carried out after the moves")
    here, down = state["chars"][key]["space"], state["chars"][key].get("down", False)
    for step in path:
        if step in ("PICKUP", "TRADE"):
            continue
        if step in ("DOWN", "UP"):
            if here is not None and here not in hexmap.entrances():
                raise OrderSyntax(f"{step} needs a tunnel entrance, and {here} has none",
                                  "entrances: " + ", ".join(sorted(hexmap.entrances())))
            if here is not None and down == (step == "DOWN"):
                raise OrderSyntax(f"{step}: already {'underground' if down else 'above'}")
            down = step == "DOWN"
            continue
        if down and step not in hexmap.tunnel_spaces():
            raise OrderSyntax(f"no tunnel runs under {step}", "write UP at an entrance first")
        if not down and not hexmap.enterable(step):
            raise OrderSyntax(f"{step} is {hexmap.terrain()[step]}, which nobody can enter",
                              "pick a space of clear, woods, rough, water, swamp, building "
                              "or tower")
        if here is not None:
            route = hexmap.tunnel_path(here, step) if down else hexmap.cheapest_path(here, step)
            if route is None:
                raise OrderSyntax(f"{step} cannot be reached from {here}")
        here = step
    return {"op": "move", "char": key, "to": path}


def _fire(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    key = _own(tokens, ctx)
    opts = _options(tokens[1:], {"AT", "IN", "WITH"})
    order: dict[str, Any] = {"op": "fire", "char": key}
    if "WITH" in opts:
        order["with"] = expect_word(opts["WITH"], [k for k, c in catalog.equipment().items()
                                                   if c["kind"] == "ranged"], "ranged weapon")
    if "AT" in opts:
        order["at"] = _enemy(opts["AT"], ctx)
    if "IN" in opts:
        order["in"] = _space(opts["IN"])
    return order


def _melee(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    key = _own(tokens, ctx)
    opts = _options(tokens[1:], {"AT", "WITH"})
    order: dict[str, Any] = {"op": "melee", "char": key}
    if "AT" in opts:
        order["at"] = _enemy(opts["AT"], ctx)
    if "WITH" in opts:
        order["with"] = expect_word(opts["WITH"],
                                    ["NATURAL"] + [k for k, c in catalog.equipment().items()
                                                   if c["kind"] == "melee"], "melee weapon")
    return order


def _hold(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("HOLD takes one character", "e.g. HOLD " + tokens[0] if tokens else "")
    return {"op": "hold", "char": _own(tokens, ctx)}


def _reinforce(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    key = _own(tokens, ctx)
    if len(tokens) != 1:
        raise OrderSyntax("REINFORCE takes one character")
    return {"op": "reinforce", "char": key}


def _adventure(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    key = _own(tokens, ctx)
    if len(tokens) != 1:
        raise OrderSyntax("name just the character", f"e.g. CHALLENGE {key}")
    return {"char": key}


def _card_name(token: str, what: str = "card") -> str:
    return expect_word(token, list(catalog.equipment()), what)


def _destroy(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """DESTROY <char> <card>: in the Free Action phase if he carries it, else at the
    moment he receives it this turn (trade, pickup, draw)."""
    key = _own(tokens, ctx)
    if len(tokens) != 2:
        raise OrderSyntax("DESTROY names a character and one card",
                          f"e.g. DESTROY {key} LONGBOW")
    return {"char": key, "card": _card_name(tokens[1])}


def _discard(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """DISCARD <char> <card> ...: what goes first if he must discard over his limit."""
    key = _own(tokens, ctx)
    if len(tokens) < 2:
        raise OrderSyntax("DISCARD names a character and the cards to let go first",
                          f"e.g. DISCARD {key} SLING TONIC")
    return {"char": key, "cards": [_card_name(t) for t in tokens[1:]]}


def _carried(tokens: list[str], ctx: Ctx, kind: str) -> dict[str, Any]:
    """HEAL / RIDE <character> [WITH <card>]: the character must carry such a card."""
    key = _own(tokens, ctx)
    opts = _options(tokens[1:], {"WITH"})
    state = ctx[0]
    fitting = [e["card"] for e in state["chars"][key]["cards"]
               if catalog.card(e["card"])["kind"] == kind]
    if not fitting:
        raise OrderSyntax(f"{key} carries no {kind} card")
    order: dict[str, Any] = {"char": key}
    if "WITH" in opts:
        order["with"] = expect_word(opts["WITH"], fitting, f"{kind} card")
    return order


def _trade(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """TRADE <a> WITH <b> [GIVE <card> ...] [TAKE <card> ...]"""
    a = _own(tokens, ctx)
    hint = f"e.g. TRADE {a} WITH <team-mate> GIVE <card> TAKE <card>"
    if len(tokens) < 3 or tokens[1].upper() != "WITH":
        raise OrderSyntax("a trade reads TRADE <character> WITH <character> ...", hint)
    b = _own(tokens[2:], ctx, "team-mate")
    if a == b:
        raise OrderSyntax("a character cannot trade with himself", hint)
    state = ctx[0]
    order: dict[str, Any] = {"char": a, "with": b, "give": [], "take": [], "destroy": []}
    mode = None
    for token in tokens[3:]:
        word = token.upper()
        if word in ("GIVE", "TAKE", "DESTROY"):
            mode = word.lower()
            continue
        if mode is None:
            raise OrderSyntax(f"unexpected {token!r}", "write GIVE or TAKE before the cards")
        if mode == "destroy":
            carried = [e["card"] for k in (a, b) for e in state["chars"][k]["cards"]]
            if word not in carried:
                raise OrderSyntax(f"neither {a} nor {b} carries {token!r}")
            order[mode].append(word)
            continue
        owner = a if mode == "give" else b
        carried = [e["card"] for e in state["chars"][owner]["cards"]]
        if word not in carried:
            raise OrderSyntax(f"{owner} does not carry {token!r}",
                              "he carries: " + (", ".join(carried) or "nothing"))
        order[mode].append(word)
    if not order["give"] and not order["take"] and not order["destroy"]:
        raise OrderSyntax("the trade moves no card", hint)
    return order


def _havoc(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """HAVOC <char> GIVER <enemy> [RECEIVER <enemy>]: choices for a Tower of Havoc win."""
    key = _own(tokens, ctx)
    opts = _options(tokens[1:], {"GIVER", "RECEIVER"})
    if not opts:
        raise OrderSyntax("name the GIVER (and maybe the RECEIVER)",
                          f"e.g. HAVOC {key} GIVER <enemy> RECEIVER <enemy>")
    return {"char": key, **{w.lower(): _enemy(v, ctx) for w, v in opts.items()}}


def _maneuver(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """MANEUVER <char> DISMISS <ally> | BANISH <enemy>: the Tower of Maneuver's choice."""
    key = _own(tokens, ctx)
    opts = _options(tokens[1:], {"DISMISS", "BANISH"})
    if len(opts) != 1:
        raise OrderSyntax("choose DISMISS <ally> or BANISH <enemy>",
                          f"e.g. MANEUVER {key} BANISH <enemy>")
    if "DISMISS" in opts:
        return {"char": key, "dismiss": _own([opts["DISMISS"]], ctx, "ally")}
    return {"char": key, "banish": _enemy(opts["BANISH"], ctx)}


def _dismount(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    key = _own(tokens, ctx)
    if len(tokens) != 1:
        raise OrderSyntax("DISMOUNT takes one character")
    return {"char": key}


def _choose(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """CHOOSE SHOW <card> ... | GIVER <char> [RECEIVER <char>] | RECEIVER <char> |
    DOME <space>: the team's answers, in advance, to the questions an enemy's tower
    challenge asks it (which cards to show, who gives and who receives, which dome)."""
    hint = "e.g. CHOOSE SHOW SLING, CHOOSE GIVER DEX RECEIVER INES, CHOOSE DOME A1"
    if not tokens:
        raise OrderSyntax("CHOOSE what?", hint)
    word = tokens[0].upper()
    if word == "SHOW":
        if len(tokens) < 2:
            raise OrderSyntax("name the cards to show first", hint)
        return {"show": [_card_name(t) for t in tokens[1:]]}
    if word == "DOME":
        several = revision_of(ctx[0]) >= 4
        if len(tokens) < 2 or (len(tokens) > 2 and not several):
            raise OrderSyntax("CHOOSE DOME names one dome" + (
                " (a list came with rules revision 4)" if len(tokens) > 2 else ""), hint)
        domes = []
        for token in tokens[1:]:
            space = _space(token)
            if space not in hexmap.domes():
                raise OrderSyntax(f"{space} is not a dome",
                                  "domes: " + ", ".join(sorted(hexmap.domes())))
            domes.append(space)
        return {"dome": domes[0], **({"domes": domes} if len(domes) > 1 else {})}
    opts = _options(tokens, {"GIVER", "RECEIVER"})
    return {w.lower(): _own([v], ctx, "team-mate") for w, v in opts.items()}


def _surrender(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if tokens:
        raise OrderSyntax("SURRENDER takes nothing after it")
    return {"op": "surrender"}


def _condition(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    words = [t.upper() for t in tokens]
    hint = "write ENEMY ENTERS LOS, ENEMY ENTERS <space>, <enemy> MOVES or <enemy> ENTERS <space>"
    if len(words) == 2 and words[1] == "MOVES":
        who = _enemy(words[0], ctx)
        return {"test": "moves", "who": who, "text": f"{who} MOVES"}
    if len(words) == 3 and words[1] == "ENTERS":
        who = "ENEMY" if words[0] == "ENEMY" else _enemy(words[0], ctx)
        where = "LOS" if words[2] == "LOS" else _space(words[2])
        return {"test": "enters", "who": who, "where": where, "text": f"{who} ENTERS {where}"}
    raise OrderSyntax(f"cannot read condition {' '.join(tokens)!r}", hint)


def render(order: dict[str, Any]) -> str:
    op = order["op"]
    if op == "move":
        return f"MOVE {order['char']} TO " + " ".join(order["to"])
    if op == "surrender":
        return "SURRENDER"
    if op == "destroy":
        return f"DESTROY {order['char']} {order['card']}"
    if op == "discard":
        return f"DISCARD {order['char']} " + " ".join(order["cards"])
    if op == "choose":
        if "show" in order:
            return "CHOOSE SHOW " + " ".join(order["show"])
        if "dome" in order:
            return "CHOOSE DOME " + " ".join(order.get("domes", [order["dome"]]))
        return "CHOOSE" + "".join(f" {w.upper()} {order[w]}" for w in ("giver", "receiver")
                                  if w in order)
    if op == "trade":
        text = f"TRADE {order['char']} WITH {order['with']}"
        for word in ("give", "take", "destroy"):
            if order.get(word):
                text += f" {word.upper()} " + " ".join(order[word])
        return text
    text = f"{op.upper()} {order['char']}"
    for word in ("at", "in", "with", "giver", "receiver", "dismiss", "banish"):
        if word in order:
            text += f" {word.upper()} {order[word]}"
    return text


GRAMMAR = Grammar({"MOVE": _move, "FIRE": _fire, "OPFIRE": _fire, "MELEE": _melee,
                   "HOLD": _hold, "REINFORCE": _reinforce, "SURRENDER": _surrender,
                   "CHALLENGE": _adventure, "MERCY": _adventure, "DESTROY": _destroy,
                   "HEAL": lambda t, c: _carried(t, c, "medical"),
                   "RIDE": lambda t, c: _carried(t, c, "mount"),
                   "USE": lambda t, c: _carried(t, c, "gadget"), "DISCARD": _discard,
                   "CHOOSE": _choose,
                   "DISMOUNT": _dismount, "TRADE": _trade, "HAVOC": _havoc,
                   "MANEUVER": _maneuver},
                  condition=_condition, render=render)

ACTIVE_ONLY = {"move", "reinforce", "challenge", "mercy", "destroy", "heal", "ride",
               "dismount", "trade", "havoc", "maneuver", "use"}


def _weapon_not_carried(state: State, item: dict[str, Any]) -> tuple[str, str] | None:
    """A plain or conditional FIRE/MELEE ... WITH <card> must name a card the character
    carries now (nothing can bring him a weapon before he uses it this turn); a STANDING
    one may name a card he hopes to carry later."""
    for order in (item.get("order"), item.get("then"), item.get("else")):
        if not order or order["op"] not in ("fire", "melee") \
                or order.get("with") in (None, "NATURAL"):
            continue
        key = order["char"]
        kind = "ranged" if order["op"] == "fire" else "melee"
        carried = [e["card"] for e in state["chars"][key]["cards"]
                   if catalog.card(e["card"])["kind"] == kind]
        if order["with"] not in carried:
            return (f"{key} does not carry {order['with']}",
                    f"his {kind} weapons: " + (", ".join(carried) or "none")
                    + ("" if kind == "ranged" else " (or NATURAL)"))
    return None


def parse(state: State, seat: str, text: str, *, default: bool = False) -> Orders:
    """Every line parsed; a waiting team's plain MOVE/REINFORCE is refused."""
    items: list[dict[str, Any]] = []
    errors: list[OrderError] = []
    for line in order_lines(text):
        try:
            item = GRAMMAR.parse_line(line.text, (state, seat))
        except OrderSyntax as exc:
            errors.append(OrderError(line.number, exc.message, exc.hint))
            continue
        order = item.get("order")
        if not item.get("standing") and (why := _weapon_not_carried(state, item)):
            errors.append(OrderError(line.number, *why))
            continue
        if order and not item.get("standing") and order["op"] in ACTIVE_ONLY \
                and seat != state["active"]:
            errors.append(OrderError(line.number, f"it is not {seat}'s turn to "
                                     f"{order['op']}", "write it as STANDING to keep it "
                                     "for your own turn"))
            continue
        if "if" in item and any(o and o["op"] in ACTIVE_ONLY | {"surrender", "discard", "choose"}
                                for o in (item["then"], item.get("else"))):
            errors.append(OrderError(line.number, "only FIRE, MELEE and HOLD can be "
                                     "conditional", "e.g. IF ENEMY ENTERS LOS THEN FIRE "
                                     + (chars(state, seat) or ["X"])[0]))
            continue
        if "if" in item and not item.get("standing") and seat == state["active"] \
                and item["then"]["op"] == "fire":
            errors.append(OrderError(line.number, "a conditional FIRE is opportunity fire, "
                                     "which only the waiting team makes",
                                     "on your own turn write FIRE <character> [AT <enemy>]"))
            continue
        items.append(item)
    lines = [GRAMMAR.render(i) for i in items]
    if errors:
        raise OrdersInvalid(errors, lines)
    return Orders(seat, items, "\n".join(lines), default)
