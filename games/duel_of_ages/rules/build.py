"""Building the map by orders (option map=build), before the first turn.

Black places a platter with a dome key hooked to it, White answers, and so on until the
four platters and four dome keys are down; then Black and White place the last two dome
keys; then Black, White, Black, White place the four labyrinths in nooks, crannies or
notches, each entrance joining the map. Every placement is checked so that the build can
still be finished legally (never more nooks and crannies than keys and labyrinths left to
fill them), so a build always yields a legal map."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from games.core.engine import revision_of
from games.core.orders import OrderSyntax
from games.core.types import Event, OrderError, Orders, OrdersInvalid

from .. import catalog, hexmap, pieces
from ..pieces import Placement, Site, Slot
from ..state import SEATS, State, chars
from .combat import Events

STEPS = (("Black", "pair"), ("White", "pair"), ("Black", "pair"), ("White", "pair"),
         ("Black", "key"), ("White", "key"),
         ("Black", "labyrinth"), ("White", "labyrinth"), ("Black", "labyrinth"),
         ("White", "labyrinth"))
"""Who places what at each step of the build."""
LABYRINTH_STEP = next(i for i, (_, kind) in enumerate(STEPS) if kind == "labyrinth")
"""The first labyrinth's step. The characters, dealt face down, are revealed before it:
the rulebook reveals them once the platters and dome keys are down, then the teams
place the labyrinths knowing each other's characters (and their ages)."""


def revealed(state: State) -> bool:
    """Whether every character has been revealed (always, once the build is over)."""
    return state.get("phase") != "build" or state["build"]["step"] >= LABYRINTH_STEP


def start(state: State) -> None:
    state["phase"] = "build"
    state["build"] = {"step": 0, "placement": {"platters": {}, "dome_keys": {},
                                               "labyrinths": {}}}
    state["map"] = pieces.assemble(state["build"]["placement"])


def builder(state: State) -> str:
    return STEPS[state["build"]["step"]][0]


WHAT = {"pair": "a platter and a dome key", "key": "a dome key", "labyrinth": "a labyrinth"}


def what(state: State) -> str:
    """What this step places, in words ("a platter and a dome key")."""
    return WHAT[STEPS[state["build"]["step"]][1]]


def left(placement: Placement, kind: str) -> list[str]:
    data = pieces.pieces()
    names = {"platters": list(data["platters"]), "dome_keys": list(data["dome_keys"]),
             "labyrinths": list(data["labyrinth_keys"])}[kind]
    return [n for n in names if n not in placement[kind]]


def labyrinth_block(placement: Placement, slot: Slot, facing: Site,
                    labs_left: int) -> str | None:
    """A labyrinth goes in a nook, cranny or notch; when the nooks and crannies are as
    many as the labyrinths left, in one of them; its entrance faces a platter beside it."""
    gaps = pieces.gaps(placement)
    holes = gaps["nook"] + gaps["cranny"]
    if slot not in holes + gaps["notch"]:
        return "a labyrinth goes in a nook, cranny or notch beside a platter"
    if len(holes) >= labs_left and slot not in holes:
        return "the nooks and crannies must be filled first"
    if facing not in pieces.platter_sites(placement) or facing not in pieces.slot_sites(slot):
        return "its entrance must face a platter beside it"
    return None


def _with(placement: Placement, kind: str, name: str, at: Any) -> Placement:
    out = {k: dict(v) for k, v in placement.items()}  # the values are names: no deep copy
    out[kind][name] = at
    return out


MIDDLE = pieces.site_at("D4")
"""The platter site in the middle of the table."""


def _near(site: Site) -> tuple[int, int, int]:
    a, b = site[0] - MIDDLE[0], site[1] - MIDDLE[1]
    return max(abs(a), abs(b), abs(a + b)), *site


def _slot_near(slot: Slot) -> tuple[int, int, int, int]:
    x, z = pieces.slot_middle(slot)
    mx, mz = pieces.site_middle(MIDDLE)
    return max(abs(x - mx), abs(z - mz), abs(x - mx + z - mz)), *slot


