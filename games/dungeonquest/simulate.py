"""A bot and the balance check: `python -m games.dungeonquest.simulate [--games 2000]
[--players 1 4]`.

The bot plays as a player after treasure would: it heads for the treasure chamber as long
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

from games.core.replay import secret_rng

from . import content
from .board import (
    CHAMBER,
    SIDE_WORDS,
    TOWERS,
    coords,
    neighbour,
    opposite,
    route,
    route_to,
    side_towards,
    targets_for,
)
from .rules.movement import UNSEARCHABLE
from .state import State, treasure_total

RING_ORDERS = {"healing": "IF LIFE < 7 THEN USE RING OF HEALING",
               "warning": "IF TRAP THEN USE RING OF WARNING",
               "opening": "IF PORTCULLIS THEN USE RING OF OPENING",
               "luck": "IF LIFE < 8 THEN USE RING OF LUCK",
               "blinding": "IF MONSTER CHAMPION THEN USE RING OF BLINDING",
               "vision": "USE RING OF VISION",
               "transformation": "IF TILE PIT THEN USE RING OF TRANSFORMATION"}


def home_distance(state: State, seat: str) -> tuple[str, int]:
    ch = state["chars"][seat]
    _, cost, tower = route_to(state["board"], ch["pos"], ch["entry"], set(TOWERS))
    return (tower, cost) if tower else ("A1", 99)


def turns_for(cost: int) -> int:
    """Turns a route of this cost takes: corridors carry a hero several squares a turn."""
    return max(1, (cost * 3 + 3) // 4)


def chamber_in_reach(state: State, seat: str, left: int, margin: int) -> bool:
    """A player's sum: to the chamber, one turn of looting, then home, with a margin."""
    ch = state["chars"][seat]
    board = state["board"]
    _, there = route(board, ch["pos"], ch["entry"], set(CHAMBER))
    if there < 0:  # walled in for now: a secret door may still open the way
        x, y = coords(ch["pos"])
        there = min(abs(x - cx) + abs(y - cy) for cx, cy in map(coords, CHAMBER))
    _, back, _ = route_to(board, CHAMBER[0], None, set(TOWERS))
    if back < 0:
        return False
    return turns_for(there) + 1 + turns_for(back) + margin <= left


def bot_orders(state: State, seat: str, *, loot_turns: int = 2, margin: int = 1,
               scavenge: bool = True) -> str:
    ch = state["chars"][seat]
    if state.get("picking"):  # the hero this seat would get by default: no contest
        return f"HERO {ch['hero'].upper()}"
    left = state["turns"] - state["turn"] + 1
    tower, dist = home_distance(state, seat)
    if ch["destination"] in TOWERS:
        _, cost = route(state["board"], ch["pos"], ch["entry"], {ch["destination"]})
        if cost >= 0 and cost <= dist + 3:
            tower, dist = ch["destination"], cost  # keep to the chosen way home
    lines = ["IF MONSTER CHAMPION THEN ESCAPE ELSE ATTACK" if ch["life"] < 8 else "ATTACK",
             "IF SPIDER THEN FIGHT", "IF CRYPT THEN SEARCH CRYPT", "IF CORPSE THEN SEARCH BODY",
             "IF LIFE < 5 THEN DRINK POTION", "IF POTION THEN DRINK POTION"]
    if ch["arrows"]:
        lines.insert(0, "IF MONSTER THEN SHOOT")
    lines += [RING_ORDERS[r] for r in ch["rings"]]
    in_chamber = ch["pos"] in CHAMBER
    looted = sum(1 for t in ch["treasure"] if t["name"] == "a treasure counter") // 2
    heading_home = looted > 0 or not chamber_in_reach(state, seat, left, margin)
    estimate = turns_for(dist)
    if in_chamber:
        if looted < loot_turns and estimate + margin + 1 < left and ch["life"] > 5:
            lines.append("LOOT")
            return "\n".join(lines)
        lines += [f"DESTINATION {tower}", f"MOVE TO {tower}"]
        return "\n".join(lines)
    goal = tower if heading_home else "E7"
    here = state["board"][ch["pos"]]["kind"]
    if here == "pit" and content.of(state).heroes[ch["hero"]]["agility"] < 7 and ch["prev"] and \
            other_way(state, seat, goal):
        back = side_towards(ch["pos"], ch["prev"])
        if ch["prev"] in TOWERS and not heading_home and back:
            # back into the tower and straight out by its other exit
            other = [s for s in TOWERS[ch["prev"]] if s != opposite(back)]
            lines.append(f"MOVE {SIDE_WORDS[back].upper()} {SIDE_WORDS[other[0]].upper()}")
        else:
            lines.append("RETREAT")  # only the nimble leap pits
        return "\n".join(lines)
    lines.append(f"DESTINATION {goal}")
    if heading_home and not looted and scavenge and ch["life"] > 6 and \
            dist + margin + 3 < left and here not in UNSEARCHABLE and ch["searches"] < 2:
        lines.append("SEARCH")  # the chamber is out of reach: search the rooms on the way out
        return "\n".join(lines)
    lines.append(step_toward(state, seat, goal))
    return "\n".join(lines)


