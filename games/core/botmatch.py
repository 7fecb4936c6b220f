"""Bot against random: how clearly an engine's seat bot beats a random-orders player.

Every engine's simulate command offers `--bot-vs-random N`: N games, the bot on one seat
and a player sending random legal orders (the engine's `random_orders`, the same player
the conformance suite uses) on the other, seats alternating from game to game. The bot
plays through `games.core.bots.bot_text`, so it sees exactly what a bot seat in a real
game sees: its view and its prompt. A game scores 1 for the bot's win, 1/2 for a draw
(or a shared win), 0 for a loss; an engine whose game is not a plain duel passes its own
`score` (Dungeonquest: the hero who ends richer).

All dice come from the project's labelled RNG seeded by the game's number, so a run is
reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots import bot_text
from .engine import Engine, State
from .replay import run_setup, run_turn, secret_rng

Score = Callable[[Engine, State, str, str], float]

MAX_TURNS = 3000


def duel_score(engine: Engine, state: State, bot: str, other: str) -> float:
    """1 when the bot alone wins, 1/2 for a draw or a shared win, 0 otherwise."""
    winners = set(engine.result(state).get("winners") or [])
    if bot in winners and other not in winners:
        return 1.0
    if other in winners and bot not in winners:
        return 0.0
    return 0.5


@dataclass
class MatchResult:
    games: int = 0
    points: float = 0.0
    wins: int = 0
    losses: int = 0
    turns: int = 0
    scores: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    def line(self, label: str) -> str:
        draws = self.games - self.wins - self.losses
        return (f"{label}: bot vs random over {self.games} games (seats alternating): "
                f"bot wins {self.wins}, loses {self.losses}, draws {draws}; "
                f"score {self.rate:.3f} (a draw counts half), "
                f"{self.turns / max(1, self.games):.0f} decisions a game on average")


def play_one(engine: Engine, seats: list[str], bot: str, options: dict[str, Any],
             secret: str, score: Score = duel_score) -> tuple[float, int]:
    """One game: `bot` plays by the engine's seat bot, every other seat randomly."""
    rnd = random.Random(secret)

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[rnd.randrange(len(items))]

    state = run_setup(engine, seats, engine.new_game_options(options),
                      secret_rng(secret, None)).state
    other = next(s for s in seats if s != bot)
    for number in range(1, MAX_TURNS + 1):
        decision = engine.decision(state)
        if decision is None:
            break
        orders = {}
        for seat in decision.seats:
            if seat == bot:
                text = bot_text(engine, state, seat, f"{secret}/{number}")
                assert text is not None, f"{engine.name} has no seat bot"
            else:
                text = engine.random_orders(state, seat, pick)
            orders[seat] = engine.parse_orders(state, seat, text)
        state = run_turn(engine, state, orders, secret_rng(secret, number)).state
    else:
        raise AssertionError(f"game {secret} did not end within {MAX_TURNS} decisions")
    return score(engine, state, bot, other), number


def bot_vs_random(engine: Engine, games: int, *, options: dict[str, Any] | None = None,
                  seats: int = 2, seed: str = "bots", score: Score = duel_score,
                  options_for: Callable[[int], dict[str, Any]] | None = None
                  ) -> MatchResult:
    """`games` games of the bot against random players, the bot's seat alternating.

    `options_for(i)` gives game i's options where they should vary (Dice Age levels)."""
    names = engine.seat_names(seats)
    out = MatchResult()
    for i in range(games):
        bot = names[i % len(names)]
        opts = options_for(i) if options_for else dict(options or {})
        points, turns = play_one(engine, names, bot, opts, f"{seed}-{i}", score)
        out.games += 1
        out.points += points
        out.turns += turns
        out.scores.append(points)
        out.wins += points == 1.0
        out.losses += points == 0.0
    return out


def add_argument(parser: Any) -> None:
    """The `--bot-vs-random N` flag every engine's simulate command offers."""
    parser.add_argument("--bot-vs-random", type=int, default=0, metavar="N",
                        help="play N games of the seat bot against random legal orders "
                             "(seats alternating) and print the bot's score instead")
