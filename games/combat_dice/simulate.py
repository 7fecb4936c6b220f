"""Measure what a kit is worth: fights against the standard warrior, seats swapped.

    python -m games.combat_dice.simulate [--fights 1000] [--seed 1]
    python -m games.combat_dice.simulate --bot-vs-random 400   (the seat bot's score)

Each line of the table is one kit (the standard warrior with the medium shield, or the
armour, replaced by something else) fought `fights` times against the standard warrior
(sword, medium shield, light armour), half of the fights from each seat. Both sides
reroll with `STANDING IF ATTACK <= FOE_DODGE THEN REROLL`; a charm is cast with
`STANDING IF HP < 8 THEN CAST` (HEAL at `HP < 6`, CLEANSE as `STANDING CAST`). The score
is the share of fights won, a draw counting half. The README's spell-charm balance
table is this command's output. All dice come from the project's labelled RNG, so a
run is reproducible from its seed.
"""

from __future__ import annotations

import argparse
from typing import Any

from games.core import botmatch
from games.core.replay import secret_rng

from .engine import ENGINE

REROLL = "STANDING IF ATTACK <= FOE_DODGE THEN REROLL"
STANDARD = "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR"


def _charm(spell: str, cast: str = "STANDING IF HP < 8 THEN CAST") -> str:
    return f"EQUIP SWORD, SPELL CHARM {spell}, LIGHT ARMOR\n{cast}"


KITS: dict[str, str] = {
    "nothing (sword, light armour)": "EQUIP SWORD, LIGHT ARMOR",
    "nothing in the armour slot (sword, medium shield)": "EQUIP SWORD, MEDIUM SHIELD",
    "a dagger as second weapon": "EQUIP SWORD, DAGGER, LIGHT ARMOR",
    "a bow for the opening exchange": "EQUIP BOW, SWORD, LIGHT ARMOR",
    "a sword as second weapon behind a flail": "EQUIP FLAIL, SWORD, LIGHT ARMOR",
    "charm: HEAL": _charm("HEAL", "STANDING IF HP < 6 THEN CAST"),
    "charm: CLEANSE": _charm("CLEANSE", "STANDING CAST"),
    "charm: WARD": _charm("WARD"),
    "charm: FLASH": _charm("FLASH"),
    "charm: HASTE": _charm("HASTE"),
    "charm: FURY": _charm("FURY"),
}


def fight(seed: str, p1: str, p2: str) -> dict[str, Any]:
    """One fight to the end; returns the engine's result and the number of turns."""
    state, _ = ENGINE.setup(["P1", "P2"], {}, secret_rng(seed, None))
    texts = {"P1": f"{p1}\n{REROLL}", "P2": f"{p2}\n{REROLL}"}
    number = 0
    while (decision := ENGINE.decision(state)) is not None:
        number += 1
        orders = {seat: ENGINE.parse_orders(state, seat, texts[seat] if number == 1 else "")
                  for seat in decision.seats}
        state, _ = ENGINE.resolve(state, orders, secret_rng(seed, number))
    return {"winners": state["result"]["winners"], "turns": state["turn"]}


def score(kit: str, fights: int, seed: int = 1) -> dict[str, Any]:
    """The kit's share of fights won against the standard warrior (a draw is half)."""
    points = 0.0
    turns = 0
    for i in range(fights):
        mine = "P1" if i % 2 == 0 else "P2"
        p1, p2 = (kit, STANDARD) if mine == "P1" else (STANDARD, kit)
        out = fight(f"kit-{seed}-{i // 2}", p1, p2)
        turns += out["turns"]
        if mine in out["winners"]:
            points += 1
        elif not out["winners"]:
            points += 0.5
    return {"score": points / max(1, fights), "mean_turns": turns / max(1, fights)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    botmatch.add_argument(parser)
    args = parser.parse_args(argv)
    if args.bot_vs_random:
        result = botmatch.bot_vs_random(ENGINE, args.bot_vs_random, seed=f"bots-{args.seed}")
        print(result.line("combat_dice"))
        return 0
    base = score(STANDARD, args.fights, args.seed)
    print(f"{args.fights} fights per line against the standard warrior (seed {args.seed}); "
          f"standard against standard lasts {base['mean_turns']:.0f} turns on average")
    print()
    print("| in place of the medium shield | score | mean turns |")
    print("|---|---|---|")
    for label, kit in KITS.items():
        out = score(kit, args.fights, args.seed)
        print(f"| {label} | {out['score']:.2f} | {out['mean_turns']:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
