"""What the order form offers, sorted by what each offer is.

An engine's prompt lists `choices`: "the legal orders or their parts". The page must
never offer as a one-click pick something the engine would refuse, so every choice is
tried against the parser before it is shown:

* quick picks: complete orders that parse on their own, as shown;
* forms: patterns with a `<placeholder>` to fill in (shown as text, never as a pick);
* parts: pieces that only make an order together with others (e.g. an item and the
  specialty dice that must come with it); they append a line, and are labelled so.

The example is shown (with its lines kept) only when it parses; `example_refused`
carries the parser's message so a test and the GM can see an engine's broken example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from games.core.engine import Engine
from games.core.types import OrdersInvalid

PLACEHOLDER = re.compile(r"<[^<>]+>")
MAX_SHOWN = 60


@dataclass
class OrderOffers:
    picks: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
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
    example = prompt.get("example") or ""
    if isinstance(example, str) and example.strip():
        problem = parses(engine, state, seat, example)
        if problem:
            out.example_refused = problem
        else:
            out.example = example
    return out
