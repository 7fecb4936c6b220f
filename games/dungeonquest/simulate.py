"""The balance check: `python -m games.dungeonquest.simulate [--games 2000]
[--players 1 4]`; and the seat bot against random: `--bot-vs-random N`.

The bot (games/dungeonquest/bot.py) plays as a player after treasure would: it heads for the treasure chamber as long
as its sum (turns to the chamber, one turn of looting, turns home, one turn of slack)
fits before sunset, loots twice, then walks to the nearest tower and LEAVEs; when the
chamber is out of reach it searches the rooms on its way out while time allows. On the way
it never crosses a known bottomless pit unless nimble (or it is the only way), passes
through towers instead of stepping out by mistake, searches when walled in and steps out
and back when a room is searched out. It fights what it meets (escaping champions when
hurt), searches crypts and bodies, drinks its potion when low and uses its rings
sensibly. The command prints, per player count, survival next to the rulebook's "about 15
percent", the share of all heroes who reached the chamber (how many of them got out, and
when they first got in), the share of survivors who had been there, their gold, the
causes of death and each hero's rate: the figures the content is tuned by.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from typing import Any

from games.core import botmatch
from games.core.replay import secret_rng

from . import bot, content
from .board import CHAMBER
from .engine import ENGINE
from .state import State, treasure_total


def bot_orders(state: State, seat: str, **plan: Any) -> str:
    """The bot's orders (games/dungeonquest/bot.py) for `seat` in a balance run."""
    return bot.bot_orders(bot.table_from_state(state, seat), seat, **plan)


def gold_out(ch: dict[str, Any]) -> int:
    """The gold a hero carried out of the dungeon (none if he died or was left in)."""
    return treasure_total(ch) if ch["status"] == "escaped" else 0


def race_score(engine: Any, state: State, mine: str, theirs: str) -> float:
    """Bot against random, by the gold each hero carried out: more wins, the same (both
    nothing, most often) draws. Not the engine's result, where a hero who walks out of
    his tower at once with nothing beats one who dies with a fortune: the random player
    stumbles on LEAVE at its tower in one order of a dozen, a "survival" no player would
    call playing."""
    a, b = gold_out(state["chars"][mine]), gold_out(state["chars"][theirs])
    return 1.0 if a > b else 0.0 if a < b else 0.5


def play(engine: Any, seats: list[str], first_hero: str, secret: str,
         reached: dict[str, int] | None = None, deaths: dict[str, str] | None = None
         ) -> State:
    """One bot game. `reached` collects the seats whose hero entered the treasure chamber
    (with the turn of the first entry), `deaths` each dead hero's cause as the public death
    line names it."""
    options = engine.new_game_options({"first_hero": first_hero})  # the current revision
    state, _ = engine.setup(seats, options, secret_rng(secret, None))
    number = 0
    while engine.decision(state) is not None:
        number += 1
        orders = {s: engine.parse_orders(state, s, bot_orders(state, s))
                  for s in engine.decision(state).seats}
        turn = state["turn"]
        state, events = engine.resolve(state, orders, secret_rng(secret, number))
        if reached is not None:
            for e in events:
                if e.kind == "move" and e.data.get("to") in CHAMBER:
                    reached.setdefault(e.data["seat"], turn)
        if deaths is not None:
            deaths.update((e.data["seat"], death_cause(e.data["text"]))
                          for e in events if e.kind == "death")
    return state


_CAUSE = re.compile(r"\(([^()]*)\)\.?$")
_MONSTER_CAUSE = re.compile(r"^(slain by an? |the )(?P<monster>[A-Z][\w ]*?)(?:'s slash)?$")


def death_cause(text: str) -> str:
    """The cause a public death line names, grouped the way the balance table reads it:
    a monster's combat and its slash are one cause ("a monster: Orc"), the rest as named."""
    m = _CAUSE.search(text)
    cause = m.group(1) if m else text
    mon = _MONSTER_CAUSE.match(cause)
    if mon:
        return f"a monster: {mon.group('monster')}"
    if cause == "the ambush":
        return "a sneak attack"
    if cause.startswith("night falls"):
        return "sunset (still inside after turn 26)"
    return cause


