"""The GM's adjudication as an order text: the "orders" of the pseudo-seat GM.

Lines starting with `@` are directives; every other line belongs to the block the last
block directive opened (text before any is the public report). `@@` at the start of a
line writes a literal `@`.

    @public                      the public report (markdown)
    @private <seat>              <seat>'s private report
    @sheet <seat>                <seat>'s private sheet, replaced (shown on its page)
    @notes                       the GM-only notes, replaced
    @roll <label>: <dice>        a public roll, e.g. `@roll attack on Paris: 2d6+1`
    @secret-roll <label>: <dice> a roll only the GM sees until the game ends
    @draw <label>: <deck> [n]    draw n (1) cards from a named deck, public
    @deck <name>: a, b, c        set up (or reset) a named deck
    @add <seat>  /  @remove <seat>   seats joining or leaving from the next turn
    @end                         the game ends with this adjudication

In any report, `{label}` is replaced by that roll's or draw's result (the latest of
that label: a reroll is a new roll with the same label, and both are listed).
"""

from __future__ import annotations

import re
from typing import Any

from games.core.types import OrderError, Orders, OrdersInvalid

from . import dice

GM = "GM"
SEAT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,29}$")
BLOCKS = ("public", "private", "sheet", "notes")
ACTIONS = ("roll", "secret-roll", "draw", "deck", "add", "remove", "end")
MAX_DRAW = 20
NO_ORDERS = "NO ORDERS"  # a seat's explicit nothing, and its default


def _label(rest: str, line: int, what: str, errors: list[OrderError]) -> tuple[str, str] | None:
    label, sep, arg = rest.partition(":")
    label = " ".join(label.split())
    if not sep or not label or not arg.strip():
        errors.append(OrderError(line, f"@{what} needs a label and a colon",
                                 f"e.g. @{what} attack on Paris: 2d6+1" if "roll" in what
                                 else f"e.g. @{what} omen: tarot"))
        return None
    if "{" in label or "}" in label or len(label) > 60:
        errors.append(OrderError(line, "a label is up to 60 characters, without { or }"))
        return None
    return label, arg.strip()


def parse(state: dict[str, Any], text: str) -> Orders:
    """The GM's text as items: blocks, rolls, draws, decks, seat changes; every error."""
    seats = list(state["seats"])
    decks = set(state["decks"])
    errors: list[OrderError] = []
    items: list[dict[str, Any]] = []
    block: dict[str, Any] = {"op": "public", "lines": []}
    blocks = [block]
    pending_seats = set(seats)
    for n, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        line = raw.rstrip()
        if not line.startswith("@") or line.startswith("@@"):
            block["lines"].append(line[1:] if line.startswith("@@") else line)
            continue
        word, _, rest = line[1:].partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in BLOCKS:
            if word in ("private", "sheet"):
                if rest not in seats:
                    errors.append(OrderError(n, f"@{word} names no seat of this turn: "
                                                f"{rest or '(none)'}",
                                             "seats: " + ", ".join(seats)))
                    continue
            elif rest:
                errors.append(OrderError(n, f"@{word} takes nothing after it"))
                continue
            block = {"op": word, "seat": rest, "lines": []} if rest else {"op": word,
                                                                          "lines": []}
            blocks.append(block)
        elif word in ("roll", "secret-roll"):
            found = _label(rest, n, word, errors)
            if found:
                try:
                    dice.parse(found[1])
                except dice.DiceError as exc:
                    errors.append(OrderError(n, str(exc)))
                    continue
                items.append({"op": "roll", "label": found[0], "expr": found[1],
                              "secret": word == "secret-roll"})
        elif word == "draw":
            found = _label(rest, n, word, errors)
            if found:
                parts = found[1].rsplit(None, 1)
                count = 1
                if len(parts) == 2 and parts[1].isdigit():
                    name, count = parts[0], int(parts[1])
                else:
                    name = found[1]
                if name not in decks:
                    errors.append(OrderError(n, f"no deck named {name!r}",
                                             "set one up with @deck name: card, card, ..."
                                             if not decks else "decks: " + ", ".join(sorted(decks))))
                    continue
                if not 1 <= count <= MAX_DRAW:
                    errors.append(OrderError(n, f"draw 1 to {MAX_DRAW} cards at once"))
                    continue
                items.append({"op": "draw", "label": found[0], "deck": name, "count": count})
        elif word == "deck":
            name, sep, cards = rest.partition(":")
            name = " ".join(name.split())
            names = [c.strip() for c in cards.split(",") if c.strip()]
            if not sep or not name or not names:
                errors.append(OrderError(n, "@deck needs a name, a colon and its cards",
                                         "e.g. @deck omens: raven, comet, eclipse"))
                continue
            if len(names) > 200:
                errors.append(OrderError(n, "a deck holds at most 200 cards"))
                continue
            decks.add(name)
            items.append({"op": "deck", "name": name, "cards": names})
        elif word in ("add", "remove"):
            if word == "add" and (not SEAT_NAME.match(rest) or rest == GM):
                errors.append(OrderError(n, f"{rest!r} is not a seat name",
                                         "1-30 letters, digits, spaces, . _ ' -; not GM"))
            elif word == "add" and (rest in pending_seats or rest in state["left"]):
                errors.append(OrderError(n, f"there already is a seat {rest!r}"))
            elif word == "remove" and rest not in pending_seats:
                errors.append(OrderError(n, f"no seat {rest!r} to remove"))
            else:
                (pending_seats.add if word == "add" else pending_seats.discard)(rest)
                items.append({"op": word, "seat": rest})
        elif word == "end":
            items.append({"op": "end"})
        else:
            errors.append(OrderError(n, f"unknown directive @{word}",
                                     "@public @private @sheet @notes @roll @secret-roll "
                                     "@draw @deck @add @remove @end (@@ for a literal @)"))
    if errors:
        raise OrdersInvalid(errors)
    for b in blocks:
        body = "\n".join(b.pop("lines")).strip("\n")
        if body or b["op"] in ("sheet", "notes"):
            items.append({**b, "text": body})
    return Orders(GM, items, _canonical(items))


