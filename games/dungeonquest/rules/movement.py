"""Moving through the dungeon: steps, tiles, doors, portcullises, corridors, towers,
secret doors, fleeing back, and the simultaneous movement of all heroes with priority
dice for a contested square."""

from __future__ import annotations

from typing import Any

from ..board import (
    CHAMBER,
    SIDE_WORDS,
    SIDES,
    TOWERS,
    allowed_sides,
    lay_tile,
    neighbour,
    open_sides,
    opposite,
    passage,
    rotate_cell,
    route,
    side_towards,
    step_target,
    targets_for,
    turn_side,
)
from ..state import draw_card, draw_tile, occupant
from .cards import apply_card, avoid_trap
from .context import Ctx
from .exits import lift, open_door, stop_in_tower, wants_out

MAX_STEPS = 8
TILE_WORDS = {"room": "a room", "dead-end": "a dead end", "corridor": "a corridor",
              "pit": "a bottomless pit", "cave-in": "a caved-in room",
              "darkness": "a chamber of darkness", "chasm": "a chasm",
              "portcullis": "a portcullis room", "rotating": "a rotating room",
              "trap": "a trap room", "tower": "a tower", "chamber": "the treasure chamber"}
UNSEARCHABLE = {"corridor", "pit", "darkness", "chasm", "rotating", "trap", "chamber", "tower"}


def describe(cell: dict[str, Any]) -> str:
    exits = ", ".join(f"{SIDE_WORDS[s]}{'' if cell['exits'][s] == 'open' else ' ' + cell['exits'][s]}"
                      for s in SIDES if cell["exits"][s] != "wall")
    return f"{TILE_WORDS[cell['kind']]} (exits: {exits or 'none'})"


# -- one step --------------------------------------------------------------------------

def step(ctx: Ctx, seat: str, side: str, *, secret: bool = False) -> str:
    """Try to move one square. Returns "blocked", "stop", "dead", "tower", "again"
    (a corridor: move on) or "entered" (the move ends in a room)."""
    ch = ctx.ch(seat)
    board = ctx.state["board"]
    pos = ch["pos"]
    word = SIDE_WORDS[side]
    ctx.cards.pop(seat, None)  # a new step: no card drawn yet
    if secret:
        kind: str | None = "secret"
        target = neighbour(pos, side)
        why = "the outer wall of the dungeon"
    else:
        if pos not in CHAMBER and side not in allowed_sides(board, pos, ch["entry"]):
            if board[pos]["kind"] == "chasm" and board[pos]["exits"][side] != "wall":
                ctx.say(seat, f"Cannot go {word}: that exit is across the chasm.", public=True)
            else:
                ctx.say(seat, f"Cannot go {word}: a wall.", public=True)
            return "blocked"
        kind, why = passage(board, pos, side)
        target = step_target(board, pos, side)
    if kind is None or target is None:
        ctx.say(seat, f"Cannot go {word}: {why}.", public=True)
        return "blocked"
    other = occupant(ctx.state, target, but=seat)
    if other is not None and target not in CHAMBER:
        ctx.say(seat, f"Cannot go {word}: {ctx.ch(other)['name']} is in {target}.",
                public=True)
        return "blocked"
    crossing = not secret and side != ch["entry"]
    kind_here = board[pos]["kind"]
    if crossing and kind_here == "pit" and not ctx.check(
            seat, "pit", 12, ctx.stat(seat, "agility"),
            "Leaping across the bottomless pit (Agility)"):
        ctx.kill(seat, "fell into the bottomless pit")
        return "dead"
    if crossing and kind_here == "cave-in" and not ctx.check(
            seat, "cave-in/climb", 12, ctx.stat(seat, "agility"),
            "Clambering over the rubble (Agility)"):
        ctx.say(seat, "Slips back on the rubble: the turn is lost.", public=True)
        return "stop"
    if kind == "door" and not open_door(ctx, seat):
        return "stop" if ch["status"] == "in" else "dead"
    if kind == "portcullis" and not lift(ctx, seat):
        return "stop"
    return enter(ctx, seat, target, side, kind)


