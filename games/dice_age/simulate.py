"""Bot-against-bot Dice Age games at one level, to see how the rules play out.

    python -m games.dice_age.simulate --level 5 --games 1000 [--seats 2] [--seed 1]
    python -m games.dice_age.simulate --bot-vs-random 300   (the seat bot's score, by level)

Every seat plays the conformance bot (a random legal order each time, now and then a
standing or conditional one). Prints the mean game length (main rolls and decisions),
how often the first player wins, and how often each effect and each reaction fired.
All randomness, bots included, comes from the project's labelled RNG, so a run is
reproducible from its seed.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from games.core import botmatch
from games.core.replay import secret_rng
from games.core.rng import Rng

from .engine import ENGINE

REACTIONS = {"protected": "nut", "gear": "gear", "smile": "smile", "pair": "pair",
             "double": "double arrow", "general-swap": "general", "square": "square"}


def play(level: int, seats: int, seed: str) -> dict[str, Any]:
    bot_rng = Rng(f"bots-{seed}", "bots")

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[bot_rng.below("pick", len(items))]

    names = ENGINE.seat_names(seats)
    state, events = ENGINE.setup(names, ENGINE.new_game_options({"level": level}),
                                 secret_rng(f"da-{seed}", None))
    number = 0
    while (decision := ENGINE.decision(state)) is not None:
        number += 1
        orders = {s: ENGINE.parse_orders(state, s, ENGINE.bot_orders(state, s, pick))
                  for s in decision.seats}
        state, new = ENGINE.resolve(state, orders, secret_rng(f"da-{seed}", number))
        events += new
    effects: Counter[str] = Counter()
    reactions: Counter[str] = Counter()
    windows: Counter[str] = Counter()
    for event in events:
        if event.kind == "effect":
            effects[event.data["icon"]] += 1
        elif event.kind in REACTIONS:
            reactions[REACTIONS[event.kind]] += 1
        elif event.kind == "no-reaction":
            windows[event.data["window"]] += 1
        elif event.kind in ("capture", "no-capture"):
            effects["roman capture"] += 1
        elif event.kind == "icon-skip":
            effects["icon (skip a turn)"] += 1
        elif event.kind == "recall":
            effects["icon (recall)"] += 1
    return {"winner": state["winner"], "first": state["first"], "decisions": number,
            "rolls": state.get("turns") or sum(e.kind == "roll" for e in events),
            "effects": effects, "reactions": reactions, "passed": windows}


def run(level: int, games: int, seats: int | None = None, seed: int = 1) -> dict[str, Any]:
    effects: Counter[str] = Counter()
    reactions: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    first_wins = rolls = decisions = 0
    for i in range(games):
        count = seats or 2 + i % 3
        out = play(level, count, f"{seed}-{level}-{i}")
        first_wins += out["winner"] == out["first"]
        rolls += out["rolls"]
        decisions += out["decisions"]
        effects.update(out["effects"])
        reactions.update(out["reactions"])
        passed.update(out["passed"])
    return {"level": level, "games": games, "first_wins": first_wins,
            "mean_rolls": rolls / max(1, games), "mean_decisions": decisions / max(1, games),
            "effects": dict(effects), "reactions": dict(reactions), "passed": dict(passed)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=None, choices=range(1, 8),
                        help="the level (default 5; with --bot-vs-random: every level)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), default=None,
                        help="seats per game (default: 2, 3 and 4 in turn)")
    parser.add_argument("--seed", type=int, default=1)
    botmatch.add_argument(parser)
    args = parser.parse_args(argv)
    if args.bot_vs_random:
        # two seats, N games at each level 1-7 (or the one named): one line per level
        for level in [args.level] if args.level else range(1, 8):
            result = botmatch.bot_vs_random(ENGINE, args.bot_vs_random,
                                            options={"level": level},
                                            seed=f"bots-{args.seed}-L{level}")
            print(result.line(f"dice_age level {level}"))
        return 0
    out = run(args.level or 5, args.games, args.seats, args.seed)
    games = max(1, out["games"])
    print(f"Dice Age level {out['level']}: {out['games']} bot games "
          f"({args.seats or '2-4'} seats)")
    print(f"game length: {out['mean_rolls']:.1f} main rolls, "
          f"{out['mean_decisions']:.1f} decisions on average")
    print(f"first player wins: {out['first_wins']} ({100 * out['first_wins'] / games:.1f}%)")
    print("effects (times per game):")
    for name, n in sorted(out["effects"].items(), key=lambda kv: -kv[1]):
        print(f"  {name:22} {n:7}  {n / games:6.2f}")
    if not out["effects"]:
        print("  none at this level")
    print("reactions used (times per game):")
    for name, n in sorted(out["reactions"].items(), key=lambda kv: -kv[1]):
        print(f"  {name:22} {n:7}  {n / games:6.2f}")
    if not out["reactions"]:
        print("  none at this level")
    if out["passed"]:
        print("reaction windows let pass: " + ", ".join(
            f"{k} {v}" for k, v in sorted(out["passed"].items())))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