def _canonical(items: list[dict[str, Any]]) -> str:
    """The adjudication as understood (what the receipt echoes)."""
    out: list[str] = []
    for item in items:
        op = item["op"]
        if op == "roll":
            out.append(f"@{'secret-roll' if item['secret'] else 'roll'} {item['label']}: "
                       f"{item['expr']}")
        elif op == "draw":
            out.append(f"@draw {item['label']}: {item['deck']} {item['count']}")
        elif op == "deck":
            out.append(f"@deck {item['name']}: {', '.join(item['cards'])}")
        elif op in ("add", "remove"):
            out.append(f"@{op} {item['seat']}")
        elif op == "end":
            out.append("@end")
        else:
            out.append(f"@{op}" + (f" {item['seat']}" if item.get("seat") else ""))
            out.extend("@" + ln if ln.startswith("@") else ln
                       for ln in item["text"].split("\n") if item["text"])
    return "\n".join(out)


def check_player(state: dict[str, Any], seat: str, text: str) -> Orders:
    """A player's free-text orders, held to the GM's optional checks."""
    options = state["options"]
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    errors: list[OrderError] = []
    if [ln.strip().upper() for ln in lines] == [NO_ORDERS]:
        return Orders(seat, [], NO_ORDERS)
    if not lines:
        raise OrdersInvalid([OrderError(0, "no orders: write what your seat does this turn")])
    cap = options.get("max_lines", 0)
    if cap and len(lines) > cap:
        errors.append(OrderError(cap + 1, f"the GM allows at most {cap} lines of orders; "
                                          f"these have {len(lines)}",
                                 "shorten or join lines"))
    words = [w.strip().upper() for w in options.get("first_words", "").split(",") if w.strip()]
    if words:
        for n, ln in enumerate(lines, 1):
            if not ln.strip():
                continue
            first = ln.split()[0].upper()
            if first not in words:
                errors.append(OrderError(n, f"a line must start with one of: {', '.join(words)}",
                                         f"this one starts with {ln.split()[0]!r}"))
    if errors:
        raise OrdersInvalid(errors)
    body = "\n".join(lines)
    return Orders(seat, [{"text": body}], body)