def candidates(placement: Placement, kind: str, step: int) -> list[tuple[str, Any]]:
    """Every legal single placement of the next piece of `kind` (first name left),
    nearest the middle of the table first; a labyrinth's is [slot, site faced]."""
    names = left(placement, kind)[:1]
    if not names:
        return []
    name = names[0]
    platters = pieces.platter_sites(placement)
    if kind == "platters":
        sites = ({n for s in platters for n in pieces.site_neighbours(s)}
                 | {n for slot in pieces.key_slots(placement) for n in pieces.slot_sites(slot)}
                 if platters else {(a, b) for a in range(-pieces.FRAME, pieces.FRAME)
                                   for b in range(-pieces.FRAME, pieces.FRAME)})
        return [(name, pieces.site_name(s)) for s in sorted(sites, key=_near)
                if pieces.in_frame(s) and pieces.platter_block(placement, s) is None]
    slots = sorted({slot for s in platters for slot in pieces.site_slots(s)}, key=_slot_near)
    if kind == "dome_keys":
        return [(name, pieces.slot_name(slot, platters)) for slot in slots
                if pieces.key_block(placement, slot) is None]
    labs_left = len(STEPS) - step
    out: list[tuple[str, Any]] = []
    for slot in slots:
        for facing in sorted(set(pieces.slot_sites(slot)) & set(platters), key=_near):
            if labyrinth_block(placement, slot, facing, labs_left) is None:
                out.append((name, [pieces.slot_name(slot, platters),
                                   pieces.site_name(facing)]))
    return out


def finishable(placement: Placement, step: int) -> bool:
    return _finishable(json.dumps(placement, sort_keys=True), step)


@lru_cache(maxsize=1 << 12)
def _finishable(frozen: str, step: int) -> bool:
    """Can the build still end legally from `step` on? Every step places one key, so
    after step s at most len(STEPS) - s - 1 nooks and crannies can still be filled. A
    greedy completion is tried, each step taking the placement that leaves the fewest
    nooks and crannies (nearest the middle on a tie); an order is accepted only if one
    exists, so every accepted build can be finished."""
    placement = json.loads(frozen)
    if pieces.enclosed(placement) or pieces.holes(placement) > len(STEPS) - step:
        return False
    while step < len(STEPS):
        kind = STEPS[step][1]
        options: list[Placement] = []
        if kind == "pair":
            for name, at in candidates(placement, "platters", step):
                trial = _with(placement, "platters", name, at)
                options += [_with(trial, "dome_keys", key, where)
                            for key, where in candidates(trial, "dome_keys", step)]
        else:
            kind_ = "dome_keys" if kind == "key" else "labyrinths"
            options = [_with(placement, kind_, name, at)
                       for name, at in candidates(placement, kind_, step)]
        options = [o for o in options if not pieces.enclosed(o)]
        if not options:
            return False
        placement = min(options, key=pieces.holes)  # the first of the fewest: nearest
        step += 1
        if pieces.holes(placement) > len(STEPS) - step:
            return False
    return pieces.holes(placement) == 0


# -- orders --------------------------------------------------------------------------------
HELP = ("PLATTER <name> AT <site> [TURN <sixths clockwise>] (sites A1 to G7), KEY <name> AT <slot>, LABYRINTH <age> "
        "AT <slot> [FROM <site>]; a slot is a site and a side: C4E, C4SE, C4SW, C4W, C4NW, "
        "C4NE; FROM names the platter the entrance faces.")


def parse(state: State, seat: str, text: str, *, default: bool = False) -> Orders:
    """PLATTER <name> AT <site>, KEY <name> AT <slot>, LABYRINTH <age> AT <slot> [FROM
    <site>]."""
    from games.core.orders import order_lines

    placement = state["build"]["placement"]
    step = state["build"]["step"]
    items: list[dict[str, Any]] = []
    errors: list[OrderError] = []
    for line in order_lines(text):
        try:
            items.append(_line(placement, line.text))
        except OrderSyntax as exc:
            errors.append(OrderError(line.number, exc.message, exc.hint))
    if not errors:
        try:
            check(placement, step, items)
        except OrderSyntax as exc:
            errors.append(OrderError(1, exc.message, exc.hint))
    lines = [render(i) for i in items]
    if errors:
        raise OrdersInvalid(errors, lines)
    return Orders(seat, items, "\n".join(lines), default)


WORDS = {"PLATTER": "platters", "KEY": "dome_keys", "LABYRINTH": "labyrinths"}