def enter(ctx: Ctx, seat: str, target: str, side: str, via: str) -> str:
    ch = ctx.ch(seat)
    state = ctx.state
    board = state["board"]
    new = target not in board
    if new:
        tile = draw_tile(state)
        if tile is None:
            ctx.say(seat, "The way is choked with rubble (no tiles left).", public=True)
            return "blocked"
        cell = lay_tile(ctx.content.tiles, tile, side)
        if "transformation" in ch["rings"]:
            plain = cell["kind"] not in ("room", "corridor")
            if ctx.answer(seat, "tile", {"what": cell["kind"]}, plain=plain) is not None:
                nxt = draw_tile(state)
                if nxt is not None:
                    ctx.use_ring(seat, "transformation",
                                 f"on {TILE_WORDS[cell['kind']]} and it changes")
                    state["spent_tiles"].append(tile)
                    cell = lay_tile(ctx.content.tiles, nxt, side)
        board[target] = cell
    cell = board[target]
    prev = ch["pos"]
    ch.update(pos=target, entry=opposite(side), prev=prev, via=via, searches=0)
    how = {"secret": " through a secret door", "door": " through a door",
           "portcullis": " under the portcullis"}.get(via, "")
    found = f"new tile: {describe(cell)}" if new else describe(cell)
    ctx.say(seat, f"Moves {SIDE_WORDS[side]}{how} to {target}: {found}.", public=True,
            kind="move", to=target, new_tile=cell["tile"] if new else None)
    kind = cell["kind"]
    if kind == "tower":
        return "tower"
    if kind == "chamber":
        ctx.looters.add(seat)
        return "entered"
    if kind == "corridor":
        return "again"
    no_escape = via in ("portcullis", "secret") or kind == "portcullis"
    if kind == "portcullis" and ctx.revision >= 3:
        drop_portcullis(ctx, target, opposite(side))
        if board[target]["exits"][opposite(side)] == "portcullis":
            ctx.say(seat, f"A portcullis crashes down behind you: the "
                          f"{SIDE_WORDS[opposite(side)]} way out is barred until lifted "
                          f"(Strength).", public=True)
        else:
            ctx.say(seat, "A portcullis room, entered through its wall: no way back.",
                    public=True)
    elif kind == "portcullis":
        ctx.say(seat, "A portcullis crashes down behind you.", public=True)
    if kind == "pit":
        ctx.say(seat, "A bottomless pit fills the room. Next turn RETREAT the way you came, "
                      "or leave by another exit and leap it (Agility; a miss is death).")
        return "entered"
    if kind == "darkness":
        ctx.say(seat, "Utter darkness. Next turn a d6 decides which exit you stumble to.")
        return "entered"
    if kind == "rotating":
        if not cell.get("rotated"):
            board[target] = dict(rotate_cell(cell, 1), rotated=True)
            ctx.say(seat, f"The room grinds a quarter turn clockwise: now "
                          f"{describe(board[target])}.", public=True, kind="rotate")
        return "entered"
    if kind == "trap":
        if not avoid_trap(ctx, seat):
            apply_card(ctx, seat, "trap", draw_card(state, "trap", ctx.rng),
                       no_escape=no_escape)
        return "entered"
    apply_card(ctx, seat, "room", draw_card(state, "room", ctx.rng), no_escape=no_escape)
    return "entered"


def drop_portcullis(ctx: Ctx, sq: str, side: str) -> None:
    """Revision 3: a portcullis room drops its portcullis behind whoever comes in, by
    whichever side (revisions 1-2 had one only on the side of the hero who laid the
    tile, so a later visitor from another side heard it fall yet could walk back out).
    A side that is a wall (a secret door's way in) stays a wall."""
    cell = ctx.state["board"][sq]
    if cell["exits"][side] in ("open", "door"):
        ctx.state["board"][sq] = {**cell, "exits": {**cell["exits"], side: "portcullis"}}


