"""Bot-against-bot duels to measure champion balance.

    python -m games.duelists.simulate --games 3000 [--seed 1]

Every ordered pair of different champions is played equally often (the die decides who
starts, as in a real game); both seats use `bots.bot_lines`. Prints each champion's
win rate, each matchup and the starting player's edge. All randomness, bots included,
comes from the project's labelled RNG, so a run is reproducible from its seed.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from typing import Any

from games.core.replay import secret_rng
from games.core.rng import Rng

from . import cards
from .engine import ENGINE
from .state import player

PAIRS = list(itertools.permutations(cards.CHAMPION_ORDER, 2))


def play(seed: str, first: str, second: str) -> dict[str, Any]:
    """One duel: the first picker takes `first`, the other `second`."""
    bot_rng = Rng(f"bots-{seed}", "bots")

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[bot_rng.below("pick", len(items))]

    state, _ = ENGINE.setup(["P1", "P2"], {}, secret_rng(f"duel-{seed}", None))
    number = 0
    while (decision := ENGINE.decision(state)) is not None:
        number += 1
        orders = {}
        for seat in decision.seats:
            if decision.phase == "pick":
                champ = first if state["pickers"][0] == seat else second
                text = f"CHAMPION {cards.champions()[champ].name}"
            else:
                text = ENGINE.bot_orders(state, seat, pick)
            orders[seat] = ENGINE.parse_orders(state, seat, text)
        state, _ = ENGINE.resolve(state, orders, secret_rng(f"duel-{seed}", number))
    winner = state["winner"]
    return {"winner": player(state, winner)["champion"],
            "loser": player(state, [s for s in state["seats"] if s != winner][0])["champion"],
            "starter_won": winner == state["starter"], "turns": state["number"]}


def run(games: int, seed: int = 1) -> dict[str, Any]:
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    pair_wins: Counter[tuple[str, str]] = Counter()
    starter = 0
    turns = 0
    for i in range(games):
        first, second = PAIRS[i % len(PAIRS)]
        result = play(f"{seed}-{i}", first, second)
        played[first] += 1
        played[second] += 1
        wins[result["winner"]] += 1
        pair_wins[(result["winner"], result["loser"])] += 1
        starter += result["starter_won"]
        turns += result["turns"]
    return {"games": games, "wins": dict(wins), "played": dict(played),
            "pairs": {f"{a} beats {b}": n for (a, b), n in sorted(pair_wins.items())},
            "starter_wins": starter, "mean_turns": turns // max(1, games)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    out = run(args.games, args.seed)
    print(f"{out['games']} bot duels, mean length {out['mean_turns']} game turns")
    for key in cards.CHAMPION_ORDER:
        n = out["played"].get(key, 0)
        w = out["wins"].get(key, 0)
        print(f"  {cards.champions()[key].name:8} wins {w:5} of {n:5}  "
              f"({100 * w // max(1, n)}%)")
    for pair, n in out["pairs"].items():
        print(f"  {pair}: {n}")
    print(f"  starting player wins {out['starter_wins']} of {out['games']} "
          f"({100 * out['starter_wins'] // max(1, out['games'])}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