RULEBOOK_SURVIVAL = 15  # "about 15 percent chance of survival"


def measure(players: int, games: int, seed: str, *, every_hero: bool = False
            ) -> dict[str, Any]:
    """Play `games` bot games of `players` heroes; the figures the README quotes.

    `every_hero`: each of the `games` dungeons (seeds) is played once with each hero
    first (solo: once by each hero), so the heroes meet the same tiles and cards and their
    rates differ by the heroes, less by the luck of the dungeon (4 x `games` games)."""
    seats = ENGINE.seat_names(players)
    heroes = {h: [0, 0] for h in content.HERO_ORDER}  # played, survived
    survivors: list[tuple[int, bool, int]] = []  # gold, reached the chamber, turn out
    causes: Counter[str] = Counter()
    arrivals: list[tuple[int, bool]] = []  # turn of the first entry, survived
    # every_hero, solo: per dungeon, which heroes got out (the paired sample hero_gaps reads)
    dungeons: list[dict[str, bool]] = []
    cpu = time.process_time()
    order = content.HERO_ORDER
    plays = [(order[k], g) for g in range(games) for k in range(len(order))] \
        if every_hero else [(order[g % len(order)], g) for g in range(games)]
    for first, g in plays:
        reached: dict[str, int] = {}
        deaths: dict[str, str] = {}
        state = play(ENGINE, seats, first, f"{seed}-{g:06d}", reached, deaths)
        causes.update(deaths.values())
        arrivals += [(turn, state["chars"][seat]["status"] == "escaped")
                     for seat, turn in reached.items()]
        if every_hero and players == 1:
            if not dungeons or len(dungeons[-1]) == len(content.HERO_ORDER):
                dungeons.append({})
            ch = state["chars"][seats[0]]
            dungeons[-1][ch["hero"]] = ch["status"] == "escaped"
        for seat, ch in state["chars"].items():
            heroes[ch["hero"]][0] += 1
            if ch["status"] == "escaped":
                heroes[ch["hero"]][1] += 1
                turn = int(ch["fate"].rsplit(" ", 1)[-1]) if ch["fate"][-1].isdigit() \
                    else state["turns"]
                survivors.append((treasure_total(ch), seat in reached, turn))
    played = sum(r[0] for r in heroes.values())
    return {"players": players, "games": len(plays), "heroes": heroes, "played": played,
            "survivors": survivors, "arrivals": arrivals, "causes": causes,
            "dungeons": dungeons,
            "cpu_ms": (time.process_time() - cpu) / len(plays) * 1000}


def hero_spread(m: dict[str, Any]) -> float:
    """The gap between the best and the worst hero's survival rate (a share, 0..1)."""
    rates = [s / k for k, s in m["heroes"].values() if k]
    return max(rates) - min(rates)


def hero_gaps(dungeons: list[dict[str, bool]]) -> dict[str, tuple[float, float]]:
    """Each hero's survival minus the mean of the other heroes', on the same dungeons,
    with the standard error of that gap measured from the sample itself.

    `dungeons` is the paired sample of `measure(1, n, seed, every_hero=True)`: for each
    dungeon, which heroes got out of it. Per dungeon the hero's result (1 or 0) minus the
    others' mean is one observation; the gap is their mean and its standard error their
    standard deviation over the square root of the count. Outcomes of one dungeon are
    correlated across heroes, so pairing measures the gap more precisely than as many
    independent games would."""
    heroes = [h for h in content.HERO_ORDER if any(h in d for d in dungeons)]
    out: dict[str, tuple[float, float]] = {}
    for hero in heroes:
        diffs = [float(d[hero]) - sum(d[k] for k in heroes if k != hero) / (len(heroes) - 1)
                 for d in dungeons]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
        out[hero] = (mean, (var / n) ** 0.5)
    return out


GOLD_BANDS = [(0, 0), (1, 99), (100, 199), (200, 399), (400, 10**9)]