# -- a whole move -------------------------------------------------------------------------

def continue_side(ctx: Ctx, seat: str, target: str | None) -> str | None:
    """Where a corridor carries a hero on: toward the target, never back."""
    ch = ctx.ch(seat)
    board = ctx.state["board"]
    pos, entry = ch["pos"], ch["entry"]
    sides = [s for s in allowed_sides(board, pos, entry)
             if s != entry and passage(board, pos, s)[0] is not None]
    if not sides:
        return None
    if target:
        best, _ = route(board, pos, entry, targets_for(target))
        if best in sides:
            return best
    ahead = opposite(entry) if entry else None
    return ahead if ahead in sides else sides[0]


def walk(ctx: Ctx, seat: str, first: str, *, dirs: list[str] | None = None,
         target: str | None = None, secret: bool = False, own: bool = False,
         forced: bool = False) -> None:
    """Step, and keep stepping while corridors (or a tower passed through) carry the hero.

    Entering a tower leaves the dungeon only when the player asked for it: a step of his
    own straight into the tower (`own`: a direction or RETREAT), or a MOVE TO / LEAVE /
    destination naming that tower. More directions to come pass through it (in by one
    exit, out by the other), as does a corridor or a MOVE TO carrying the hero elsewhere;
    a die-driven step (`forced`: the chamber of darkness) stops in the tower. Corridors
    steer by the extra directions, then the MOVE TO square, then the destination."""
    ch = ctx.ch(seat)
    dirs = list(dirs or [])
    side: str | None = first
    steps = 0
    while side is not None and ch["status"] == "in":
        outcome = step(ctx, seat, side, secret=secret and steps == 0)
        steps += 1
        if outcome == "tower":
            tower = ch["pos"]
            if not dirs and (wants_out(ctx, seat, tower, target) or (own and steps == 1)):
                ctx.escape_dungeon(seat, tower)
                return
            if not dirs and forced:
                stop_in_tower(ctx, seat, tower, "Stumbles into")
                return
            dirs = dirs[1:]
            others = [s for s in open_sides(ctx.state["board"][tower]) if s != ch["entry"]]
            side = others[0]
            ctx.say(seat, f"Passes through the tower and out by its {SIDE_WORDS[side]} exit.",
                    public=True)
            continue
        if outcome != "again":
            return
        if steps >= MAX_STEPS:
            ctx.say(seat, "Stops to catch breath in the corridor.", public=True)
            return
        side = dirs.pop(0) if dirs else continue_side(ctx, seat, target or ch["destination"])
        if side is None:
            ctx.say(seat, "The corridor leads nowhere onward: stops here.", public=True)


def first_side(ctx: Ctx, seat: str, action: dict[str, Any]) -> str | None:
    ch = ctx.ch(seat)
    board = ctx.state["board"]
    if action.get("dirs"):
        return action["dirs"][0]
    if action.get("back"):
        if ch["prev"] is None:
            return None
        for sq in (CHAMBER if ch["pos"] in CHAMBER else (ch["pos"],)):
            side = side_towards(sq, ch["prev"])
            if side is not None:
                return side
        return None
    if action.get("to"):
        occupied = {ctx.ch(s)["pos"] for s in ctx.state["seats"]
                    if s != seat and ctx.ch(s)["status"] == "in"}
        side, _ = route(board, ch["pos"], ch["entry"], targets_for(action["to"]), occupied)
        return side
    return None


