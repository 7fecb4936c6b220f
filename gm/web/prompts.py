"""What the order form offers, sorted by what each offer is.

An engine's prompt lists `choices`: "the legal orders or their parts". The page must
never offer as a one-click pick something the engine would refuse, so every choice is
tried against the parser before it is shown:

* quick picks: complete orders that parse on their own, as shown;
* forms: patterns with a `<placeholder>` to fill in (shown as text, never as a pick),
  written `FORM — what it does (e.g. EXAMPLE)` when the engine explains them: the page
  lists each with its note and example (a list to scan on a phone, not a paragraph);
* parts: pieces that only make an order together with others (e.g. an item and the
  specialty dice that must come with it); they append a line, and are labelled so.

The example is shown (with its lines kept) only when it parses; `example_refused`
carries the parser's message so a test and the GM can see an engine's broken example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from games.core.engine import Engine
from games.core.types import OrdersInvalid

PLACEHOLDER = re.compile(r"<[^<>]+>")
FORM_PARTS = re.compile(r"^(?P<form>.*?)(?: — (?P<note>.*?))?(?: \(e\.g\. (?P<example>[^()]*)\))?$",
                        re.S)
MAX_SHOWN = 60


@dataclass(frozen=True)
class FormHelp:
    form: str  # the pattern, e.g. "MOVE TO <square>"
    note: str = ""  # what it does
    example: str = ""  # one filled-in line
    # The example parses on its own as shown: the page gives it an "Add" button, so a
    # phone player taps "IF MONSTER TROLL THEN ESCAPE ELSE ATTACK" into the box rather
    # than typing it out on a phone keyboard.
    example_parses: bool = False


def form_help(choice: str) -> FormHelp:
    """'MOVE TO <square> — the shortest way (e.g. MOVE TO F7)' -> its three parts."""
    match = FORM_PARTS.match(choice.strip())
    assert match is not None  # every part of the pattern is optional
    return FormHelp(match["form"].strip(), (match["note"] or "").strip(),
                    (match["example"] or "").strip())


@dataclass
class OrderOffers:
    picks: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
    form_help: list[FormHelp] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    example: str = ""
    example_refused: str = ""


def parses(engine: Engine, state: Any, seat: str, text: str) -> str:
    """"" when `text` parses for `seat` now, else the first error's message."""
    try:
        engine.parse_orders(state, seat, text)
    except OrdersInvalid as exc:
        return exc.errors[0].message if exc.errors else "refused"
    except Exception as exc:  # an engine bug must not break the page; say what happened
        return f"the parser failed: {exc!r}"
    return ""


def offers(engine: Engine, state: Any, seat: str, prompt: dict[str, Any]) -> OrderOffers:
    out = OrderOffers()
    for choice in (prompt.get("choices") or [])[:200]:
        if not isinstance(choice, str) or not choice.strip():
            continue
        if PLACEHOLDER.search(choice):
            out.forms.append(choice)
        elif not parses(engine, state, seat, choice):
            out.picks.append(choice)
        else:
            out.parts.append(choice)
    out.picks, out.forms, out.parts = (out.picks[:MAX_SHOWN], out.forms[:MAX_SHOWN],
                                       out.parts[:MAX_SHOWN])
    out.form_help = []
    for choice in out.forms:
        shown = form_help(choice)
        if shown.example and "\n" not in shown.example \
                and not parses(engine, state, seat, shown.example):
            shown = replace(shown, example_parses=True)
        out.form_help.append(shown)
    example = prompt.get("example") or ""
    if isinstance(example, str) and example.strip():
        problem = parses(engine, state, seat, example)
        if problem:
            out.example_refused = problem
        else:
            out.example = example
    return out