def report(m: dict[str, Any]) -> list[str]:
    played, surv = m["played"], m["survivors"]
    n = len(surv)
    label = "solo" if m["players"] == 1 else f"{m['players']} players"
    out = [f"{label}: {m['games']} games, {played} heroes, {m['cpu_ms']:.1f} ms CPU per game",
           f"  survival: {n}/{played} = {100 * n / played:.1f}% "
           f"(rulebook: about {RULEBOOK_SURVIVAL}%)",
           f"  heroes who reached the treasure chamber: {len(m['arrivals'])}/{played} = "
           f"{100 * len(m['arrivals']) / played:.1f}%"]
    if m["arrivals"]:
        came = len(m["arrivals"])
        home = sum(1 for _, ok in m["arrivals"] if ok)
        out.append(f"  of those, {home}/{came} = {100 * home / came:.1f}% got out alive; first "
                   f"entry on turn {sum(t for t, _ in m['arrivals']) / came:.1f} on average")
    if n:
        chamber = sum(1 for _, r, _ in surv if r)
        broke = sum(1 for g, _, _ in surv if g == 0)
        out += [f"  survivors who reached the treasure chamber: {chamber}/{n} = "
                f"{100 * chamber / n:.1f}%",
                f"  survivors with no gold: {broke}/{n} = {100 * broke / n:.1f}%; "
                f"mean gold {sum(g for g, _, _ in surv) / n:.0f}, best "
                f"{max(g for g, _, _ in surv)}; mean turn out {sum(t for *_, t in surv) / n:.1f}"]
        bands = []
        for lo, hi in GOLD_BANDS:
            k = sum(1 for g, _, _ in surv if lo <= g <= hi)
            name = "0" if hi == 0 else f"{lo}+" if hi == 10**9 else f"{lo}-{hi}"
            bands.append(f"{name}: {100 * k / n:.0f}%")
        out.append("  survivors' gold: " + ", ".join(bands))
        if chamber:
            mean = sum(g for g, r, _ in surv if r) / chamber
            out.append(f"  mean gold of survivors who reached the chamber: {mean:.0f}")
    dead = sum(m["causes"].values())
    if dead:
        out.append(f"  causes of death ({dead} heroes):")
        out += [f"    {100 * k / dead:5.1f}%  {cause}" for cause, k in
                sorted(m["causes"].items(), key=lambda kv: (-kv[1], kv[0]))]
    for hero, (k, s) in m["heroes"].items():
        if k:
            out.append(f"  {hero:<11} survival {100 * s / k:5.1f}% ({s}/{k})")
    out.append(f"  spread between the heroes: {100 * hero_spread(m):.1f} points")
    if m.get("dungeons"):
        out.append("  each hero against the others on the same dungeons (gap, standard error):")
        out += [f"    {hero:<11} {100 * gap:+5.1f} ± {100 * se:.1f} points"
                for hero, (gap, se) in hero_gaps(m["dungeons"]).items()]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 4],
                        choices=[1, 2, 3, 4])
    parser.add_argument("--seed", default="dq")
    parser.add_argument("--every-hero", action="store_true",
                        help="play each dungeon once with each hero first (4 x --games)")
    botmatch.add_argument(parser)
    args = parser.parse_args(argv)
    if args.bot_vs_random:
        survived = {"bot": 0, "random": 0}
        gold = {"bot": 0, "random": 0}

        def score(engine: Any, state: State, mine: str, theirs: str) -> float:
            for who, seat in (("bot", mine), ("random", theirs)):
                survived[who] += state["chars"][seat]["status"] == "escaped"
                gold[who] += gold_out(state["chars"][seat])
            return race_score(engine, state, mine, theirs)

        result = botmatch.bot_vs_random(ENGINE, args.bot_vs_random, seed=f"bots-{args.seed}",
                                        score=score)
        print(result.line("dungeonquest (two heroes, by the gold each carried out)"))
        n = max(1, result.games)
        print(f"heroes out alive: bot {survived['bot']}/{result.games}, random "
              f"{survived['random']}/{result.games}; gold carried out per game: bot "
              f"{gold['bot'] / n:.0f}, random {gold['random'] / n:.0f}")
        return
    for players in args.players:
        print("\n".join(report(measure(players, args.games, args.seed,
                                        every_hero=args.every_hero))))


if __name__ == "__main__":
    main()
