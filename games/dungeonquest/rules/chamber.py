"""The treasure chamber: treasure counters, dragon counters and the fiery dragon."""

from __future__ import annotations

from ..board import CHAMBER, SIDE_WORDS, SIDES, TOWERS, lay_tile, neighbour, opposite, route
from ..state import draw_dragon, draw_tile, in_chamber, occupant, return_dragon
from .context import Ctx


def loot(ctx: Ctx) -> None:
    """Everyone who entered or stayed to loot takes two counters, then draws dragon
    counters: one each when alone, two each when the chamber is shared."""
    state = ctx.state
    looters = [s for s in state["seats"] if s in ctx.looters
               and ctx.ch(s)["status"] == "in" and ctx.ch(s)["pos"] in CHAMBER]
    if not looters:
        return
    per = 1 if len(in_chamber(state)) == 1 else 2
    woke = False
    for seat in looters:
        ch = ctx.ch(seat)
        taken = [state["hoard"].pop(0) for _ in range(2) if state["hoard"]]
        for value in taken:
            ch["treasure"].append({"name": "a treasure counter", "value": value})
        total = sum(t["value"] for t in ch["treasure"])
        if taken:
            ctx.say(seat, f"Takes {len(taken)} treasure counters from the hoard: "
                          f"{' and '.join(f'{v} gold' for v in taken)} (treasure now {total} "
                          f"gold).", gold=sum(taken))
        else:
            ctx.say(seat, "The hoard is bare.")
        ctx.say(seat, f"{ch['name']} fills their pack from the dragon's hoard.", public=True)
        for _ in range(per):
            counter = draw_dragon(state, ctx.rng)
            left = len(state["dragon"]["pool"])
            if counter == "fiery":
                ctx.say(seat, f"{ch['name']} draws a dragon counter: **the dragon wakes!**",
                        public=True, kind="dragon", counter=counter)
                woke = True
                break
            ctx.say(seat, f"{ch['name']} draws a dragon counter: the dragon sleeps on "
                          f"({left} counters left).", public=True, kind="dragon",
                    counter=counter)
        if woke:
            break
    if woke:
        for seat in in_chamber(state):
            dragon_fire(ctx, seat)


def dragon_fire(ctx: Ctx, seat: str) -> None:
    ch = ctx.ch(seat)
    lost = sum(t["value"] for t in ch["treasure"])
    ch["treasure"] = []
    ctx.looters.discard(seat)
    ctx.say(seat, f"{ch['name']} is caught in the dragon's fire and drops everything.",
            public=True)
    ctx.say(seat, f"Loses all treasure ({lost} gold).")
    if ctx.harm(seat, "dragon", "dragon/fire"):
        push_out(ctx, seat)


def push_out(ctx: Ctx, seat: str) -> None:
    """Driven out to a neighbouring square, without a room card."""
    state = ctx.state
    board = state["board"]
    ch = ctx.ch(seat)
    options: list[tuple[int, str, str, str]] = []
    for sq in CHAMBER:
        for side in SIDES:
            target = neighbour(sq, side)
            if target is None or target in CHAMBER or target in TOWERS:
                continue
            if board[sq]["exits"][side] == "wall":
                continue
            if target in board and board[target]["exits"][opposite(side)] == "wall":
                continue
            if occupant(state, target, but=seat) is not None:
                continue
            rank = 0 if target == ch["prev"] else 1
            if rank and ch["destination"]:
                _, cost = route(board, target, opposite(side), {ch["destination"]})
                rank = 1 + (cost if cost >= 0 else 99)
            options.append((rank, target, side, sq))
    if not options:
        ctx.say(seat, "Nowhere to run: cowers in the chamber.", public=True)
        return
    _, target, side, sq = min(options)
    if target not in board:
        tile = draw_tile(state)
        if tile is None:
            ctx.say(seat, "Nowhere to run: cowers in the chamber.", public=True)
            return
        board[target] = lay_tile(ctx.content.tiles, tile, side)
    ch.update(pos=target, entry=opposite(side), prev=sq, via="open", searches=0)
    ctx.stopped.add(seat)
    ctx.say(seat, f"Staggers out {SIDE_WORDS[side]} to {target} (no room card).",
            public=True, kind="move", to=target)


def settle(ctx: Ctx) -> None:
    """When nobody is left in the chamber the drawn dragon counters go back in."""
    if not in_chamber(ctx.state) and ctx.state["dragon"]["drawn"]:
        return_dragon(ctx.state, ctx.rng)
        ctx.say(None, "The treasure chamber is empty: the dragon counters are shuffled back.",
                public=True, kind="dragon")
