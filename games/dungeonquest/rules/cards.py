"""What every card does: room, corpse, crypt, search, trap and door cards.

A card is `what` or `what:detail` (see data/decks.toml). `apply_card` is the one place
that turns a drawn card into its effect.
"""

from __future__ import annotations

from ..board import rotate_cell
from ..content import Content
from ..state import draw_card
from .combat import article, meet_monster, meet_spider
from .context import Ctx
from .items import find_potion

DECK_WORD = {"room": "Room card", "corpse": "Corpse card", "crypt": "Crypt card",
             "search": "Search card", "trap": "Trap card", "door": "Door card"}
TRAP_ROOM_CARDS = {"trapdoor", "cave-in", "crossfire"}


def card_name(card: str, content: Content) -> str:
    what, _, detail = card.partition(":")
    if what == "treasure":
        return f"treasure, {content.treasure[detail]['name']}"
    if what == "monster":
        return f"monster, {article(content.monsters[detail]['name'])}"
    if what == "sneak":
        return f"sneak attack by {article(content.monsters[detail]['name'])}"
    if what == "trap" and detail:
        return f"trap, {content.harm[detail]['name']}"
    return {"empty": "empty", "nothing": "nothing but old bones", "crypt": "a crypt",
            "corpse": "a dead adventurer", "potion": "a potion", "trapdoor": "a trapdoor",
            "bats": "vampire bats", "torch": "your torch goes out", "cave-in": "cave-in",
            "crossfire": "crossfire trap", "spider": "a giant spider",
            "curse": "the Curse of the Wizard", "rope": "a coil of rope",
            "scorpion": "a scorpion", "skeleton": "a skeleton", "centipede": "a giant centipede",
            "trap": "a trap", "secret-door": "a secret door", "ring": "a ring",
            "explosion": "explosion", "gas": "poisonous gas", "snakes": "poisonous snakes",
            "opens": "the door opens", "jammed": "the door is jammed"}.get(what, what)


def gain(ctx: Ctx, seat: str, name: str, value: int) -> None:
    ch = ctx.ch(seat)
    ch["treasure"].append({"name": name, "value": value})
    total = sum(t["value"] for t in ch["treasure"])
    ctx.say(seat, f"Finds {name}, worth {value} gold (treasure now {total} gold).",
            gold=value)


def cornered(ctx: Ctx, seat: str) -> bool:
    """No escape from what waits where the hero stands: he came under a portcullis or
    through a secret door, or stands in a portcullis room (its portcullis fell behind
    him). The same test `movement.enter` makes for the room card."""
    ch = ctx.ch(seat)
    return ch["via"] in ("portcullis", "secret") or \
        ctx.state["board"][ch["pos"]]["kind"] == "portcullis"


def avoid_trap(ctx: Ctx, seat: str) -> bool:
    """The Ring of Warning, if an order says to use it on this trap."""
    if "warning" in ctx.ch(seat)["rings"] and ctx.answer(seat, "trap", {}) is not None:
        ctx.use_ring(seat, "warning", "and steps around the trap")
        return True
    return False


