"""Bot-against-bot duels to measure champion balance.

    python -m games.duelists.simulate --games 3000 [--seed 1]
    python -m games.duelists.simulate --bot-vs-random 400   (the seat bot's score)

Every ordered pair of different champions is played equally often (the die decides who
starts, as in a real game); both seats use `bots.bot_lines`. Prints each champion's
win rate in a matchup table (row against column) and the starting player's share. All randomness, bots included,
comes from the project's labelled RNG, so a run is reproducible from its seed.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from typing import Any

from games.core import botmatch
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
            "starter_won": winner == state["starter"], "turns": state["number"],
            "starter": player(state, state["starter"])["champion"]}


def run(games: int, seed: int = 1) -> dict[str, Any]:
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    pair_wins: Counter[tuple[str, str]] = Counter()
    starter_by: Counter[str] = Counter()
    started: Counter[str] = Counter()
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
        started[result["starter"]] += 1
        starter_by[result["starter"]] += result["starter_won"]
        turns += result["turns"]
    return {"games": games, "wins": dict(wins), "played": dict(played),
            "pairs": {f"{a} beats {b}": n for (a, b), n in sorted(pair_wins.items())},
            "starter_wins": starter, "mean_turns": turns // max(1, games),
            "started": dict(started), "starter_wins_by": dict(starter_by)}


def matchups(out: dict[str, Any]) -> dict[tuple[str, str], tuple[int, int]]:
    """(row, column) -> (row's wins against column, duels between them)."""
    table: dict[tuple[str, str], tuple[int, int]] = {}
    for a, b in PAIRS:
        won = out["pairs"].get(f"{a} beats {b}", 0)
        lost = out["pairs"].get(f"{b} beats {a}", 0)
        table[(a, b)] = (won, won + lost)
    return table


def _pct(n: int, d: int) -> str:
    return f"{100 * n / max(1, d):.1f}%"


def table_lines(out: dict[str, Any]) -> list[str]:
    """The matchup table (row's share of wins against each column, then overall), and
    the starting player's share, overall and by the starter's champion."""
    names = {k: cards.champions()[k].name for k in cards.CHAMPION_ORDER}
    grid = matchups(out)
    head = "| row beats column | " + " | ".join(names.values()) + " | overall | as starter |"
    lines = [head, "|---" * (len(names) + 3) + "|"]
    for a in cards.CHAMPION_ORDER:
        cells = []
        for b in cards.CHAMPION_ORDER:
            if a == b:
                cells.append("-")
            else:
                won, n = grid[(a, b)]
                cells.append(f"{_pct(won, n)} ({won}/{n})")
        w, n = out["wins"].get(a, 0), out["played"].get(a, 0)
        sw, sn = out["starter_wins_by"].get(a, 0), out["started"].get(a, 0)
        lines.append(f"| {names[a]} | " + " | ".join(cells)
                     + f" | {_pct(w, n)} | {_pct(sw, sn)} |")
    worst = max(grid.values(), key=lambda wn: wn[0] / max(1, wn[1]))
    lines += ["",
              f"starting player wins {out['starter_wins']} of {out['games']} "
              f"({_pct(out['starter_wins'], out['games'])}); most lopsided matchup "
              f"{_pct(*worst)}; mean length {out['mean_turns']} game turns"]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    botmatch.add_argument(parser)
    args = parser.parse_args(argv)
    if args.bot_vs_random:
        print(botmatch.bot_vs_random(ENGINE, args.bot_vs_random, seed=f"bots-{args.seed}")
              .line("duelists"))
        return 0
    out = run(args.games, args.seed)
    print(f"{out['games']} bot duels (seed {args.seed})")
    print()
    for line in table_lines(out):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