def other_way(state: State, seat: str, goal: str) -> bool:
    """From a pit: does a way to `goal` lead back out the way in, not across the pit?"""
    ch = state["chars"][seat]
    board = state["board"]
    prev = ch["prev"]
    pits = {sq for sq, c in board.items() if c["kind"] == "pit"}
    entry = side_towards(prev, ch["pos"])
    if prev in TOWERS:
        return True  # back into the tower and out by its other exit
    side, _ = route(board, prev, entry, targets_for(goal), avoid=pits)
    return side is not None


def step_toward(state: State, seat: str, goal: str) -> str:
    """The move a careful player makes toward `goal`: never across a known bottomless pit
    unless nimble, never into a tower by mistake (through it, out by the other exit), a
    search when walled in, and out and back when the room is searched out."""
    ch = state["chars"][seat]
    board = state["board"]
    avoid: set[str] = set()
    if content.of(state).heroes[ch["hero"]]["agility"] < 7:
        avoid = {sq for sq, c in board.items() if c["kind"] == "pit" and sq != ch["pos"]}
    occupied = {c["pos"] for s, c in state["chars"].items() if s != seat and c["status"] == "in"}
    targets = targets_for(goal)
    if ch["pos"] in targets:
        return "LEAVE" if goal in TOWERS else "STAY"
    side, _ = route(board, ch["pos"], ch["entry"], targets, occupied, avoid)
    if side is None and avoid:  # the pit is the only way on: a player takes the risk
        side, _ = route(board, ch["pos"], ch["entry"], targets, occupied)
    if side is None:
        searchable = board[ch["pos"]]["kind"] not in UNSEARCHABLE
        if searchable and ch["searches"] < 2:
            return "SEARCH"  # walled in: look for a secret door
        if not ch["prev"]:
            return "STAY"
        side = side_towards(ch["pos"], ch["prev"])  # out, to come back and search again
        if side is None:
            return "RETREAT"
    plain, _ = route(board, ch["pos"], ch["entry"], targets, occupied)
    if plain == side:
        return f"MOVE TO {goal}"
    words = [SIDE_WORDS[side].upper()]
    ahead = neighbour(ch["pos"], side)
    if ahead in TOWERS and ahead != goal:
        out = [s for s in TOWERS[ahead] if s != opposite(side)]
        words.append(SIDE_WORDS[out[0]].upper())
    return "MOVE " + " ".join(words)


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
    from .content import HERO_ORDER
    from .engine import ENGINE
    seats = ENGINE.seat_names(players)
    heroes = {h: [0, 0] for h in HERO_ORDER}  # played, survived
    survivors: list[tuple[int, bool, int]] = []  # gold, reached the chamber, turn out
    causes: Counter[str] = Counter()
    arrivals: list[tuple[int, bool]] = []  # turn of the first entry, survived
    # every_hero, solo: per dungeon, which heroes got out (the paired sample hero_gaps reads)
    dungeons: list[dict[str, bool]] = []
    cpu = time.process_time()
    plays = [(HERO_ORDER[k], g) for g in range(games) for k in range(len(HERO_ORDER))] \
        if every_hero else [(HERO_ORDER[g % len(HERO_ORDER)], g) for g in range(games)]
    for first, g in plays:
        reached: dict[str, int] = {}
        deaths: dict[str, str] = {}
        state = play(ENGINE, seats, first, f"{seed}-{g:06d}", reached, deaths)
        causes.update(deaths.values())
        arrivals += [(turn, state["chars"][seat]["status"] == "escaped")
                     for seat, turn in reached.items()]
        if every_hero and players == 1:
            if not dungeons or len(dungeons[-1]) == len(HERO_ORDER):
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
    args = parser.parse_args(argv)
    for players in args.players:
        print("\n".join(report(measure(players, args.games, args.seed,
                                        every_hero=args.every_hero))))


if __name__ == "__main__":
    main()
