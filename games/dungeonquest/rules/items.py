"""Potions and the start-of-turn rings: what a hero carries and when it is used."""

from __future__ import annotations

from .context import Ctx


def drink(ctx: Ctx, seat: str) -> None:
    """Drink the carried potion: a d12 on the potion table decides what it was."""
    ch = ctx.ch(seat)
    ch["potion"] = False
    roll = ctx.die(seat, "potion", 12)
    roll = ctx.lucky(seat, "potion", "potion", 12, roll,
                     lambda r: not ({"heal", "full"} & set(ctx.content.potion_row(r))), "potion")
    row = ctx.content.potion_row(roll)
    ctx.say(seat, f"Drinks the potion (d12 rolls {roll}): {row['name']}.", roll=roll)
    if row.get("full"):
        gained = ctx.heal(seat, ch["max_life"])
        ctx.say(seat, f"Regains {gained} Life Points ({ch['life']}/{ch['max_life']}).")
    if "heal" in row:
        amount, shown = ctx.roll_spec(seat, row["heal"], "potion/heal")
        gained = ctx.heal(seat, amount)
        ctx.say(seat, f"Heals {row['heal']} ({shown}): regains {gained} Life Points "
                      f"({ch['life']}/{ch['max_life']}).")
    if "damage" in row:
        amount, shown = ctx.roll_spec(seat, row["damage"], "potion/harm")
        ctx.hurt(seat, amount, f"the poison ({row['damage']}: {shown})")
    if row.get("skip"):
        ch["skip"] += row["skip"]
        ctx.say(seat, f"Falls asleep: will miss {row['skip']} turn.")


def find_potion(ctx: Ctx, seat: str) -> None:
    """A hero carries one potion. PICK UP POTION takes the new one (dropping the one
    carried), DISCARD POTION leaves it, DRINK POTION drinks the carried one and takes the
    new; with no order the first potion is taken and a second one left."""
    ch = ctx.ch(seat)
    order = ctx.answer(seat, "potion", {})
    op = order["op"] if order is not None else None
    if op == "discard":
        ctx.say(seat, "Leaves the potion where it lies.")
        return
    if not ch["potion"]:
        ch["potion"] = True
        ctx.say(seat, "Takes the potion.")
        return
    if op == "take":
        ctx.say(seat, "Drops the potion carried and takes the new one.")
        return
    if op == "drink":
        ctx.say(seat, "Drinks the potion already carried to make room for the new one.")
        drink(ctx, seat)
        if ch["status"] == "in":
            ch["potion"] = True
            ctx.say(seat, "Takes the new potion.")
        return
    ctx.say(seat, "Already carries a potion and leaves this one (order IF POTION THEN DRINK "
                  "POTION to swap).")


def start_of_turn(ctx: Ctx, seat: str) -> None:
    """Ring of Healing, potions, and everything that holds a hero before moving."""
    from .combat import spider_round
    ch = ctx.ch(seat)
    if "healing" in ch["rings"] and ctx.answer(seat, "start", {}, allowed={"use:healing"}):
        ctx.use_ring(seat, "healing", "and rests while it works")
        gained = ctx.heal(seat, 5)
        ctx.say(seat, f"Regains {gained} Life Points ({ch['life']}/{ch['max_life']}); "
                      "does nothing else this turn.")
        ctx.stopped.add(seat)
        return
    if ch["potion"] and ctx.answer(seat, "start", {}, allowed={"drink"}):
        drink(ctx, seat)
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