def secret_door(ctx: Ctx, seat: str, wanted: str | None) -> None:
    """Step at once through a secret door into a neighbouring square (never a tower)."""
    ch = ctx.ch(seat)
    pos = ch["pos"]

    def usable(side: str) -> bool:
        sq = neighbour(pos, side)
        return sq is not None and sq not in TOWERS and \
            (occupant(ctx.state, sq, but=seat) is None or sq in CHAMBER)

    choices = [s for s in SIDES if usable(s)]
    if not choices:
        ctx.say(seat, "The secret door opens onto solid rock.")
        return
    side = wanted if wanted in choices else None
    if side is None and ch["destination"]:
        best, _ = route(ctx.state["board"], pos, None, targets_for(ch["destination"]))
        side = best if best in choices else None
    side = side or choices[0]
    ch["pending"] = None
    walk(ctx, seat, side, secret=True)


def darkness_exit(ctx: Ctx, seat: str) -> str | None:
    """The d6 that decides where a hero in a chamber of darkness comes out."""
    ch = ctx.ch(seat)
    cell = ctx.state["board"][ch["pos"]]
    entry = ch["entry"] or SIDES[0]
    others = [s for s in open_sides(cell) if s != entry]

    def side_of(roll: int) -> str:
        if len(others) <= 1:
            return entry if roll <= 3 or not others else others[0]
        clockwise = next(turn_side(entry, k) for k in (1, 2, 3) if turn_side(entry, k) in others)
        anti = next(turn_side(entry, k) for k in (3, 2, 1) if turn_side(entry, k) in others)
        return entry if roll <= 2 else clockwise if roll <= 4 else anti

    def leads(side: str) -> bool:
        return passage(ctx.state["board"], ch["pos"], side)[0] is not None

    roll = ctx.die(seat, "darkness", 6)
    # a bad roll for the Ring of Luck: back the way in, or an exit that leads nowhere
    roll = ctx.lucky(seat, "darkness", "darkness", 6, roll,
                     lambda r: side_of(r) == entry or not leads(side_of(r)), "darkness")
    side = side_of(roll)
    ok = leads(side)
    ctx.say(seat, f"Gropes through the darkness (d6 rolls {roll}): the {SIDE_WORDS[side]} "
                  f"exit{'' if ok else ', but it leads nowhere; the turn is lost'}.", roll=roll)
    return side if ok else None


# -- searching ---------------------------------------------------------------------------

SEARCH_RANK = ["ring", "treasure", "secret-door", "potion", "empty", "trap", "centipede"]


def search(ctx: Ctx, seat: str, order: dict[str, Any]) -> None:
    ch = ctx.ch(seat)
    cell = ctx.state["board"][ch["pos"]]
    if cell["kind"] in UNSEARCHABLE:
        ctx.say(seat, f"Cannot search {TILE_WORDS[cell['kind']]}; stands still.", public=True)
        return
    if ch["searches"] >= 2:
        ctx.say(seat, "This room has been searched twice this visit; stands still.",
                public=True)
        return
    ch["searches"] += 1
    ctx.say(seat, f"Searches {ch['pos']} (search {ch['searches']} of 2 this visit).",
            public=True, kind="search")
    if "vision" in ch["rings"] and ctx.answer(seat, "search", {}) is not None:
        ctx.use_ring(seat, "vision", "and sees four places at once")
        cards = [draw_card(ctx.state, "search", ctx.rng) for _ in range(4)]
        rank = list(SEARCH_RANK)
        if order.get("dir") or order.get("to"):
            rank.remove("secret-door")
            rank.insert(0, "secret-door")

        def score(card: str) -> tuple[int, int]:
            what, _, detail = card.partition(":")
            value = 0
            if what == "treasure":
                value = -ctx.content.treasure[detail]["value"]
            return rank.index(what) if what in rank else len(rank), value

        card = min(cards, key=score)
        ctx.say(seat, f"Sees: {', '.join(cards)}; keeps {card}.")
    else:
        card = draw_card(ctx.state, "search", ctx.rng)
    wanted = order.get("dir") or (side_towards(ch["pos"], order["to"]) if order.get("to")
                                  else None)
    apply_card(ctx, seat, "search", card)
    if card == "secret-door":
        # The card's own rule, applied here rather than in `apply_card` so that the cards
        # never call back into movement (a card is drawn while moving, not the reverse).
        secret_door(ctx, seat, wanted)


