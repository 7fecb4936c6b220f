"""The Duelists order language.

    CHAMPION Nathrax                      pick a champion (setup)
    QUEUE Lunge, Armor, Quick Stab        the first three queue cards, left to right (setup;
                                          several QUEUE lines add up, left-most first)
    PLAN Quick Stab                       attacker: the card placed face down on the right
    SET 3                                 attacker: the die for the next attack, in order
    IF DEFEND LEFT THEN SET 3 ELSE SET 1  ... decided by the defender's choice
    IF GUESSES < 2 THEN SET 4 ELSE SET 2  ... or by how many guesses the defender gets
    DEFEND SECOND GUESS 2 4               defender: the card that defends and the guesses
    ABSORB HAND Armor, Armor              defender: hand cards to exhaust for damage first
    ABSORB FROM DECK                      ... or take it all from the top of the deck
    IF DAMAGE > 3 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK
    EXHAUST ARMOR 2 | EXHAUST ARMOR ALL   exhaust armor from the hand, drawing one each,
                                          at the start of the turn's resolution
    EXHAUST ARMOR ALL BEFORE ABSORB       defender: ... once a hit is known, before it is
                                          absorbed (armor the ABSORB HAND order uses stays)
    IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB
    IF DECK > 6 THEN EXHAUST ARMOR ALL    ... only while enough cards are left to draw
    STANDING ABSORB FROM DECK             kept until CANCEL STANDING (SET, DEFEND, ABSORB,
                                          EXHAUST ARMOR with or without BEFORE ABSORB)

Several SET lines (or DEFEND, ABSORB, EXHAUST ... BEFORE ABSORB lines) apply to
successive attacks and hits of a double attack. Anything a turn needs that the orders
leave open is asked for next. An armor exchange is never an instruction to draw: it is
cut down to the cards left to draw (deck and discard pile), so it can never lose the duel.
"""

from __future__ import annotations

from typing import Any

from games.core.orders import (
    Grammar,
    OrderSyntax,
    compare,
    expect_int,
    expect_word,
    order_lines,
    parse_comparison,
    suggest,
)
from games.core.types import OrderError, Orders, OrdersInvalid

from . import cards
from .state import QUEUE_SIZE, State, other, player, role

POSITIONS = ("LEFT", "SECOND")
ROLE_OPS = {"attacker": {"plan", "set", "exhaust"},
            "defender": {"defend", "absorb", "exhaust", "before_absorb"}}
STANDING_OPS = {"set", "defend", "absorb", "exhaust", "before_absorb"}
EXHAUST_USAGE = "EXHAUST ARMOR <count>|ALL [BEFORE ABSORB]"
# Which orders each condition may decide (the facts exist only at that moment).
DECIDES = {"DEFEND": ("set",), "GUESSES": ("set",), "DAMAGE": ("absorb", "before_absorb"),
           "DECK": ("exhaust", "before_absorb", "absorb")}
SHOWN = {"before_absorb": "EXHAUST ARMOR ... BEFORE ABSORB", "exhaust": "EXHAUST ARMOR"}
ASK_HELP = {
    "plan": "PLAN <card from your hand>",
    "set": "SET <number in the attack's range> (may be IF DEFEND LEFT THEN ... ELSE ...)",
    "defend": "DEFEND LEFT|SECOND GUESS <numbers>",
    "absorb": "ABSORB HAND <cards> or ABSORB FROM DECK",
}


class Ctx:
    """What a parse needs to know: the state and the seat writing."""

    def __init__(self, state: State, seat: str) -> None:
        self.state = state
        self.seat = seat
        champ = player(state, seat)["champion"]
        self.card_names = cards.champions()[champ].names() if champ else []


def _card_list(tokens: list[str], ctx: Ctx, what: str) -> list[str]:
    text = " ".join(tokens)
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        found = cards.match_name(part, ctx.card_names)
        if found is None:
            raise OrderSyntax(f"no card called {part!r} in your deck",
                              suggest(part, ctx.card_names) if ctx.card_names else "")
        out.append(found)
    if not out:
        raise OrderSyntax(f"{what} needs card names", "separate several cards with commas")
    return out


