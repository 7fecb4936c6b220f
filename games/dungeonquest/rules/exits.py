"""The ways through and out: doors, portcullises, the towers' corner rooms and fleeing
back the way a hero came. Below both movement and combat, which use them (a monster
or the spider may send a hero back), and above no rule that draws a card."""

from __future__ import annotations

from ..board import CHAMBER, opposite, passage, side_towards
from ..state import draw_card, occupant
from .context import Ctx


def open_door(ctx: Ctx, seat: str) -> bool:
    ch = ctx.ch(seat)
    if "opening" in ch["rings"] and ctx.answer(seat, "door", {}) is not None:
        ctx.use_ring(seat, "opening", "and the door swings open")
        return True
    card = draw_card(ctx.state, "door", ctx.rng)
    ctx.cards[seat] = card
    what, _, detail = card.partition(":")
    if what == "opens":
        ctx.say(seat, "Door card: the door opens.", card=card, deck="door")
        return True
    if what == "jammed" and "opening" in ch["rings"] and \
            ctx.answer(seat, "door", {}, plain=False) is not None:  # IF JAMMED THEN USE ...
        ctx.say(seat, "Door card: the door is jammed.", card=card, deck="door")
        ctx.use_ring(seat, "opening", "and the jammed door swings open")
        return True
    if what == "jammed":
        ctx.say(seat, "Door card: the door is jammed. The turn ends; try again next turn.",
                card=card, deck="door")
        ctx.say(seat, "Is stopped by a jammed door.", public=True)
        return False
    ctx.say(seat, "Door card: a trap on the door!", card=card, deck="door")
    if not ctx.harm(seat, detail):
        return False
    ctx.say(seat, "The door then swings open.")
    return True


def lift(ctx: Ctx, seat: str) -> bool:
    ch = ctx.ch(seat)
    if "opening" in ch["rings"] and ctx.answer(seat, "portcullis", {}) is not None:
        ctx.use_ring(seat, "opening", "and the portcullis rises")
        return True
    if ctx.check(seat, "portcullis", 12, ctx.stat(seat, "strength"),
                 "Lifting the portcullis (Strength)"):
        return True
    ctx.say(seat, "Cannot lift the portcullis this turn.", public=True)
    return False


def wants_out(ctx: Ctx, seat: str, tower: str, target: str | None = None) -> bool:
    """Whether the player asked to leave the dungeon by `tower`: a MOVE TO that tower (or
    LEAVE) this turn, or, failing a MOVE TO, a destination set on that tower. Nothing
    else takes a hero out: the rulebook lets a hero leave early only if he wishes."""
    if target is not None:
        return target == tower
    order = ctx.answer(seat, "action", {})
    if order is not None and order["op"] == "leave":
        return True
    if order is not None and order["op"] == "move" and order.get("to"):
        return bool(order["to"] == tower)
    return bool(ctx.ch(seat)["destination"] == tower)


def stop_in_tower(ctx: Ctx, seat: str, tower: str, how: str) -> None:
    """A hero brought into a tower without asking to leave stands in that corner room."""
    ctx.stopped.add(seat)
    ctx.say(seat, f"{how} the tower at {tower}: a corner room, safe at sunset. The hero "
                  "stays in the dungeon; order LEAVE to quit it, or move on.", public=True)


def flee_back(ctx: Ctx, seat: str, what: str) -> bool:
    """Escape to the square the hero came from, if the way back is still there."""
    ch = ctx.ch(seat)
    board = ctx.state["board"]
    prev, pos = ch["prev"], ch["pos"]
    side = side_towards(pos, prev) if prev else None
    if side is None or passage(board, pos, side)[0] is None:
        return False
    if occupant(ctx.state, prev, but=seat) is not None and prev not in CHAMBER:
        return False
    if ch["via"] == "door" and not open_door(ctx, seat):
        return False
    ch.update(pos=prev, entry=opposite(side), prev=pos, searches=0)
    ctx.stopped.add(seat)
    ctx.say(seat, f"Flees {what} back to {prev}.", public=True, kind="move", to=prev)
    if board[prev]["kind"] == "tower":
        if wants_out(ctx, seat, prev):
            ctx.escape_dungeon(seat, prev)
        else:
            stop_in_tower(ctx, seat, prev, "Takes refuge in")
    return True