def _line(placement: Placement, text: str) -> dict[str, Any]:
    words = text.split()
    if not words or words[0].upper() not in WORDS:
        raise OrderSyntax(f"cannot read {text!r}",
                          "e.g. PLATTER COLOSSUS AT D4, KEY KEY1 AT D4SE, "
                          "LABYRINTH ANCIENT AT D4W FROM D4")
    kind = WORDS[words[0].upper()]
    tail = {"labyrinths": "FROM", "platters": "TURN"}.get(kind)
    long = len(words) == 6 and words[4].upper() == tail
    if not (len(words) == 4 or long) or words[2].upper() != "AT":
        raise OrderSyntax(f"write {words[0].upper()} <name> AT <"
                          + ("site> [TURN <0-5>]" if kind == "platters" else "slot>")
                          + (" [FROM <site>]" if kind == "labyrinths" else ""))
    names = left(placement, kind)
    name = next((n for n in names if n.upper() == words[1].upper()), None)
    if name is None:
        raise OrderSyntax(f"{words[1]!r} is not a {kind[:-1].replace('_', ' ')} left to place",
                          "left: " + ", ".join(names))
    if kind == "platters":
        site = pieces.parse_site(words[3])
        if site is None:
            raise OrderSyntax(f"there is no site {words[3]!r}", "sites run A1 to G7")
        item: dict[str, Any] = {"op": kind, "name": name, "at": pieces.site_name(site)}
        if long:
            if words[5] not in {"0", "1", "2", "3", "4", "5"}:
                raise OrderSyntax(f"TURN {words[5]}: a platter turns 0 to 5 sixths clockwise")
            if words[5] != "0":
                item["turn"] = int(words[5])
        return item
    slot = pieces.parse_slot(words[3])
    if slot is None:
        raise OrderSyntax(f"there is no slot {words[3]!r}",
                          "a slot is a site and a side: D4E, D4SE, D4SW, D4W, D4NW or D4NE")
    platters = pieces.platter_sites(placement)
    item = {"op": kind, "name": name, "at": pieces.slot_name(slot, platters)}
    if kind == "labyrinths":
        if long:
            facing = pieces.parse_site(words[5])
            if facing is None:
                raise OrderSyntax(f"there is no site {words[5]!r}", "sites run A1 to G7")
        else:  # the first platter beside the slot
            facing = next((s for s in sorted(pieces.slot_sites(slot), key=_near)
                           if s in platters), pieces.slot_sites(slot)[0])
        item["from"] = pieces.site_name(facing)
    return item


def render(item: dict[str, Any]) -> str:
    word = {v: k for k, v in WORDS.items()}[item["op"]]
    tail = f" FROM {item['from']}" if "from" in item else ""
    tail += f" TURN {item['turn']}" if item.get("turn") else ""
    return f"{word} {item['name']} AT {item['at']}{tail}"


def check(placement: Placement, step: int, items: list[dict[str, Any]]) -> Placement:
    """The whole step's placement, checked; returns the placement after it."""
    kind = STEPS[step][1]
    ops = [i["op"] for i in items]
    want = {"pair": ["platters", "dome_keys"], "key": ["dome_keys"],
            "labyrinth": ["labyrinths"]}[kind]
    if sorted(ops) != sorted(want):
        words = " and ".join({"platters": "PLATTER", "dome_keys": "KEY",
                              "labyrinths": "LABYRINTH"}[w] for w in want)
        raise OrderSyntax(f"this step places {words}, once each", _example(placement, step))
    after = placement
    for op in want:
        item = next(i for i in items if i["op"] == op)
        if op == "platters":
            why = pieces.platter_block(after, pieces.site_at(item["at"]))
            at: Any = item["at"]
        elif op == "dome_keys":
            why = pieces.key_block(after, pieces.slot_at(item["at"]))
            at = item["at"]
        else:
            why = labyrinth_block(after, pieces.slot_at(item["at"]),
                                  pieces.site_at(item["from"]),
                                  sum(1 for _, k in STEPS[step:] if k == "labyrinth"))
            at = [item["at"], item["from"]]
        if why:
            raise OrderSyntax(f"{render(item)}: {why}", _example(placement, step))
        after = _with(after, op, item["name"], at)
        if item.get("turn"):  # how a platter lies changes its terrain, never its sockets
            after["turns"] = {**after.get("turns", {}), item["name"]: item["turn"]}
    if pieces.enclosed(after):
        raise OrderSyntax("that would ring an empty platter site with keys: a hole no key "
                          "can fill", _example(placement, step))
    if not finishable(after, step + 1):
        raise OrderSyntax("that would leave more nooks and crannies than the keys and "
                          "labyrinths left can fill",
                          _example(placement, step))
    return after


