"""One turn, in the rulebook's rhythm: first the decisions that arose last turn, then
start-of-turn troubles, then everyone's simultaneous movement, the treasure chamber, and
the sunset."""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.orders import choose, compare, merge_standing
from games.core.rng import RngBase
from games.core.types import Event, Orders

from ..board import (
    CHAMBER,
    SIDE_WORDS,
    SIDES,
    TOWERS,
    allowed_sides,
    route_to,
    targets_for,
    text_map,
)
from ..content import Content
from ..orders import event_of, parts, value_of
from ..state import State, active, seated, treasure_total
from .cards import take_offer
from .chamber import loot, settle
from .combat import article, monster_answers, resolve_monster, spider_answers, spider_choice
from .context import Ctx
from .movement import UNSEARCHABLE, darkness_exit, describe, run_movement
from .start import start_of_turn


def resolve_turn(state: State, orders: dict[str, Orders], rng: RngBase
                 ) -> tuple[State, list[Event]]:
    st = clone(state)
    items: dict[str, list[dict[str, Any]]] = {}
    missed: list[str] = []
    for seat in active(st):
        ch = st["chars"][seat]
        given = orders.get(seat)
        given_items = given.items if given is not None else []
        kept, turn_items = merge_standing(ch["standing"], clone(given_items))
        if given is None or given.default:
            missed.append(seat)
            defaults = clone(given_items)
            for item in defaults:  # the engine's stand-in, not the player's: never loots
                if "order" in item:
                    item["order"]["auto"] = True
            turn_items = [dict(s) for s in kept] + defaults
        ch["standing"] = kept
        items[seat] = turn_items
    ctx = Ctx(st, items, rng)
    ctx.missed = set(missed)
    started = active(st)
    turn = st["turn"]
    ctx.say(None, f"Turn {turn}", public=True, kind="turn", turn=turn, turns=st["turns"],
            sunset_in=st["turns"] - turn,
            heroes={s: f"{c['name']} {c['title']}" for s, c in seated(st)})
    for seat in active(st):
        set_destination(ctx, seat)
    for seat in missed:
        ch = ctx.ch(seat)
        ctx.phase = "decision" if ch["pending"] else "turn"
        dest = ch["destination"]
        plan = f"continues toward {dest}" if dest and ch["pos"] not in targets_for(dest) \
            else "stands still"
        ctx.say(seat, f"{ch['name']} sent no orders this turn and {plan}.", public=True,
                kind="missed")
    ctx.phase = "decision"
    for seat in active(st):
        if ctx.ch(seat)["pending"]:
            resolve_pending(ctx, seat)
    ctx.phase = "turn"
    for seat in active(st):
        if seat not in ctx.stopped:
            start_of_turn(ctx, seat)
    actions = {}
    for seat in active(st):
        if seat not in ctx.stopped:
            actions[seat] = choose_action(ctx, seat)
    run_movement(ctx, {s: a for s, a in actions.items() if a is not None})
    loot(ctx)
    settle(ctx)
    end_of_turn(ctx, started)
    return st, ctx.events


def set_destination(ctx: Ctx, seat: str) -> None:
    ch = ctx.ch(seat)
    for item in ctx.items[seat]:
        if "order" in item and item["order"]["op"] == "destination":
            dest = item["order"]["square"]
        elif "if" in item and event_of(item["if"]) is None:
            order = choose(item, lambda c: all(
                compare(p["op"], value_of(p["name"], ch, ctx.turn), p["value"])
                for p in parts(c)))
            if not order or order["op"] != "destination":
                continue
            dest = order["square"]
        else:
            continue
        if dest != ch["destination"]:
            ch["destination"] = dest
            ctx.say(seat, f"Destination now {dest}." if dest else "Destination cleared.")


def resolve_pending(ctx: Ctx, seat: str) -> None:
    ch = ctx.ch(seat)
    pending = ch["pending"]
    ch["pending"] = None
    kind = pending["type"]
    if kind == "monster":
        name = ctx.content.monsters[pending["kind"]]["name"]
        allowed = monster_answers(ctx, seat, pending["ambush"], pending["no_escape"])
        order = ctx.answer(seat, "monster", {"what": pending["kind"],
                                             "ambush": pending["ambush"]}, allowed=allowed)
        if order is None:
            order = {"op": "attack" if pending["ambush"] else "wait"}
            ctx.say(seat, f"No order for the {name}: the GM has {ch['name']} "
                          f"{'fight' if pending['ambush'] else 'wait and see'}.")
        ctx.stopped.discard(seat)
        resolve_monster(ctx, seat, pending, order)
    elif kind == "spider":
        order = ctx.answer(seat, "spider", {},
                           allowed=spider_answers(ctx, seat, pending["no_escape"]))
        if order is None:
            order = {"op": "fight"}
            ctx.say(seat, f"No order for the spider: the GM has {ch['name']} fight it.")
        spider_choice(ctx, seat, order)
    else:
        order = ctx.answer(seat, kind, {})
        if order is None:
            order = {"op": "ignore"}
            ctx.say(seat, f"No order about the {'crypt' if kind == 'crypt' else 'body'}.")
        take_offer(ctx, seat, kind, order)
    if ch["pending"] or ch["spider"]:
        ctx.stopped.add(seat)


