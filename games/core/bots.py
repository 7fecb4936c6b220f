"""Bots that play a seat from what that seat may see, and nothing else.

The service plays a bot for a seat in civil disorder, for a seat left to a bot at
creation, and for a player away on vacation who chose "bot". A bot must never play
with hidden information: it gets the seat's `view()` and its prompt, never the state.
Its choices are deterministic in what it sees (the pick below is seeded from the seed
the caller gives and the canonical view and prompt), so a perturbation of hidden state
can be shown to leave the bot's orders unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .canonical import canonical_json
from .engine import Engine, State


def seeded_pick(seed: str) -> Any:
    """A `pick(options)` that chooses uniformly, deterministically from `seed`."""
    counter = 0

    def pick(options: Sequence[Any]) -> Any:
        nonlocal counter
        items = list(options)
        if not items:
            raise ValueError("pick from an empty sequence")
        digest = hashlib.sha256(f"{seed}|{counter}".encode()).digest()
        counter += 1
        return items[int.from_bytes(digest[:8], "big") % len(items)]

    return pick


def bot_text(engine: Engine, state: State, seat: str, seed: str = "") -> str | None:
    """The order text the engine's bot sends for `seat` now, or None if it has no bot.

    Only `engine.view(state, seat)` and the seat's prompt reach the bot.
    """
    decision = engine.decision(state)
    if decision is None or seat not in decision.prompts:
        return None
    view = engine.view(state, seat)
    prompt = decision.prompts[seat]
    basis = canonical_json({"seed": seed, "seat": seat, "view": view, "prompt": prompt})
    pick = seeded_pick(hashlib.sha256(basis.encode()).hexdigest())
    return engine.seat_bot(view, prompt, seat, pick)
