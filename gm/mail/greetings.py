"""Greetings and sign-offs around the orders in a mail: which lines are skipped, and why.

Players write "Hi GM," or "here are my orders:" above their orders and "Cheers & good
luck!" below them. The rule, applied to the text left after the quoted reply, the
signature and anything after END are cut off (README, "Playing", Email):

0. The size comes first: a text over the order-size limit (gm.play.limits) is refused
   for its size before any line is looked at, so a huge text with no order in it is
   answered with the limit, never "no orders found" echoing it back.
1. Only lines the order parser would read count: blank lines and `#` comments never do.
2. A line *may be an order* when any of its words is one of the game's order words (the
   keywords of its order grammar: ADD, EQUIP, MOVE...), when its first word is IF,
   STANDING or CANCEL and the game has such orders, or when its first word is one slip
   away from an order word (EQIUP for EQUIP: difflib ratio 0.8 or more, or two
   neighbouring letters swapped, HEOR for HERO). Otherwise the
   game's own parser has the last word: the line alone is parsed, and it may be an order
   unless that fails with "unknown order" on it (this catches the phrases some games
   read as orders, such as Dungeonquest's "Draw corpse card", and serves engines that
   expose no grammar at all).
3. Lines before the first line that may be an order, and after the last one, are
   greetings and sign-offs: they are blanked (so error line numbers still match the
   mail) and listed back to the player under "not read".
4. Everything from the first to the last such line goes to the order parser, so a line
   in the middle that is not an order still refuses the whole mail, with its error.
5. When no line may be an order, nothing is read: the answer is "no orders found", with
   every line listed back.

The same rule reads the web order form (its preview, live preview and send): `for_seat`
is the one entry both paths call, so a greeting typed in the box is skipped and listed
back as on mail. (The API takes its text as given: programs send no greetings.)

The rule leans towards reading: a closing line that happens to use an order word ("Let's
go!" in a game with GO) is read, and its error refuses the mail, rather than an order
with a typo being skipped in silence.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.core.orders import Grammar, order_lines
from games.core.types import OrdersInvalid

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
_CLOSE = 0.8


@dataclass(frozen=True)
class Vocabulary:
    """The words that make a line a possible order in one game."""

    keywords: frozenset[str]  # any word of the line
    leading: frozenset[str] = frozenset()  # only as the line's first word

    def may_be_order(self, line: str) -> bool:
        words = [w.upper().strip("'-") for w in _WORD.findall(line)]
        if not words:
            return False
        if words[0] in self.leading or any(w in self.keywords for w in words):
            return True
        first = words[0]
        return len(first) >= 3 and any(
            _swapped(first, k) or difflib.SequenceMatcher(None, first, k).ratio() >= _CLOSE
            for k in self.keywords)


def _swapped(word: str, keyword: str) -> bool:
    """Two neighbouring letters typed the other way round (HEOR for HERO): one slip, which
    the ratio misses in a short word (0.75 for four letters)."""
    if len(word) != len(keyword) or word == keyword:
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, keyword)) if a != b]
    return (len(diff) == 2 and diff[1] == diff[0] + 1
            and word[diff[0]] == keyword[diff[1]] and word[diff[1]] == keyword[diff[0]])


def grammar_of(engine: Any) -> Grammar | None:
    """The engine's order grammar: an attribute `grammar`, a module-level GRAMMAR beside
    the engine class, or GRAMMAR in the game package's `orders` module; None if none."""
    found = getattr(engine, "grammar", None)
    if isinstance(found, Grammar):
        return found
    module_name = type(engine).__module__
    candidates = [module_name, module_name.rsplit(".", 1)[0] + ".orders"]
    for name in candidates:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found = getattr(module, "GRAMMAR", None)
        if isinstance(found, Grammar):
            return found
    return None


_VOCABULARIES: dict[type, Vocabulary | None] = {}


def vocabulary(engine: Any) -> Vocabulary | None:
    """The order words of the engine's game (cached per engine class), or None."""
    cls = type(engine)
    if cls not in _VOCABULARIES:
        grammar = grammar_of(engine)
        if grammar is None:
            _VOCABULARIES[cls] = None
        else:
            leading = (({"IF"} if grammar.condition else set())
                       | ({"STANDING", "CANCEL"} if grammar.standing else set()))
            _VOCABULARIES[cls] = Vocabulary(frozenset(grammar.keywords), frozenset(leading))
    return _VOCABULARIES[cls]


def parse_test(engine: Any, state: Callable[[], Any], seat: str) -> Callable[[str], bool]:
    """A line may be an order unless the engine, parsing it alone, says "unknown order"
    on it (the shared grammar's words for a line that starts with no order of the
    game). The state is read once, on the first line asked about."""
    loaded: list[Any] = []

    def test(line: str) -> bool:
        if not loaded:
            loaded.append(state())
        try:
            engine.parse_orders(loaded[0], seat, line)
        except OrdersInvalid as exc:
            return not any(e.line == 1 and e.message.lower().startswith("unknown order")
                           for e in exc.errors)
        except Exception:  # an engine's own complaint: read the line, let it say so
            return True
        return True
    return test


def order_test(engine: Any, state: Callable[[], Any], seat: str) -> Callable[[str], bool]:
    """The "may be an order" test for one seat of one game (rule 2): the order words
    first (no database, no parsing), the engine's parser for the lines they leave out."""
    vocab = vocabulary(engine)
    parsed = parse_test(engine, state, seat)
    if vocab is None:
        return parsed
    return lambda line: vocab.may_be_order(line) or parsed(line)


@dataclass
class Trimmed:
    text: str  # the orders with greeting and sign-off lines blanked
    skipped: list[str] = field(default_factory=list)  # those lines, as written
    has_orders: bool = True  # False when no line may be an order (rule 5)


def trim(text: str, may_be_order: Callable[[str], bool]) -> Trimmed:
    """Apply rules 1-5 to `text` (the player's part of the mail)."""
    candidates = order_lines(text)
    flags = [may_be_order(line.text) for line in candidates]
    if not any(flags):
        raw = text.split("\n")
        return Trimmed("", [raw[c.number - 1].strip() for c in candidates], has_orders=False)
    first = flags.index(True)
    last = len(flags) - 1 - flags[::-1].index(True)
    outside = candidates[:first] + candidates[last + 1:]
    if not outside:
        return Trimmed(text)
    lines = text.split("\n")
    skipped = []
    for line in outside:
        skipped.append(lines[line.number - 1].strip())
        lines[line.number - 1] = ""
    return Trimmed("\n".join(lines), skipped)


def for_seat(game: Any, seat: Any, text: str) -> Trimmed:
    """Rules 0-5 for orders `seat` sends in `game`, by mail or on the web form.

    Rule 0 (the size) raises gm.play.limits.TooLarge, an ActionError, as
    `actions.submit_orders` would: the one size rule, checked here first for both paths.

    A line is tried on the engine's parser with the game's published state (never the
    outcome of a turn held for review: `actions.orders_state`), read from the database
    only when a line needs it; a state the engine cannot load is an ActionError
    (gm.play.actions.stored_state) for the caller to answer with.
    """
    from gm.play import actions, limits
    from gm.play.errors import Conflict

    limits.check_order_text(text)  # rule 0: the size before anything else
    if getattr(game, "status", None) == "open":  # no state yet: nothing to read lines with
        raise Conflict("the game has not started: orders can be written once its GM "
                       "starts it")
    engine = actions.engine_for(game)

    def state() -> Any:
        return engine.from_json(actions.orders_state(game.pk))

    with actions.stored_state(game, "read"):
        return trim(text, order_test(engine, state, seat.name))
