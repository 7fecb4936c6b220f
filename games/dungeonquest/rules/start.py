"""The start of a hero's turn: the Ring of Healing, a potion, sleep, webs, the
trapdoor pit and a lost torch, everything that may hold a hero before moving."""

from __future__ import annotations

from .combat import spider_round
from .context import Ctx


def start_of_turn(ctx: Ctx, seat: str) -> None:
    """Ring of Healing, potions, and everything that holds a hero before moving."""
    ch = ctx.ch(seat)
    if "healing" in ch["rings"] and ctx.answer(seat, "start", {}, allowed={"use:healing"}):
        ctx.use_ring(seat, "healing", "and rests while it works")
        gained = ctx.heal(seat, 5)
        ctx.say(seat, f"Regains {gained} Life Points ({ch['life']}/{ch['max_life']}); "
                      "does nothing else this turn.")
        ctx.stopped.add(seat)
        return
    if ch["potion"] and ctx.answer(seat, "start", {}, allowed={"drink"}):
        ctx.drink(seat)
        if ch["status"] != "in":
            return
    if ch["skip"] > 0:
        ch["skip"] -= 1
        ctx.say(seat, "Is still recovering and misses this turn.", public=True)
        ctx.stopped.add(seat)
        return
    if ch["spider"]:
        spider_round(ctx, seat)
        if ch["spider"] or ch["status"] != "in":
            ctx.stopped.add(seat)
            return
    if ch["trapdoor"]:
        if ch["rope"]:
            ctx.say(seat, "Climbs out of the trapdoor pit with the rope.")
        elif not ctx.check(seat, "trapdoor/climb", 12, ctx.stat(seat, "agility"),
                           "Climbing out of the trapdoor pit (Agility)"):
            ctx.say(seat, "Slides back down: stuck in the pit this turn.", public=False)
            ctx.stopped.add(seat)
            return
        ch["trapdoor"] = False
    if ch["torch"]:
        if not ctx.check(seat, "torch", 6, 3, "Relighting the torch (3 in 6)"):
            ctx.say(seat, "Still in the dark: cannot move this turn.")
            ctx.stopped.add(seat)
            return
        ch["torch"] = False