# -- everyone at once -------------------------------------------------------------------------

def run_movement(ctx: Ctx, actions: dict[str, dict[str, Any]]) -> None:
    """Resolve the turn's moves together. Heroes aiming at the same square (other than
    the treasure chamber) roll a d6 each for priority; the losers stay where they are.
    Heroes whose target is free go first, so one hero may follow another out of a room."""
    state = ctx.state
    firsts: dict[str, tuple[str, str | None]] = {}
    for seat in state["seats"]:
        action = actions.get(seat)
        if action is None or action["op"] != "move":
            continue
        side = first_side(ctx, seat, action)
        if side is None:
            where = action.get("to") or "back"
            ctx.say(seat, f"Finds no way toward {where}; stands still.", public=True)
            continue
        firsts[seat] = (side, step_target(state["board"], ctx.ch(seat)["pos"], side))
    contested: dict[str, list[str]] = {}
    for seat, (_, target) in firsts.items():
        if target is not None and target not in CHAMBER:
            contested.setdefault(target, []).append(seat)
    for target, seats in sorted(contested.items()):
        if len(seats) < 2:
            continue
        winner = priority(ctx, target, seats)
        for seat in seats:
            if seat != winner:
                del firsts[seat]
                ctx.say(seat, f"{ctx.ch(seat)['name']} is beaten to {target} and stays in "
                              f"{ctx.ch(seat)['pos']}.", public=True)

    def waiting(seat: str) -> int:
        target = firsts[seat][1]
        return 1 if target is not None and occupant(state, target, but=seat) else 0

    for seat in sorted(firsts, key=lambda s: (waiting(s), state["seats"].index(s))):
        if ctx.ch(seat)["status"] != "in" or seat in ctx.stopped:
            continue
        action = actions[seat]
        side = firsts[seat][0]
        own = bool(action.get("dirs") or action.get("back")) and not action.get("auto") \
            and not action.get("forced")
        walk(ctx, seat, side, dirs=list(action.get("dirs") or [])[1:],
             target=action.get("to"), own=own, forced=bool(action.get("forced")))
    for seat in state["seats"]:
        action = actions.get(seat)
        if action is None or ctx.ch(seat)["status"] != "in":
            continue
        if action["op"] == "leave":
            ctx.escape_dungeon(seat, ctx.ch(seat)["pos"])
        elif action["op"] == "search":
            search(ctx, seat, action)
        elif action["op"] == "stay":
            if ctx.ch(seat)["pos"] in CHAMBER and not action.get("auto"):
                ctx.looters.add(seat)
            elif action.get("auto") and ctx.ch(seat)["pos"] in CHAMBER:
                ctx.say(seat, "Stands still in the treasure chamber without touching the "
                              "hoard (only a LOOT or STAY order takes treasure).", public=True)
            elif action.get("auto"):
                ctx.say(seat, "Stands still.", public=True)
            else:
                ctx.say(seat, "Stays where they are.", public=True)


def priority(ctx: Ctx, target: str, seats: list[str]) -> str:
    """Priority dice for a contested square: highest d6 wins, ties roll again."""
    alive = list(seats)
    for round_no in range(1, 4):
        rolls = {s: ctx.die(s, f"priority/{target}", 6) for s in alive}
        shown = ", ".join(f"{ctx.ch(s)['name']} {r}" for s, r in rolls.items())
        top = max(rolls.values())
        alive = [s for s in alive if rolls[s] == top]
        ctx.say(None, f"Priority dice for {target}{' (again)' if round_no > 1 else ''}: "
                      f"{shown}.", public=True, kind="priority")
        if len(alive) == 1:
            return alive[0]
    return alive[0]