def apply_card(ctx: Ctx, seat: str, deck: str, card: str, *, no_escape: bool = False
               ) -> None:
    ch = ctx.ch(seat)
    what, _, detail = card.partition(":")
    if ctx.revision >= 3 and not no_escape:
        # A monster from any card drawn here (a crypt's skeleton) meets a hero who has
        # no way back, as the room's own card would (revisions 1-2 let him escape).
        no_escape = cornered(ctx, seat)
    ctx.cards[seat] = card  # for conditions named after the card (IF VAMPIRE BATS THEN ...)
    ctx.say(seat, f"{DECK_WORD[deck]}: {card_name(card, ctx.content)}.", card=card, deck=deck)
    if deck == "room" and what in TRAP_ROOM_CARDS and avoid_trap(ctx, seat):
        return
    if what in ("empty", "nothing"):
        return
    if what == "treasure":
        gain(ctx, seat, ctx.content.treasure[detail]["name"], ctx.content.treasure[detail]["value"])
    elif what == "monster":
        meet_monster(ctx, seat, detail, no_escape=no_escape)
    elif what == "sneak":
        amount, shown = ctx.roll_spec(seat, "d12-luck", "sneak", luck="damage")
        if ctx.hurt(seat, amount, f"the ambush (d12-Luck: {shown})"):
            meet_monster(ctx, seat, detail, ambush=True, no_escape=no_escape)
    elif what in ("crypt", "corpse"):
        offer(ctx, seat, what)
    elif what == "potion":
        find_potion(ctx, seat)
    elif what == "trapdoor":
        trapdoor(ctx, seat)
    elif what in ("bats", "crossfire", "scorpion", "centipede", "snakes"):
        ctx.harm(seat, what)
    elif what == "torch":
        ch["torch"] = True
        ctx.stopped.add(seat)
        ctx.say(seat, "In the dark: relight the torch (3 in 6 each turn) before moving on.")
    elif what == "cave-in":
        roll = ctx.die(seat, "cave-in", 6)
        roll = ctx.lucky(seat, "damage", "cave-in", 6, roll, lambda r: r == 1, "cave-in")
        if roll == 1:
            ctx.say(seat, f"The roof comes down (d6 rolls {roll}).", roll=roll)
            ctx.kill(seat, "buried by a cave-in")
        else:
            ctx.say(seat, f"The roof comes down (d6 rolls {roll}): not crushed.", roll=roll)
            ctx.harm(seat, "cave-in")
    elif what == "spider":
        meet_spider(ctx, seat, no_escape=no_escape)
    elif what == "curse":
        curse(ctx, seat)
    elif what == "rope":
        ch["rope"] = True
        ctx.say(seat, "Keeps the rope: it will pull you out of any trapdoor pit.")
    elif what == "skeleton":
        roll = ctx.die(seat, "skeleton", 6)
        if roll >= 4:
            ctx.say(seat, f"The skeleton stirs (d6 rolls {roll}) and rises as a Death Warrior!",
                    roll=roll)
            meet_monster(ctx, seat, "death-warrior", no_escape=no_escape)
        else:
            ctx.say(seat, f"The skeleton stays still (d6 rolls {roll}).", roll=roll)
    elif what == "trap" and detail:
        ctx.harm(seat, detail)
    elif what == "trap":
        if not avoid_trap(ctx, seat):
            apply_card(ctx, seat, "trap", draw_card(ctx.state, "trap", ctx.rng),
                       no_escape=no_escape)
    elif what == "explosion":
        if ctx.harm(seat, "explosion"):
            ch["skip"] += 1
            ctx.stopped.add(seat)
            ctx.say(seat, "Stunned by the blast: misses the next turn.")
    elif what == "gas":
        if ctx.harm(seat, "gas"):
            lost, shown = ctx.roll_spec(seat, "d6-3", "gas/turns")
            ch["skip"] += lost
            ctx.say(seat, f"Choking on the gas: misses {lost} turn{'s' if lost != 1 else ''} "
                          f"(d6-3: {shown}).")
            if lost:
                ctx.stopped.add(seat)
    elif what == "secret-door":
        pass  # the search that found it walks through it (movement.search): the last act
    elif what == "ring":
        if ctx.state["ring_pool"]:
            ring = ctx.state["ring_pool"].pop(0)
            ch["rings"].append(ring)
            ctx.say(seat, f"It is the {ctx.content.rings[ring]['name']}: {ctx.content.rings[ring]['text']}.")
        else:
            gain(ctx, seat, ctx.content.treasure["ring"]["name"],
                 ctx.content.treasure["ring"]["value"])
    else:  # pragma: no cover - Content.check() keeps decks and rules in step
        raise ValueError(f"no rule for card {card!r}")


def trapdoor(ctx: Ctx, seat: str) -> None:
    ch = ctx.ch(seat)
    if ctx.check(seat, "trapdoor", 12, ctx.stat(seat, "agility"),
                 "The floor gives way (Agility)"):
        ctx.say(seat, "Leaps clear of the trapdoor.")
        return
    if ctx.harm(seat, "fall"):
        ch["trapdoor"] = True
        ctx.stopped.add(seat)
        ctx.say(seat, "Down in the trapdoor pit: climb out next turn (Agility, or a rope).")


def offer(ctx: Ctx, seat: str, kind: str) -> None:
    """A crypt or a dead adventurer: search it if an order says so, else decide next turn."""
    order = ctx.answer(seat, kind, {})
    if order is None:
        ctx.ch(seat)["pending"] = {"type": kind, "square": ctx.ch(seat)["pos"]}
        word = "SEARCH CRYPT" if kind == "crypt" else "SEARCH BODY"
        ctx.say(seat, f"No order covers the {'crypt' if kind == 'crypt' else 'body'}: "
                      f"decide next turn ({word} or IGNORE).")
        return
    take_offer(ctx, seat, kind, order)


def take_offer(ctx: Ctx, seat: str, kind: str, order: dict[str, object]) -> None:
    if order["op"] == "ignore":
        ctx.say(seat, f"Leaves the {'crypt' if kind == 'crypt' else 'body'} alone.")
        return
    apply_card(ctx, seat, kind, draw_card(ctx.state, kind, ctx.rng))


def curse(ctx: Ctx, seat: str) -> None:
    """Every corridor tile on the board turns: a quarter either way or a half turn."""
    roll = ctx.die(seat, "curse", 6)
    quarters = 1 if roll <= 2 else 3 if roll <= 4 else 2
    board = ctx.state["board"]
    turned = sorted(sq for sq, c in board.items() if c["kind"] == "corridor")
    for sq in turned:
        board[sq] = rotate_cell(board[sq], quarters)
    how = {1: "a quarter turn clockwise", 3: "a quarter turn anticlockwise", 2: "half a turn"}
    ctx.say(None, f"The Wizard's curse twists every corridor {how[quarters]} "
                  f"(d6 rolls {roll}; {len(turned)} corridor tiles turn).", public=True,
            kind="curse", squares=turned, quarters=quarters)