def _example(placement: Placement, step: int) -> str:
    lines = suggest(placement, step, None)
    return "e.g. " + " / ".join(lines) if lines else ""


def _line_of(kind: str, name: str, at: Any) -> str:
    if kind == "labyrinths":
        return f"LABYRINTH {name.upper()} AT {at[0]} FROM {at[1]}"
    return f"{'PLATTER' if kind == 'platters' else 'KEY'} {name} AT {at}"


def suggest(placement: Placement, step: int, pick: Any) -> list[str]:
    """A legal step: the first one found nearest the middle, or a random one (`pick`)."""
    kind = STEPS[step][1]
    order = (lambda xs: sorted(xs, key=lambda _: pick(range(1000)))) if pick else list
    if kind == "pair":
        for name, at in order(candidates(placement, "platters", step)):
            trial = _with(placement, "platters", name, at)
            for key, where in order(candidates(trial, "dome_keys", step)):
                after = _with(trial, "dome_keys", key, where)
                if not pieces.enclosed(after) and finishable(after, step + 1):
                    turn = pick(range(6)) if pick else 0  # random play turns platters too
                    return [_line_of("platters", name, at) + (f" TURN {turn}" if turn else ""),
                            _line_of("dome_keys", key, where)]
        return []
    kind_ = "dome_keys" if kind == "key" else "labyrinths"
    for name, at in order(candidates(placement, kind_, step)):
        if finishable(_with(placement, kind_, name, at), step + 1):
            return [_line_of(kind_, name, at)]
    return []


def apply(state: State, orders: Orders, events: Events) -> None:
    """Carry out one step; after the last, the characters are revealed and play begins."""
    build = state["build"]
    team = builder(state)
    before = build["placement"]
    build["placement"] = check(before, build["step"], orders.items)
    for item in orders.items:
        events.append(Event("placed_piece", {"team": team, "kind": item["op"],
                                             "name": item["name"], "site": item["at"],
                                             "from": item.get("from"),
                                             "turn": item.get("turn")}))
    build["step"] += 1
    if build["step"] == LABYRINTH_STEP:
        reveal(state, events)
    state["map"] = pieces.assemble(build["placement"],
                                   None if revision_of(state) >= 3 else
                                   laid_order(before, build["placement"]))
    if build["step"] == len(STEPS):
        finish(state, events)


def laid_order(before: Placement, after: Placement) -> dict[str, list[str]]:
    """How a build laid its pieces out before rules revision 3: the pieces placed before
    this step by name (the service hands each step its state with sorted keys), then
    this step's. Revision 3 lays them by name, so the map depends on the placement alone
    (pieces.assemble)."""
    return {kind: sorted(before[kind]) + sorted(set(after[kind]) - set(before[kind]))
            for kind in pieces.KINDS}


def finish(state: State, events: Events) -> None:
    """The map is complete: labyrinths get their markers and Team White's first turn
    begins (the characters were revealed before the labyrinths were placed)."""
    from . import labyrinth

    state["phase"] = "play"
    del state["build"]
    with hexmap.using(state["map"]):
        labyrinth.place_markers(state)
    events.append(Event("map_built", {"rows": len(state["map"]["rows"])}))


def reveal(state: State, events: Events) -> None:
    for seat in SEATS:
        events.append(Event("revealed", {"team": seat, "chars": chars(state, seat)}))


def describe(state: State) -> dict[str, Any]:
    """What every reader sees of the build: the placement, what is left, whose turn."""
    build = state["build"]
    placement = build["placement"]
    return {"step": build["step"] + 1, "of": len(STEPS), "builder": builder(state),
            "places": what(state), "placement": copy.deepcopy(placement),
            "left": {k: left(placement, k) for k in ("platters", "dome_keys", "labyrinths")},
            "gaps": {k: [pieces.slot_name(s, pieces.platter_sites(placement)) for s in v]
                     for k, v in pieces.gaps(placement).items()},
            "titles": {k: v["title"] for k, v in pieces.pieces()["platters"].items()},
            "ages": list(catalog.AGES)}
