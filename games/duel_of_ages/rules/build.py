"""Building the map by orders (option map=build), before the first turn.

Black places a platter with a dome key hooked to it, White answers, and so on until the
four platters and four dome keys are down; then Black and White place the last two dome
keys; then Black, White, Black, White place the four labyrinths in nooks, crannies or
notches, each entrance joining the map. Every placement is checked so that the build can
still be finished legally (no more nooks and crannies than labyrinths left to fill them),
so a build always yields a legal map."""

from __future__ import annotations

import copy
from typing import Any

from games.core.orders import OrderSyntax
from games.core.types import Event, OrderError, Orders, OrdersInvalid

from .. import catalog, hexmap, pieces
from ..pieces import Placement, Site
from ..state import SEATS, State
from .combat import Events

STEPS = (("Black", "pair"), ("White", "pair"), ("Black", "pair"), ("White", "pair"),
         ("Black", "key"), ("White", "key"),
         ("Black", "labyrinth"), ("White", "labyrinth"), ("Black", "labyrinth"),
         ("White", "labyrinth"))
"""Who places what at each step of the build."""


def start(state: State) -> None:
    state["phase"] = "build"
    state["build"] = {"step": 0, "placement": {"platters": {}, "dome_keys": {},
                                               "labyrinths": {}}}
    state["map"] = pieces.assemble(state["build"]["placement"])


def builder(state: State) -> str:
    return STEPS[state["build"]["step"]][0]


def what(state: State) -> str:
    return STEPS[state["build"]["step"]][1]


def left(placement: Placement, kind: str) -> list[str]:
    data = pieces.pieces()
    names = {"platters": list(data["platters"]), "dome_keys": list(data["dome_keys"]),
             "labyrinths": list(data["labyrinth_keys"])}[kind]
    return [n for n in names if n not in placement[kind]]


def _beside_platter(placement: Placement, at: Site) -> bool:
    taken = pieces.occupied(placement)
    return any(taken.get(n, ("", ""))[0] == "platters" for n in pieces.sides(at))


def key_block(placement: Placement, at: Site) -> str | None:
    why = pieces.fits(placement, "dome_keys", at)
    if why is None and not _beside_platter(placement, at):
        why = "a dome key hooks onto a platter"
    return why


def labyrinth_block(placement: Placement, at: Site, labs_left: int) -> str | None:
    """A labyrinth goes in a nook, cranny or notch; when the nooks and crannies are as
    many as the labyrinths left, in one of them; its entrance must join the map."""
    gaps = pieces.gaps(placement)
    holes = gaps["nook"] + gaps["cranny"]
    if at not in holes + gaps["notch"]:
        return "a labyrinth goes in a nook, cranny or notch beside a platter"
    if len(holes) >= labs_left and at not in holes:
        return "the nooks and crannies must be filled first"
    side = pieces.entrance_side(placement, at)
    if side is None:
        return "its entrance would not join the map"
    return None


def _with(placement: Placement, kind: str, name: str, at: Site) -> Placement:
    out = copy.deepcopy(placement)
    out[kind][name] = [at[0], at[1]]
    return out


def _sites_near(placement: Placement) -> list[Site]:
    """Sites in order of distance from the middle of the table (a tidy map first)."""
    middle = (pieces.FRAME - 1) / 2
    return sorted(((c, r) for c in range(pieces.FRAME) for r in range(pieces.FRAME)),
                  key=lambda s: (abs(s[0] - middle) + abs(s[1] - middle), s))


def candidates(placement: Placement, kind: str, step: int) -> list[tuple[str, Site]]:
    """Every legal single placement of the next piece of `kind` (first name left)."""
    out = []
    for name in left(placement, kind)[:1]:
        for at in _sites_near(placement):
            if kind == "platters":
                why = pieces.fits(placement, kind, at)
            elif kind == "dome_keys":
                why = key_block(placement, at)
            else:
                labs_left = len(STEPS) - step
                why = labyrinth_block(placement, at, labs_left)
            if why is None:
                out.append((name, at))
    return out


def finishable(placement: Placement, step: int) -> bool:
    """Can the build still end legally from here? A greedy completion is tried (nearest
    sites first, no more nooks and crannies than labyrinths left at any point); an
    order is accepted only if one exists, so every accepted build can be finished."""
    while step < len(STEPS):
        kind = STEPS[step][1]
        labs = sum(1 for _, k in STEPS[step:] if k == "labyrinth")
        nxt = None
        if kind == "pair":
            for name, at in candidates(placement, "platters", step):
                trial = _with(placement, "platters", name, at)
                for key, where in candidates(trial, "dome_keys", step):
                    after = _with(trial, "dome_keys", key, where)
                    if pieces.holes(after) <= labs:
                        nxt = after
                        break
                if nxt:
                    break
        else:
            kind_ = "dome_keys" if kind == "key" else "labyrinths"
            for name, at in candidates(placement, kind_, step):
                after = _with(placement, kind_, name, at)
                if pieces.holes(after) <= labs - (kind == "labyrinth"):
                    nxt = after
                    break
        if nxt is None:
            return False
        placement, step = nxt, step + 1
    return pieces.holes(placement) == 0