def choose_action(ctx: Ctx, seat: str) -> dict[str, Any] | None:
    ch = ctx.ch(seat)
    cell = ctx.state["board"][ch["pos"]]
    if cell["kind"] == "darkness":
        side = darkness_exit(ctx, seat)
        return {"op": "move", "dirs": [side], "forced": True} if side else None
    order = ctx.answer(seat, "action", {})
    if order is None:
        dest = ch["destination"]
        order = {"op": "move", "to": dest, "auto": True} if dest else {"op": "stay", "auto": True}
    auto = bool(order.get("auto"))
    if order["op"] == "leave" and ch["pos"] not in TOWERS:
        tower = nearest_tower(ctx, seat)
        if tower is None:
            ctx.say(seat, "Wants to leave, but no way to a tower is known; stands still.",
                    public=True)
            return None
        return {"op": "move", "to": tower}
    if order["op"] == "move" and order.get("to") and ch["pos"] in targets_for(order["to"]):
        if ch["pos"] in TOWERS:  # MOVE TO the tower one stands in: the player asks to leave
            return {"op": "leave"}
        # Already there: stand still. A missed deadline's default never loots the chamber.
        return {"op": "stay", "auto": auto}
    return order


def nearest_tower(ctx: Ctx, seat: str) -> str | None:
    ch = ctx.ch(seat)
    _, _, tower = route_to(ctx.state["board"], ch["pos"], ch["entry"], set(TOWERS))
    return tower


def end_of_turn(ctx: Ctx, started: list[str]) -> None:
    st = ctx.state
    turn = st["turn"]
    ctx.phase = "end"
    if turn >= st["turns"]:
        for seat in active(st):
            if ctx.ch(seat)["pos"] in TOWERS:  # back in a corner room: safe at sunset
                ctx.escape_dungeon(seat, ctx.ch(seat)["pos"], sunset=True)
            else:
                ctx.kill(seat, "night falls and the castle's creatures come for the stragglers")
    for seat in started:
        ch = ctx.ch(seat)
        ctx.say(seat, "status", kind="status", room=room_text(st, ch),
                life=ch["life"], max_life=ch["max_life"],
                treasure=treasure_total(ch), items=len(ch["treasure"]), potion=ch["potion"],
                rope=ch["rope"], rings=[ctx.content.rings[r]["name"] for r in ch["rings"]],
                arrows=ch["arrows"], pos=ch["pos"], status=ch["status"],
                destination=ch["destination"], pending=pending_text(ch, ctx.content),
                troubles=troubles(ch))
    heroes = {c["pos"]: str(i + 1) for i, (s, c) in enumerate(seated(st))
              if c["status"] == "in" and c["pos"] not in CHAMBER}
    ctx.say(None, "map", public=True, kind="map", rows=text_map(st["board"], heroes),
            chamber=[s for s in active(st) if ctx.ch(s)["pos"] in CHAMBER])
    st["turn"] = turn + 1
    if not active(st) or st["turn"] > st["turns"]:
        st["over"] = True
        ctx.say(None, "result", public=True, kind="result",
                scores={s: (treasure_total(c) if c["status"] == "escaped" else None)
                        for s, c in seated(st)},
                fates={s: c["fate"] for s, c in seated(st)},
                winners=winners(st))


def room_text(st: State, ch: dict[str, Any]) -> str | None:
    """The room a hero in the dungeon stands in, as his next orders need it: its exits
    as they are now (a rotation, a curse or a fallen portcullis may have changed them
    since he came in), the bank of a chasm he may leave by, and the searches left."""
    if ch["status"] != "in":
        return None
    cell = st["board"][ch["pos"]]
    text = describe(cell)
    if ch["pos"] in CHAMBER:  # one room over two squares: both halves' ways out
        ways = "; ".join(f"{sq} " + ", ".join(SIDE_WORDS[s] for s in SIDES
                                               if st["board"][sq]["exits"][s] != "wall")
                         for sq in CHAMBER)
        text = f"the treasure chamber (ways out: {ways})"
    if cell["kind"] == "chasm" and ch["entry"]:
        bank = [SIDE_WORDS[s] for s in allowed_sides(st["board"], ch["pos"], ch["entry"])]
        text += f"; this side of the chasm: {', '.join(bank) or 'no way on'}"
    if cell["kind"] in UNSEARCHABLE:
        return text + "; cannot be searched"
    left = max(0, 2 - ch["searches"])
    return text + f"; {left} search{'es' if left != 1 else ''} left this visit"


def winners(st: State) -> list[str]:
    escaped = {s: treasure_total(c) for s, c in seated(st) if c["status"] == "escaped"}
    if not escaped:
        return []
    best = max(escaped.values())
    return sorted(s for s, v in escaped.items() if v == best)


def pending_text(ch: dict[str, Any], content: Content) -> str | None:
    p = ch["pending"]
    if not p:
        return None
    if p["type"] == "monster":
        m = content.monsters[p["kind"]]
        return f"{article(m['name'])} ({p['life']} Life Points) faces you in {p['square']}"
    if p["type"] == "spider":
        return f"a giant spider drops on you in {p['square']}"
    return f"a {'crypt' if p['type'] == 'crypt' else 'dead adventurer'} lies in {p['square']}"


def troubles(ch: dict[str, Any]) -> list[str]:
    out = []
    if ch["torch"]:
        out.append("torch out")
    if ch["trapdoor"]:
        out.append("in a trapdoor pit")
    if ch["spider"]:
        out.append("bound by a giant spider")
    if ch["skip"]:
        out.append(f"misses {ch['skip']} more turn{'s' if ch['skip'] > 1 else ''}")
    return out
