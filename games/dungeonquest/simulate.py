"""A simple bot and a balance check: `python -m games.dungeonquest.simulate --games N`.

The bot walks to the treasure chamber, loots while it is safe to, and heads for the
nearest tower in time for sunset. It fights what it meets (escaping trolls and champions
when hurt), searches crypts and bodies, drinks its potion when low and uses its rings
sensibly. It plays every hero in turn, solo, and prints the survival rate and treasure.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from games.core.replay import secret_rng

from .board import CHAMBER, SIDE_WORDS, TOWERS, opposite, route, route_to, side_towards, targets_for
from .content import HEROES
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


def bot_orders(state: State, seat: str, *, loot_turns: int = 2, margin: int = 5) -> str:
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
    heading_home = looted > 0 or ch["destination"] in TOWERS or dist + margin >= left
    estimate = max(1, (dist * 2) // 3)
    if in_chamber:
        if looted < loot_turns and estimate + margin + 1 < left and ch["life"] > 5:
            lines.append("LOOT")
            return "\n".join(lines)
        lines += [f"DESTINATION {tower}", f"MOVE TO {tower}"]
        return "\n".join(lines)
    goal = tower if heading_home else "E7"
    here = state["board"][ch["pos"]]["kind"]
    if here == "pit" and HEROES[ch["hero"]]["agility"] < 7 and ch["prev"]:
        back = side_towards(ch["pos"], ch["prev"])
        if ch["prev"] in TOWERS and not heading_home and back:
            # back into the tower and straight out by its other exit
            other = [s for s in TOWERS[ch["prev"]] if s != opposite(back)]
            lines.append(f"MOVE {SIDE_WORDS[back].upper()} {SIDE_WORDS[other[0]].upper()}")
        else:
            lines.append("RETREAT")  # only the nimble leap pits
        return "\n".join(lines)
    side, _ = route(state["board"], ch["pos"], ch["entry"], targets_for(goal))
    lines.append(f"DESTINATION {goal}")
    if side is None:
        lines.append("SEARCH")  # walled in: look for a secret door
    else:
        lines.append(f"MOVE TO {goal}")
    return "\n".join(lines)


def play(engine: Any, seats: list[str], first_hero: str, secret: str) -> State:
    state, _ = engine.setup(seats, {"first_hero": first_hero}, secret_rng(secret, None))
    number = 0
    while engine.decision(state) is not None:
        number += 1
        orders = {s: engine.parse_orders(state, s, bot_orders(state, s))
                  for s in engine.decision(state).seats}
        state, _ = engine.resolve(state, orders, secret_rng(secret, number))
    return state


def main(argv: list[str] | None = None) -> None:
    from .content import HERO_ORDER
    from .engine import ENGINE
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=1, choices=[1, 2, 3, 4])
    parser.add_argument("--seed", default="dq")
    args = parser.parse_args(argv)
    seats = ENGINE.seat_names(args.players)
    heroes = {h: [0, 0, 0] for h in HERO_ORDER}  # played, survived, treasure
    treasure_escaped = []
    start = time.perf_counter()
    for g in range(args.games):
        first = HERO_ORDER[g % len(HERO_ORDER)]
        state = play(ENGINE, seats, first, f"{args.seed}-{g:06d}")
        for ch in state["chars"].values():
            row = heroes[ch["hero"]]
            row[0] += 1
            if ch["status"] == "escaped":
                row[1] += 1
                row[2] += treasure_total(ch)
                treasure_escaped.append(treasure_total(ch))
    took = time.perf_counter() - start
    played = sum(r[0] for r in heroes.values())
    survived = sum(r[1] for r in heroes.values())
    print(f"{args.games} games, {args.players} player(s) each, {played} heroes, "
          f"{took / args.games * 1000:.1f} ms per game")
    print(f"survival: {survived}/{played} = {100 * survived / played:.1f}%")
    if treasure_escaped:
        print(f"treasure of survivors: mean {sum(treasure_escaped) / len(treasure_escaped):.0f}"
              f" gold, best {max(treasure_escaped)} gold")
    for hero, (n, s, t) in heroes.items():
        if n:
            print(f"  {hero:<11} survival {100 * s / n:5.1f}%  mean treasure when escaped "
                  f"{(t / s) if s else 0:.0f}")


if __name__ == "__main__":
    main()