# -- orders --------------------------------------------------------------------------------
def parse(state: State, seat: str, text: str, *, default: bool = False) -> Orders:
    """PLATTER <name> AT <site>, KEY <name> AT <site>, LABYRINTH <age> AT <site>."""
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
                          "e.g. PLATTER COLOSSUS AT C3, KEY KEY1 AT B3, LABYRINTH ANCIENT AT D1")
    kind = WORDS[words[0].upper()]
    if len(words) != 4 or words[2].upper() != "AT":
        raise OrderSyntax(f"write {words[0].upper()} <name> AT <site>")
    names = left(placement, kind)
    name = next((n for n in names if n.upper() == words[1].upper()), None)
    if name is None:
        raise OrderSyntax(f"{words[1]!r} is not a {kind[:-1].replace('_', ' ')} left to place",
                          "left: " + ", ".join(names))
    site = pieces.parse_site(words[3])
    if site is None:
        raise OrderSyntax(f"there is no site {words[3]!r}", "sites run A1 to F6")
    return {"op": kind, "name": name, "at": list(site)}


def render(item: dict[str, Any]) -> str:
    word = {v: k for k, v in WORDS.items()}[item["op"]]
    return f"{word} {item['name']} AT {pieces.site_name(tuple(item['at']))}"


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
        at = (item["at"][0], item["at"][1])
        if op == "platters":
            why = pieces.fits(after, op, at)
        elif op == "dome_keys":
            why = key_block(after, at)
        else:
            why = labyrinth_block(after, at, sum(1 for _, k in STEPS[step:] if k == "labyrinth"))
        if why:
            raise OrderSyntax(f"{render(item)}: {why}", _example(placement, step))
        after = _with(after, op, item["name"], at)
    if not finishable(after, step + 1):
        raise OrderSyntax("that would leave more nooks and crannies than labyrinths can fill",
                          _example(placement, step))
    return after


def _example(placement: Placement, step: int) -> str:
    lines = suggest(placement, step, None)
    return "e.g. " + " / ".join(lines) if lines else ""


def suggest(placement: Placement, step: int, pick: Any) -> list[str]:
    """A legal step: the first one found nearest the middle, or a random one (`pick`)."""
    kind = STEPS[step][1]
    order = (lambda xs: sorted(xs, key=lambda _: pick(range(1000)))) if pick else list
    if kind == "pair":
        for name, at in order(candidates(placement, "platters", step)):
            trial = _with(placement, "platters", name, at)
            for key, where in order(candidates(trial, "dome_keys", step)):
                if finishable(_with(trial, "dome_keys", key, where), step + 1):
                    return [f"PLATTER {name} AT {pieces.site_name(at)}",
                            f"KEY {key} AT {pieces.site_name(where)}"]
        return []
    kind_ = "dome_keys" if kind == "key" else "labyrinths"
    word = "KEY" if kind == "key" else "LABYRINTH"
    for name, at in order(candidates(placement, kind_, step)):
        if finishable(_with(placement, kind_, name, at), step + 1):
            return [f"{word} {name.upper()} AT {pieces.site_name(at)}"]
    return []


def apply(state: State, orders: Orders, events: Events) -> None:
    """Carry out one step; after the last, the characters are revealed and play begins."""
    build = state["build"]
    team = builder(state)
    build["placement"] = check(build["placement"], build["step"], orders.items)
    for item in orders.items:
        events.append(Event("placed_piece", {"team": team, "kind": item["op"],
                                             "name": item["name"],
                                             "site": pieces.site_name(tuple(item["at"]))}))
    build["step"] += 1
    state["map"] = pieces.assemble(build["placement"])
    if build["step"] == len(STEPS):
        finish(state, events)


def finish(state: State, events: Events) -> None:
    """The map is complete: labyrinths get their decks and markers, characters are
    revealed, and Team White's first turn begins."""
    from . import labyrinth

    state["phase"] = "play"
    del state["build"]
    with hexmap.using(state["map"]):
        labyrinth.place_markers(state)
    events.append(Event("map_built", {"rows": len(state["map"]["rows"])}))
    reveal(state, events)


def reveal(state: State, events: Events) -> None:
    for seat in SEATS:
        events.append(Event("revealed", {"team": seat, "chars": [
            k for k, c in state["chars"].items() if c["team"] == seat]}))


def describe(state: State) -> dict[str, Any]:
    """What every reader sees of the build: the placement, what is left, whose turn."""
    build = state["build"]
    placement = build["placement"]
    return {"step": build["step"] + 1, "of": len(STEPS), "builder": builder(state),
            "places": what(state), "placement": copy.deepcopy(placement),
            "left": {k: left(placement, k) for k in ("platters", "dome_keys", "labyrinths")},
            "gaps": {k: [pieces.site_name(s) for s in v]
                     for k, v in pieces.gaps(placement).items()},
            "titles": {k: v["title"] for k, v in pieces.pieces()["platters"].items()},
            "ages": list(catalog.AGES)}