def _champion(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("CHAMPION takes one name", "e.g. CHAMPION Harys")
    key = expect_word(tokens[0], [c.name for c in cards.champions().values()], "champion")
    return {"name": key.lower()}


def _queue(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    return {"cards": _card_list(tokens, ctx, "QUEUE")}


def _plan(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    found = _card_list(tokens, ctx, "PLAN")
    if len(found) != 1:
        raise OrderSyntax("PLAN takes one card")
    return {"card": found[0]}


def _set(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("SET takes one number", "e.g. SET 3")
    return {"value": expect_int(tokens[0], "the die", 1, cards.DIE_SIDES)}


def _defend(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if not tokens:
        raise OrderSyntax("DEFEND needs LEFT or SECOND", "e.g. DEFEND SECOND GUESS 2 4")
    pos = expect_word(tokens[0], POSITIONS, "position")
    rest = " ".join(tokens[1:]).replace(",", " ").split()
    guesses: list[int] = []
    if rest:
        if rest[0].upper() != "GUESS":
            raise OrderSyntax(f"expected GUESS after DEFEND {pos}", "e.g. DEFEND LEFT GUESS 1 3")
        for tok in rest[1:]:
            value = expect_int(tok, "a guess", 1, cards.DIE_SIDES)
            if value in guesses:
                raise OrderSyntax(f"{value} is guessed twice")
            guesses.append(value)
    return {"pos": pos, "guesses": guesses}


def _absorb(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    words = [t.upper() for t in tokens]
    if words in (["DECK"], ["FROM", "DECK"]):
        return {"from": "deck", "cards": []}
    if words and words[0] == "HAND":
        return {"from": "hand", "cards": _card_list(tokens[1:], ctx, "ABSORB HAND")}
    raise OrderSyntax("ABSORB reads ABSORB HAND <cards> or ABSORB FROM DECK")


def _exhaust(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    """EXHAUST ARMOR [n|ALL] [BEFORE ABSORB]: the moment defaults to the turn's start."""
    words = [t.upper() for t in tokens]
    if not words or words[0] != "ARMOR":
        raise OrderSyntax(f"EXHAUST reads {EXHAUST_USAGE}", "only Armor cards can be "
                          "exchanged, e.g. EXHAUST ARMOR 2 or EXHAUST ARMOR ALL BEFORE ABSORB")
    rest, when = words[1:], "start"
    if "BEFORE" in rest:
        at = rest.index("BEFORE")
        moment = tokens[at + 2:]
        if len(moment) != 1:
            raise OrderSyntax("BEFORE needs one moment: BEFORE ABSORB",
                              "leave BEFORE out to exchange at the start of the turn")
        expect_word(moment[0], ["ABSORB"], "moment")
        rest, when = rest[:at], "absorb"
    if len(rest) > 1:
        raise OrderSyntax(f"EXHAUST reads {EXHAUST_USAGE}", "e.g. EXHAUST ARMOR 2")
    count = -1 if not rest or rest[0] == "ALL" else expect_int(
        rest[0], "the number of armor cards", 1, 10)
    return {"count": count, "when": when}


def _condition(tokens: list[str], ctx: Ctx) -> dict[str, Any]:
    if tokens and tokens[0].upper() == "DEFEND":
        if len(tokens) != 2:
            raise OrderSyntax("the condition reads DEFEND LEFT or DEFEND SECOND")
        pos = expect_word(tokens[1], POSITIONS, "position")
        return {"test": "defend", "pos": pos, "text": f"DEFEND {pos}"}
    return parse_comparison(tokens, ["GUESSES", "DAMAGE", "DECK"])


def render(order: dict[str, Any]) -> str:
    op = order["op"]
    if op == "champion":
        return f"CHAMPION {cards.champions()[order['name']].name}"
    if op == "queue":
        return "QUEUE " + ", ".join(order["cards"])
    if op == "plan":
        return f"PLAN {order['card']}"
    if op == "set":
        return f"SET {order['value']}"
    if op == "defend":
        text = f"DEFEND {order['pos']}"
        return text + (" GUESS " + " ".join(map(str, order["guesses"])) if order["guesses"]
                       else "")
    if op == "absorb":
        return ("ABSORB FROM DECK" if order["from"] == "deck"
                else "ABSORB HAND " + ", ".join(order["cards"]))
    if op == "exhaust":
        return ("EXHAUST ARMOR " + ("ALL" if order["count"] < 0 else str(order["count"]))
                + (" BEFORE ABSORB" if order.get("when") == "absorb" else ""))
    raise ValueError(op)


GRAMMAR = Grammar({"CHAMPION": _champion, "QUEUE": _queue, "PLAN": _plan, "SET": _set,
                   "DEFEND": _defend, "ABSORB": _absorb, "EXHAUST": _exhaust},
                  condition=_condition, render=render)


def kind_of(order: dict[str, Any]) -> str:
    """The kind of choice an order answers: its op, except that an armor exchange
    before absorbing is its own kind (kept per hit, like ABSORB)."""
    if order["op"] == "exhaust" and order.get("when") == "absorb":
        return "before_absorb"
    return order["op"]


def item_op(item: dict[str, Any]) -> str | None:
    if "order" in item:
        return kind_of(item["order"])
    if "if" in item:
        return kind_of(item["then"])
    return None


def shown(kind: str) -> str:
    return SHOWN.get(kind, kind.upper())


def item_orders(item: dict[str, Any]) -> list[dict[str, Any]]:
    if "order" in item:
        return [item["order"]]
    if "if" in item:
        return [o for o in (item["then"], item.get("else")) if o]
    return []


# -- what is still open in the turn, for validation and prompts ------------------------
def open_sets(state: State) -> list[dict[str, Any]]:
    """Attacks whose die is still to be set, in order."""
    turn = state["turn"]
    start = turn["index"]
    cur = turn.get("cur")
    if cur and cur.get("die") is not None:
        start += 1
    return turn["attacks"][start:]


def open_defends(state: State) -> list[dict[str, Any]]:
    turn = state["turn"]
    start = turn["index"] + (1 if turn.get("cur") else 0)
    return turn["attacks"][start:]


def plan_open(state: State) -> bool:
    turn = state["turn"]
    return bool(turn) and not turn["first"] and not turn["planned"]


def left_locked(state: State, seat: str) -> bool:
    """May the seat's left-most card not defend now? It holds the Defended! token, or
    held it when this turn began (the token has since moved to the second card)."""
    queue = player(state, seat)["queue"]
    turn = state.get("turn")
    barred = bool(turn) and turn.get("left_barred") and turn["defender"] == seat
    return bool(queue) and (queue[0]["defended"] or bool(barred))


def test_condition(cond: dict[str, Any], facts: dict[str, int | str]) -> bool:
    if cond["test"] == "defend":
        return facts.get("pos") == cond["pos"]
    value = facts.get(cond["name"].lower())
    return isinstance(value, int) and compare(cond["op"], value, cond["value"])


def _check(state: State, seat: str, items: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    """Rule checks the grammar cannot make: (item index, message, hint) per problem."""
    problems: list[tuple[int, str, str]] = []
    stage = state["stage"]
    owed = state["awaiting"].get(seat)
    hand = cards_in_hand(state, seat)
    seen: dict[str, int] = {}
    first_line: dict[str, int] = {}  # the item that gave each order first
    queued: list[str] = []  # QUEUE lines add up, left-most first
    armor_for_plan = 0
    for i, item in enumerate(items):
        if "cancel" in item:
            if stage not in ("turn",) and owed not in ("plan", "set", "defend", "absorb"):
                problems.append((i, "standing orders start once the duel is under way", ""))
            continue
        op = item_op(item)
        standing = bool(item.get("standing"))
        if "if" in item:
            problem = _condition_problem(item)
            if problem:
                problems.append((i, *problem))
                continue
        if stage == "pick":
            if op != "champion" or standing:
                problems.append((i, "now is the time to pick a champion", "CHAMPION <name>"))
            elif item["order"]["name"] not in available_champions(state):
                problems.append((i, "that champion is already taken",
                                 "choose from " + ", ".join(available_champions(state))))
            seen[op] = seen.get(op, 0) + 1
            continue
        if stage == "queue":
            if op != "queue" or standing:
                problems.append((i, "now is the time to queue three cards",
                                 "QUEUE <card>, <card>, <card>"))
                continue
            queued += item["order"]["cards"]
            if not _fits(queued, hand):
                problems.append((i, "those cards are not all in your hand",
                                 "your hand: " + ", ".join(hand)))
            seen[op] = seen.get(op, 0) + 1
            continue
        # the duel proper
        if standing:
            if op not in STANDING_OPS:
                problems.append((i, f"{shown(op)} cannot be a standing order",
                                 "only SET, DEFEND, ABSORB and EXHAUST ARMOR can stand"))
            continue
        my_role = role(state, seat)
        if my_role is None or op not in ROLE_OPS[my_role]:
            hint = ("BEFORE ABSORB is for the defender; STANDING keeps it for when you "
                    "defend" if op == "before_absorb" else "")
            problems.append((i, f"{shown(op)} is not yours to give while you are the "
                                f"{my_role or 'nobody'}", hint))
            continue
        seen[op] = seen.get(op, 0) + 1
        first_line.setdefault(op, i)
        if op == "plan":
            if not plan_open(state):
                problems.append((i, "there is no card to plan now", ""))
            elif seen[op] > 1:
                first = first_line[op]
                problems.append((i, *_second_plan(item, items[first], first)))
            elif item["order"]["card"] not in hand:
                problems.append((i, f"{item['order']['card']} is not in your hand",
                                 "your hand: " + ", ".join(hand)))
            elif item["order"]["card"] == cards.ARMOR:
                armor_for_plan = 1
        elif op == "set":
            attacks = open_sets(state)
            if seen[op] > len(attacks):
                problems.append((i, f"only {len(attacks)} attack(s) still need a die",
                                 f"one SET line per attack, in order: keep {len(attacks)} "
                                 "(each button adds a line)"))
                continue
            attack = attacks[seen[op] - 1]
            for order in item_orders(item):
                if not attack["lo"] <= order["value"] <= attack["hi"]:
                    problems.append((i, f"SET {order['value']} is outside this attack's "
                                        f"range {attack['lo']}-{attack['hi']}",
                                     f"use {attack['lo']}..{attack['hi']}"))
        elif op == "defend":
            if seen[op] > len(open_defends(state)):
                problems.append((i, f"only {len(open_defends(state))} attack(s) still need"
                                    " a defence",
                                 f"one DEFEND line per attack, in order: keep "
                                 f"{len(open_defends(state))} (each button adds a line)"))
            elif item["order"]["pos"] == "LEFT" and left_locked(state, seat):
                problems.append((i, "your left-most card already carries the Defended! "
                                    "token", "defend SECOND"))
        elif op == "absorb":
            if seen[op] > len(state["turn"]["attacks"]) - state["turn"]["index"]:
                problems.append((i, "more ABSORB orders than attacks this turn",
                                 "one ABSORB line per hit; name several cards on one line, "
                                 "e.g. ABSORB HAND Armor, Armor"))
        elif op == "exhaust":
            armor = sum(1 for c in hand if c == cards.ARMOR)
            if seen[op] > 1:
                problems.append((i, "only one EXHAUST ARMOR per turn",
                                 "add BEFORE ABSORB to exchange again once a hit is known"))
            elif any(o["count"] > armor - armor_for_plan for o in item_orders(item)):
                problems.append((i, f"you hold only {armor} armor card{'' if armor == 1 else 's'}"
                                 + (", one of them planned" if armor_for_plan else ""),
                                 "EXHAUST ARMOR ALL exchanges every one you can spare"))
        elif op == "before_absorb":
            hits = len(state["turn"]["attacks"]) - state["turn"]["index"]
            if seen[op] > hits:
                problems.append((i, f"more EXHAUST ARMOR ... BEFORE ABSORB orders than "
                                    f"attacks this turn ({hits})",
                                 "one line per hit, in order; STANDING covers every hit"))
    if stage == "pick" and not seen.get("champion"):
        problems.append((-1, "pick a champion", "CHAMPION <name>"))
    if stage == "pick" and seen.get("champion", 0) > 1:
        names = [it["order"]["name"] for it in items if item_op(it) == "champion"]
        problems.append((-1, "one champion per duelist, and these orders name "
                         + (f"{names[0]} {len(names)} times" if len(set(names)) == 1
                            else " and ".join(names)),
                         "keep one CHAMPION line (each button adds a line)"))
    if stage == "queue" and len(queued) != QUEUE_SIZE:
        problems.append((-1, f"the queue takes exactly three cards, not {len(queued)}",
                         "QUEUE <card>, <card>, <card> (or one QUEUE line per card, "
                         "left-most first)"))
    if owed in ASK_HELP and not any(item_op(it) == owed for it in items):
        problems.append((-1, f"this decision needs a {owed.upper()} order", ASK_HELP[owed]))
    return problems


def _second_plan(item: dict[str, Any], first: dict[str, Any], index: int
                 ) -> tuple[str, str]:
    """A second PLAN line: one card goes face down a turn. (The order form's one-card PLAN
    buttons each add a line, so two clicks make this.)"""
    card, before = item["order"]["card"], first["order"]["card"]
    if card == before:
        return (f"PLAN {card} repeats an earlier line",
                "one is enough: delete the repeat (each button adds a line)")
    return (f"only one PLAN per turn (one card goes face down), and PLAN {before} comes "
            "first",
            f"keep one PLAN line: PLAN {before} or PLAN {card}")


def _condition_problem(item: dict[str, Any]) -> tuple[str, str] | None:
    """Why a conditional order cannot work, as (message, hint), or None."""
    cond = item["if"]
    name = cond.get("name") or "DEFEND"
    allowed = DECIDES[name]
    kinds = {kind_of(o) for o in item_orders(item)}
    if len(kinds) > 1:
        return ("THEN and ELSE must give the same kind of order",
                "e.g. IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB ELSE "
                "EXHAUST ARMOR 1 BEFORE ABSORB")
    (kind,) = kinds
    if kind in allowed:
        return None
    text = cond.get("text") or name
    orders = " and ".join(f"{shown(k)}" for k in allowed)
    hint = ""
    if name == "DAMAGE" and kind == "exhaust":
        hint = "the damage is known only before absorbing: add BEFORE ABSORB"
    elif name == "DECK":
        hint = "e.g. IF DECK > 6 THEN EXHAUST ARMOR ALL"
    return (f"the condition {text} only decides {orders} orders", hint)


def _fits(chosen: list[str], hand: list[str]) -> bool:
    pool = list(hand)
    for name in chosen:
        if name not in pool:
            return False
        pool.remove(name)
    return True


def cards_in_hand(state: State, seat: str) -> list[str]:
    return [cards.name(c) for c in player(state, seat)["hand"]]


def available_champions(state: State) -> list[str]:
    taken = {p["champion"] for p in state["players"].values()}
    return [k for k in cards.CHAMPION_ORDER if k not in taken]


def parse(state: State, seat: str, text: str) -> Orders:
    if seat not in state["awaiting"]:
        raise OrdersInvalid([OrderError(0, f"{seat} owes no orders now")])
    items, lines = GRAMMAR.parse(text, Ctx(state, seat))
    problems = _check(state, seat, items)
    if problems:
        numbers = [line.number for line in order_lines(text)]
        refused = {i for i, _, _ in problems}
        raise OrdersInvalid([OrderError(numbers[i] if i >= 0 else 0, msg, hint)
                             for i, msg, hint in problems],
                            [line for i, line in enumerate(lines) if i not in refused])
    return Orders(seat, items, "\n".join(lines))


def make(state: State, seat: str, lines: list[str], *, default: bool = False) -> Orders:
    """Orders from canonical lines (used by defaults and bots); they must parse."""
    orders = parse(state, seat, "\n".join(lines))
    return Orders(seat, orders.items, orders.text, default)


__all__ = ["GRAMMAR", "Ctx", "available_champions", "cards_in_hand", "item_op", "kind_of",
           "make",
           "open_defends", "open_sets", "other", "parse", "render", "test_condition"]
