"""The Dungeonquest order language: parsing, canonical text, and choosing the order that
answers a situation.

One order per line. Movement: `MOVE NORTH`, `MOVE EAST SOUTH` (extra directions are used
if a corridor or a tower carries the hero on), `MOVE TO F7`, `RETREAT`, `SEARCH`,
`SEARCH THEN EAST` (the square to go to if a secret door turns up), `STAY` (`LOOT` in the
treasure chamber), `DESTINATION G7` (kept until changed). Answers: `ATTACK`, `WAIT`,
`ESCAPE`, `SHOOT`, `FIGHT`, `FLEE`, `SEARCH CRYPT`, `SEARCH BODY`, `IGNORE`. Items:
`DRINK POTION`, `USE RING OF HEALING`. Conditions: `IF MONSTER [kind]`, `IF AMBUSH`,
`IF SPIDER`, `IF CRYPT`, `IF CORPSE`, `IF TRAP`, `IF DOOR`, `IF PORTCULLIS`, `IF POTION`,
`IF FAIL`, `IF TILE [kind]`, and comparisons on LIFE, TREASURE, TURN, ARROWS.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from games.core.orders import Grammar, OrderSyntax, choose, compare, parse_comparison

from . import content
from .board import COLS, ROWS, SIDE_WORDS, is_square
from .content import CONDITION_WORDS, PHRASES, RING_KEYS, TILE_KINDS

DIR_WORDS = {"NORTH": "N", "N": "N", "EAST": "E", "E": "E", "SOUTH": "S", "S": "S",
             "WEST": "W", "W": "W"}
MONSTER_WORDS = {"GOBLIN": "goblin", "ORC": "orc", "DEATH-WARRIOR": "death-warrior",
                 "SKELETON": "death-warrior", "DEATHWARRIOR": "death-warrior",
                 "TROLL": "troll", "CHAMPION": "champion"}
EVENTS = {"MONSTER": "monster", "AMBUSH": "monster", "SPIDER": "spider", "CRYPT": "crypt",
          "CORPSE": "corpse", "BODY": "corpse", "TRAP": "trap", "DOOR": "door",
          "PORTCULLIS": "portcullis", "POTION": "potion", "FAIL": "fail", "TILE": "tile"}
COMPARE_NAMES = ["LIFE", "TREASURE", "TURN", "ARROWS"]
RING_WORDS = {k.upper(): k for k in RING_KEYS}
# The die rolls the Ring of Luck may replace (USE RING OF LUCK ON <roll>); plain USE RING
# OF LUCK replaces the first bad roll of any of them. See README "The Ring of Luck".
LUCK_ROLLS = {"CHECK": "check", "FAIL": "check", "REACTION": "reaction", "COMBAT": "combat",
              "FIGHT": "combat", "DAMAGE": "damage", "HARM": "damage", "POTION": "potion",
              "DARKNESS": "darkness", "SPIDER": "spider"}
LUCK_KINDS = sorted(set(LUCK_ROLLS.values()))

Order = dict[str, Any]
Item = dict[str, Any]

# -- the rulebook's words (data/words.toml) ------------------------------------------

ARTICLES = {"THE", "A", "AN"}
_STOP = re.compile(r"^(end|--)$|^>|^on\b.+\bwrote:?$", re.IGNORECASE)


def _words(text: str) -> list[str]:
    """Upper-case words: "&" is AND; "/", quotes, sentence punctuation and hyphens (not a
    minus sign) are spaces; articles are dropped."""
    text = text.replace("&", " AND ").replace("/", " ")
    text = re.sub(r"[.,;:?\"'()\u2019]|!(?!=)", " ", text)
    text = re.sub(r"-(?!\d)", " ", text)
    return [w for w in text.upper().split() if w not in ARTICLES]


_PHRASES = sorted(((tuple(_words(k)), v.split()) for k, v in PHRASES.items()),
                  key=lambda kv: -len(kv[0]))


@functools.lru_cache(maxsize=4096)
def rulebook_words(line: str) -> str:
    """One order line with the rulebook's phrases turned into the engine's words (a pure
    function of the line, kept for lines seen again: bots and standing orders repeat)."""
    words = _words(line)
    out: list[str] = []
    i = 0
    while i < len(words):
        for key, value in _PHRASES:
            if tuple(words[i:i + len(key)]) == key:
                out += value
                i += len(key)
                break
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


def normalize(text: str) -> str:
    """Every order line read through `rulebook_words`, line numbers and comments kept;
    nothing after the end of the orders (END, a signature, a quoted reply) is touched."""
    out = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for n, raw in enumerate(lines):
        body, hash_, comment = raw.partition("#")
        if _STOP.match(raw.strip()) or raw.startswith("-- "):
            out += lines[n:]
            break
        out.append(rulebook_words(body) + (hash_ + comment if hash_ else ""))
    return "\n".join(out)



def _direction(token: str) -> str:
    side = DIR_WORDS.get(token.upper())
    if side is None:
        raise OrderSyntax(f"{token!r} is not a direction", "use NORTH, EAST, SOUTH or WEST")
    return side


def _square(token: str) -> str:
    if not is_square(token):
        raise OrderSyntax(f"{token!r} is not a square",
                          f"squares run A1..{COLS[-1]}{ROWS}, e.g. F7")
    return token.upper()


def _no_args(tokens: list[str], what: str) -> None:
    if tokens:
        raise OrderSyntax(f"{what} takes nothing after it", f"write just {what}")


def _move(tokens: list[str], ctx: Any) -> Order:
    if not tokens:
        raise OrderSyntax("MOVE needs a direction or TO <square>", "e.g. MOVE NORTH or MOVE TO F7")
    if tokens[0].upper() == "TO":
        if len(tokens) != 2:
            raise OrderSyntax("MOVE TO takes one square", "e.g. MOVE TO F7")
        if tokens[1].upper() == "TOWER":  # "back to a corner room": the nearest, and out
            return {"op": "leave"}
        return {"op": "move", "to": _square(tokens[1])}
    if tokens[0].upper() == "BACK" and len(tokens) == 1:
        return {"op": "move", "back": True}
    words = [t for t in tokens if t.upper() != "THEN"]
    if len(words) > 6:
        raise OrderSyntax("at most six directions in one MOVE")
    return {"op": "move", "dirs": [_direction(t) for t in words]}


def _retreat(tokens: list[str], ctx: Any) -> Order:
    _no_args(tokens, "RETREAT")
    return {"op": "move", "back": True}


def _search(tokens: list[str], ctx: Any) -> Order:
    words = [t.upper() for t in tokens if t.upper() != "THEN"]
    if not words:
        return {"op": "search"}
    if words == ["CRYPT"]:
        return {"op": "search", "target": "crypt"}
    if words in (["BODY"], ["CORPSE"]):
        return {"op": "search", "target": "body"}
    if len(words) == 1 and is_square(words[0]):
        return {"op": "search", "to": words[0]}
    if len(words) == 1:
        return {"op": "search", "dir": _direction(words[0])}
    raise OrderSyntax("SEARCH takes at most one direction",
                      "e.g. SEARCH THEN EAST, SEARCH THEN G7, SEARCH CRYPT or SEARCH BODY")


def _leave(tokens: list[str], ctx: Any) -> Order:
    words = [t.upper() for t in tokens if t.upper() not in ("THE", "EARLY")]
    if words not in ([], ["DUNGEON"]):
        raise OrderSyntax("LEAVE takes nothing after it",
                          "write LEAVE: in a corner tower the hero quits the dungeon; "
                          "elsewhere he heads for the nearest tower to quit there")
    return {"op": "leave"}


def _stay(tokens: list[str], ctx: Any) -> Order:
    _no_args(tokens, "STAY")
    return {"op": "stay"}


def _destination(tokens: list[str], ctx: Any) -> Order:
    if len(tokens) != 1:
        raise OrderSyntax("DESTINATION takes one square (or NONE)", "e.g. DESTINATION G7")
    if tokens[0].upper() == "NONE":
        return {"op": "destination", "square": None}
    return {"op": "destination", "square": _square(tokens[0])}


def _simple(op: str):
    def handler(tokens: list[str], ctx: Any) -> Order:
        _no_args(tokens, op.upper())
        return {"op": op}
    return handler


def _shoot(tokens: list[str], ctx: Any) -> Order:
    _no_args(tokens, "SHOOT")
    if ctx is not None:
        state, seat = ctx
        hero = state["chars"][seat]["hero"]
        if content.of(state).heroes[hero]["arrows"] == 0:
            raise OrderSyntax("only the ranger carries a bow", "use ATTACK or FIGHT")
    return {"op": "shoot"}


def _drink(tokens: list[str], ctx: Any) -> Order:
    if [t.upper() for t in tokens] not in ([], ["POTION"]):
        raise OrderSyntax("write DRINK POTION")
    return {"op": "drink"}


def _pick_up(tokens: list[str], ctx: Any) -> Order:
    if [t.upper() for t in tokens] not in ([], ["POTION"]):
        raise OrderSyntax("write PICK UP POTION", "it answers IF POTION (a potion is found)")
    return {"op": "take"}


def _discard(tokens: list[str], ctx: Any) -> Order:
    if [t.upper() for t in tokens] not in ([], ["POTION"]):
        raise OrderSyntax("write DISCARD POTION", "it answers IF POTION (a potion is found)")
    return {"op": "discard"}


def _ring(tokens: list[str], ctx: Any) -> Order:
    return _use(["RING", *tokens], ctx)


def _use(tokens: list[str], ctx: Any) -> Order:
    words = [t.upper() for t in tokens if t.upper() not in ("RING", "OF", "THE")]
    on = None
    if "ON" in words:  # USE RING OF LUCK ON <roll>: which die roll the ring replaces
        at = words.index("ON")
        words, rest = words[:at], words[at + 1:]
        if words != ["LUCK"]:
            raise OrderSyntax("only the Ring of Luck is used ON a roll",
                              "e.g. USE RING OF LUCK ON COMBAT")
        on = LUCK_ROLLS.get(" ".join(rest))
        if on is None:
            from games.core.orders import suggest
            raise OrderSyntax(f"the Ring of Luck cannot replace {' '.join(rest).lower()!r}",
                              suggest(" ".join(rest), LUCK_ROLLS))
    if len(words) != 1:
        raise OrderSyntax("write USE RING OF <name>",
                          "rings: " + ", ".join(sorted(RING_WORDS)))
    ring = RING_WORDS.get(words[0])
    if ring is None:
        from games.core.orders import suggest
        raise OrderSyntax(f"there is no ring of {words[0].lower()}", suggest(words[0], RING_WORDS))
    if ctx is not None:
        state, seat = ctx
        if ring not in state["chars"][seat]["rings"]:
            rings = content.of(state).rings
            mine = ", ".join(rings[r]["name"] for r in state["chars"][seat]["rings"]) or "none"
            raise OrderSyntax(f"you do not carry the {rings[ring]['name']}",
                              f"your unused rings: {mine}")
    if on is not None:
        return {"op": "use", "ring": ring, "on": on}
    return {"op": "use", "ring": ring}


def _condition(tokens: list[str], ctx: Any) -> dict[str, Any]:
    """One condition, or several joined by AND (all must hold; at most one event)."""
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token.upper() == "AND":
            parts.append([])
        else:
            parts[-1].append(token)
    if any(not p for p in parts):
        raise OrderSyntax("AND needs a condition on both sides",
                          "e.g. IF MONSTER TROLL AND LIFE < 8 THEN ESCAPE")
    conds = [_one_condition(p, ctx) for p in parts]
    if len(conds) == 1:
        return conds[0]
    if sum(1 for c in conds if c["test"] == "event") > 1:
        raise OrderSyntax("at most one event (MONSTER, CRYPT, a card...) per condition",
                          "join an event with comparisons, e.g. IF CRYPT AND LIFE > 6 THEN "
                          "SEARCH CRYPT; write two IF lines for two events")
    from games.core.orders import render_condition
    return {"test": "all", "parts": conds,
            "text": " AND ".join(render_condition(c) for c in conds)}


def _one_condition(tokens: list[str], ctx: Any) -> dict[str, Any]:
    head = tokens[0].upper()
    if head in CONDITION_WORDS and len(tokens) == 1:
        kind, _, what = CONDITION_WORDS[head].partition(":")
        if kind == "card":
            return {"test": "event", "on": "card", "what": what, "text": head}
        tokens = ["MONSTER" if kind == "monster" else "TILE", head]
        head = tokens[0]
    if head in EVENTS:
        on = EVENTS[head]
        rest = [t.upper() for t in tokens[1:]]
        cond: dict[str, Any] = {"test": "event", "on": on}
        if head == "AMBUSH":
            cond["ambush"] = True
        if on == "monster" and rest:
            kind = MONSTER_WORDS.get("-".join(rest))
            if kind is None:
                from games.core.orders import suggest
                raise OrderSyntax(f"unknown monster {' '.join(rest).lower()!r}",
                                  suggest("-".join(rest), MONSTER_WORDS))
            cond["what"] = kind
        elif on == "tile" and rest:
            kind = "-".join(rest).lower()
            if kind not in TILE_KINDS:
                raise OrderSyntax(f"unknown tile kind {kind!r}",
                                  "kinds: " + ", ".join(TILE_KINDS))
            cond["what"] = kind
        elif rest:
            raise OrderSyntax(f"IF {head} takes nothing more", f"write IF {head} THEN ...")
        cond["text"] = " ".join([head] + ([_what_word(cond)] if "what" in cond else []))
        return cond
    if any(c in "".join(tokens) for c in "<>="):
        return parse_comparison(tokens, COMPARE_NAMES)
    from games.core.orders import suggest
    raise OrderSyntax(f"unknown condition {' '.join(tokens)!r}",
                      suggest(tokens[0], list(EVENTS) + COMPARE_NAMES + list(CONDITION_WORDS)))


def _what_word(cond: dict[str, Any]) -> str:
    return cond["what"].upper()


def render(order: Order) -> str:
    op = order["op"]
    if op == "move":
        if order.get("to"):
            return f"MOVE TO {order['to']}"
        if order.get("back"):
            return "RETREAT"
        return "MOVE " + " ".join(SIDE_WORDS[d].upper() for d in order["dirs"])
    if op == "search":
        if order.get("target"):
            return f"SEARCH {order['target'].upper()}"
        if order.get("dir"):
            return f"SEARCH THEN {SIDE_WORDS[order['dir']].upper()}"
        if order.get("to"):
            return f"SEARCH THEN {order['to']}"
        return "SEARCH"
    if op == "destination":
        return f"DESTINATION {order['square'] or 'NONE'}"
    if op == "drink":
        return "DRINK POTION"
    if op == "leave":
        return "LEAVE"
    if op == "take":
        return "PICK UP POTION"
    if op == "discard":
        return "DISCARD POTION"
    if op == "use":
        on = f" ON {order['on'].upper()}" if order.get("on") else ""
        return f"USE RING OF {order['ring'].upper()}{on}"
    return op.upper()


def _hero(tokens: list[str], ctx: Any) -> Order:
    # HERO is read by rules/heroes.py while heroes are chosen (the service's turn 1); it is
    # an order word of the game, so mail and the order form name it, and later it is
    # refused with the reason rather than as an unknown order.
    raise OrderSyntax("heroes are chosen before the first move, and yours is chosen: "
                      "HERO is no order now", "write this turn's orders, e.g. MOVE NORTH")


KEYWORDS = {"MOVE": _move, "GO": _move, "RETREAT": _retreat, "SEARCH": _search,
            "STAY": _stay, "LEAVE": _leave, "LOOT": _stay, "REST": _stay, "DESTINATION": _destination,
            "ATTACK": _simple("attack"), "WAIT": _simple("wait"), "ESCAPE": _simple("escape"),
            "SHOOT": _shoot, "FIGHT": _simple("fight"), "FLEE": _simple("flee"),
            "IGNORE": _simple("ignore"), "DRINK": _drink, "USE": _use, "RING": _ring,
            "FIRE": _shoot, "PICK": _pick_up, "DISCARD": _discard, "HERO": _hero}

GRAMMAR = Grammar(KEYWORDS, condition=_condition, render=render)


def parse(text: str, ctx: Any) -> tuple[list[Item], list[str]]:
    return GRAMMAR.parse(normalize(text), ctx)


# -- choosing the order that answers a situation ------------------------------------

# The orders that answer each situation; rings are "use:<ring>".
ANSWERS: dict[str, set[str]] = {
    "monster": {"attack", "wait", "escape", "shoot", "use:blinding"},
    "spider": {"fight", "flee", "shoot", "attack", "escape"},
    "crypt": {"search:crypt", "ignore"},
    "corpse": {"search:body", "ignore"},
    "potion": {"drink", "take", "discard"},
    "trap": {"use:warning"},
    "door": {"use:opening"},
    "portcullis": {"use:opening"},
    "luck": {"use:luck:any", *(f"use:luck:{k}" for k in LUCK_KINDS)},
    "tile": {"use:transformation"},
    "search": {"use:vision"},
    "start": {"drink", "use:healing"},
    "action": {"move", "search", "stay", "leave"},
    "hurt": {"drink"},
}


def key_of(order: Order) -> str:
    if order["op"] == "use" and order["ring"] == "luck":
        return f"use:luck:{order.get('on') or 'any'}"
    if order["op"] == "use":
        return f"use:{order['ring']}"
    if order["op"] == "search" and order.get("target"):
        return f"search:{order['target']}"
    return order["op"]


def parts(cond: dict[str, Any]) -> list[dict[str, Any]]:
    return cond["parts"] if cond.get("test") == "all" else [cond]


def event_of(cond: dict[str, Any]) -> dict[str, Any] | None:
    """The event a condition waits for (None: comparisons only, judged at once)."""
    return next((p for p in parts(cond) if p.get("test") == "event"), None)


def facts_match(cond: dict[str, Any], facts: dict[str, Any]) -> bool:
    if cond.get("on") == "card":
        return bool(facts.get("card") == cond["what"])
    if cond.get("on") == "fail":  # IF FAIL: a failed Strength, Agility or torch check
        return bool(facts.get("fail"))
    if cond.get("ambush") and not facts.get("ambush"):
        return False
    return "what" not in cond or cond["what"] == facts.get("what")


def value_of(name: str, ch: dict[str, Any], turn: int) -> int:
    if name == "LIFE":
        return ch["life"]
    if name == "TREASURE":
        return sum(t["value"] for t in ch["treasure"])
    if name == "TURN":
        return turn
    return ch["arrows"]


def answer(items: list[Item], situation: str, facts: dict[str, Any], ch: dict[str, Any],
           turn: int, *, allowed: set[str] | None = None, plain: bool = True,
           event_only: bool = False) -> Order | None:
    """The first order among `items` that answers `situation`, or None.

    Plain orders answer any situation they fit (unless `plain` is False); an event
    condition answers only its own situation (THEN when the facts match, else ELSE); a
    comparison is judged now. `allowed` narrows the answers (e.g. no ESCAPE behind a
    portcullis); `event_only` ignores comparisons.
    """
    valid = ANSWERS[situation] if allowed is None else ANSWERS[situation] & allowed

    def holds(cond: dict[str, Any]) -> bool:
        if cond.get("test") == "compare":
            return compare(cond["op"], value_of(cond["name"], ch, turn), cond["value"])
        return facts_match(cond, facts)

    def test(cond: dict[str, Any]) -> bool:
        return all(holds(p) for p in parts(cond))

    for item in items:
        if "cancel" in item:
            continue
        if "order" in item:
            if not plain:
                continue
        elif "if" in item:
            event = event_of(item["if"])
            if event is None and event_only:
                continue
            if event is not None and event["on"] == "card":
                # a card answers what it brings, never the turn's move or its start
                if situation in ("action", "start"):
                    continue
            elif event is not None and event["on"] != situation and \
                    not (event["on"] == "fail" and situation == "luck"):
                continue
        order = choose(item, test)
        if order is not None and key_of(order) in valid:
            return order
    return None
