"""Finding a potion: which one the hero keeps (drinking one is `Ctx.drink`)."""

from __future__ import annotations

from .context import Ctx


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
        ctx.drink(seat)
        if ch["status"] == "in":
            ch["potion"] = True
            ctx.say(seat, "Takes the new potion.")
        return
    ctx.say(seat, "Already carries a potion and leaves this one (order IF POTION THEN DRINK "
                  "POTION to swap).")
