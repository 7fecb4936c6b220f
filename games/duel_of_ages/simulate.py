"""Measure the seat bot against a random-orders team.

    python -m games.duel_of_ages.simulate --bot-vs-random 300 [--seed 1] [--map skirmish]

Plays N games of the seat bot (games/duel_of_ages/bot.py, through games.core.bots, so
from its seat's view and prompt only) against the conformance suite's random legal
orders, seats alternating, and prints the bot's score (a win 1, a draw 1/2). All dice
come from the project's labelled RNG, so a run is reproducible from its seed.
"""

from __future__ import annotations

import argparse

from games.core import botmatch

from .engine import ENGINE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--map", choices=("skirmish", "standard", "build"), default="skirmish")
    botmatch.add_argument(parser)
    args = parser.parse_args(argv)
    games = args.bot_vs_random or 100
    result = botmatch.bot_vs_random(ENGINE, games, options={"map": args.map},
                                    seed=f"bots-{args.seed}")
    print(result.line(f"duel_of_ages ({args.map} map)"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
