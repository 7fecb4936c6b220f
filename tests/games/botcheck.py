"""Shared checks for the engines' seat bots (games/<engine>/bot.py).

A seat bot decides from its seat's view and prompt only. These helpers walk random games
(the conformance suite's random players) and at each decision check, for every owing seat:
the bot's orders parse; perturbing hidden state (the engine's `perturb_hidden`: deck order,
unexplored tiles, the other seat's hand or plan) and the game secret leaves the bot's
orders identical; and the same seed gives the same orders.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

from games.core.bots import bot_text
from games.core.canonical import canonical_json
from games.core.engine import Engine
from games.core.replay import run_setup, run_turn, secret_rng

from .conformance import order_errors, random_options


def walk(engine: Engine, seed: int, *, count: int | None = None,
         options: dict[str, Any] | None = None, max_turns: int = 400
         ) -> Iterator[tuple[Any, list[str], Any]]:
    """(state, owing seats, pick) at each decision of a random game; the bot plays one
    seat (which one alternates with the seed) so positions a bot reaches are covered too."""
    rnd = random.Random(seed)

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[rnd.randrange(len(items))]

    seats = engine.seat_names(count or rnd.randint(engine.min_seats, engine.max_seats))
    opts = random_options(engine, rnd)
    if options:
        opts = engine.validate_options({**opts, **options})
    secret = f"{seed:016x}" * 4
    state = run_setup(engine, seats, opts, secret_rng(secret, None)).state
    bot_seat = seats[seed % len(seats)]
    for number in range(1, max_turns + 1):
        decision = engine.decision(state)
        if decision is None:
            return
        yield state, list(decision.seats), pick
        orders = {}
        for s in decision.seats:
            if s == bot_seat:
                text = bot_text(engine, state, s, f"walk{number}")
            else:
                text = engine.random_orders(state, s, pick)
            orders[s] = engine.parse_orders(state, s, text)
        state = run_turn(engine, state, orders, secret_rng(secret, number)).state


def check_bot(engine: Engine, seeds: range, *, perturbations: int = 2,
              count: int | None = None, options: dict[str, Any] | None = None,
              max_turns: int = 400) -> dict[str, int]:
    """Legal, no-leak and deterministic at every decision of the games of `seeds`.

    Returns counts (decisions checked, perturbations tried) so a test can assert the
    no-leak check actually compared something."""
    seen = {"decisions": 0, "perturbed": 0}
    for seed in seeds:
        for state, seats, pick in walk(engine, seed, count=count, options=options,
                                       max_turns=max_turns):
            for seat in seats:
                seen["decisions"] += 1
                text = bot_text(engine, state, seat, "s1")
                assert text is not None, f"{engine.name}: no bot for {seat}"
                errors = order_errors(engine, state, seat, text)
                assert not errors, (f"{engine.name} seed {seed}: bot orders for {seat} "
                                    f"refused: {errors}\n{text}")
                assert bot_text(engine, state, seat, "s1") == text, "bot not deterministic"
                view = canonical_json(engine.view(state, seat))
                for _ in range(perturbations):
                    other = engine.perturb_hidden(state, seat, pick)
                    if other is None:
                        break
                    assert canonical_json(engine.view(other, seat)) == view
                    assert bot_text(engine, other, seat, "s1") == text, \
                        f"{engine.name}: bot orders changed when only hidden state changed"
                    seen["perturbed"] += 1
    return seen


def beats_random(points: list[float], margin: float) -> bool:
    """True when the bot's mean score beats 1/2 by `margin` (pick margins that random
    play cannot reach by luck: over n games the standard error of a fair coin's mean is
    1/(2 sqrt n), e.g. 0.09 for 30 games, so a margin of 0.3 is over three of them)."""
    return sum(points) / len(points) >= 0.5 + margin


def sign_p(wins: int, losses: int) -> float:
    """One-sided sign test: the chance that a player no better than its opponent wins at
    least `wins` of the `wins + losses` games that were not drawn."""
    n = wins + losses
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2 ** n
