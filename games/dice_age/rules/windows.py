"""Out-of-turn reactions: the moments a suspended die (or a Pair, or a General) may act.

A window opens for one seat at a time: Gear after a roll (every holder, clockwise from
the roller), Smile after the roller's own number, Pair (level 6) for the roller, Double
arrow when an effect takes place, Nut when the seat is the only target, and (level 7) a
General about to be lost. The seat's standing reactions answer first (orders.py); when
none covers the window the seat is asked through a short `react` decision, whose missed
deadline means "no reaction". Square is not a window: its holder plays it when he
wants, by an order (`SQUARE P2 TANK`), or by a standing order that fires when the named
seat's turn begins.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from ..dice import die_type, read
from ..levels import rules
from ..order_text import render
from ..state import State, barred, held, holders, legendary_clash, owned
from . import flow
from .effects import chaos_faces, nut_window, roll_number
from .flow import Step, push

KINDS = ("gear", "smile", "pair", "double", "nut", "instead")
"""Reaction windows; PASS <kind> names one in standing orders."""


def legal(state: State, step: Step) -> list[str]:
    """The reactions open to the seat now (without PASS); empty = the window stays shut."""
    kind, seat = step["kind"], step["seat"]
    roll = state["roll"] or {}
    if kind == "gear":
        if not held(state, seat, "gear") or not roll or roll.get("geared"):
            return []
        if roll.get("chaos"):
            dice = [d for d in (state.get("chaos") or {}).get("dice", [])
                    if state["dice"][d]["place"] == "field"]
            return [f"GEAR {d}" for d in dice]
        return ["GEAR"] if roll.get("die") else []
    if kind == "smile":
        dice = held(state, seat, "smile")
        if not dice or roll_number(state) is None or roll.get("seat") != seat:
            return []
        values = sorted(set(state["dice"][dice[0]]["susp"]["d6"]))
        return [f"SMILE {sign} {v}" for v in values for sign in "+-"]
    if kind == "pair":
        if state["paired"][seat] or roll.get("seat") != seat:
            return []
        if step.get("kept") and not roll.get("geared"):
            return []  # revision 4: offered with the triangle throw, face unchanged since
        if step.get("dice") is not None:  # revision 4: any die of a triangle throw
            rolled = [d for d in step["dice"] if state["dice"][d]["place"] == "field"]
        elif roll.get("chaos") and state.get("chaos"):  # revision 3: any die of the chaos
            rolled = [d for d in state["chaos"]["dice"] if state["dice"][d]["place"] == "field"]
        else:
            rolled = [roll["die"]] if roll.get("die") else []
        shown = {_reading(state["dice"][d]["face"]) for d in rolled} - {None}
        return [f"PAIR {d}" for d in owned(state, seat, "wasteland")
                if _reading(state["dice"][d]["face"]) in shown
                and not legendary_clash(state, seat, d)]
    if kind == "double":
        return ["DOUBLE"] if held(state, seat, "double-arrow") and not state["doubling"] \
            else []
    if kind == "nut":
        return ["NUT"] if held(state, seat, "nut") and _next_hit(state) is not None else []
    if kind == "instead":
        hit = _next_hit(state)
        if hit is None:
            return []
        general = step["die"]
        if hit["effect"] == "pit":
            spare = [d for d in owned(state, seat, "field") if d != general]
        else:
            spare = [d for d in owned(state, seat, "field")
                     if state["dice"][d].get("susp") and d not in hit["extra"]]
        return [f"INSTEAD {d}" for d in spare]
    raise ValueError(kind)  # pragma: no cover


def _reading(face: Any) -> Any:
    if face is None or "|" in str(face):
        return None
    kind, value = read(face)
    return value


def _next_hit(state: State) -> Step | None:
    return next((s for s in state["queue"] if s["do"] == "hit"), None)


def _window(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    lines = legal(state, step)
    if not lines:
        return
    state["pending"] = {"kind": "react", "seat": step["seat"], "window": step["kind"],
                        "legal": lines + ["PASS"],
                        **{k: step[k] for k in WINDOW_KEYS if k in step}}


WINDOW_KEYS = ("icon", "effect", "by", "die", "dice", "kept")
"""What a window's step says about its moment, kept in its pending decision ("dice" and
"kept" only in revision 4's Pair windows after a triangle)."""


def reopen(state: State, pending: dict[str, Any]) -> dict[str, Any] | None:
    """A window set aside while a Square played out, as it stands now (revision 4): the
    Square's own windows may have used what it offered (a Double arrow, a Nut); None
    when nothing is left to offer, and the window closes."""
    step = {"kind": pending["window"], "seat": pending["seat"],
            **{k: pending[k] for k in WINDOW_KEYS if k in pending}}
    lines = legal(state, step)
    return {**pending, "legal": lines + ["PASS"]} if lines else None


def react(state: State, seat: str, order: dict[str, Any], events: list[Event], *,
          how: str) -> None:
    """Carry out a reaction (or PASS); `how` says whether the seat, a standing order or
    the deadline chose it, for the report."""
    pending = state["pending"]
    window = pending["window"]
    state["pending"] = None
    op = order["op"]
    if op == "pass" or (op in USES and not held(state, seat, USES[op])):
        # (a reaction whose die is already spent: only a window resumed stale by
        # revisions 1-3 could ask it, and answering it crashed there)
        events.append(Event("no-reaction", {"seat": seat, "window": window, "how": how}))
        return
    base = {"seat": seat, "window": window, "how": how}
    if op == "gear":
        gear = held(state, seat, "gear")[0]
        target = order.get("die") or state["roll"]["die"]
        if target is None:  # a chaos: the die showing its lowest number, else the first
            target = chaos_faces(state)[1] or pending["legal"][0].split()[1]
        info = state["dice"][target]
        if gear == target:  # a Gear just rolled, used on its own roll (spec 11)
            info["susp"]["uses"] -= 1
            if info["susp"]["uses"] <= 0:
                info["susp"] = None
        else:
            flow.use_up(state, gear, events)
        if info.get("susp") and info["susp"].get("effect") == info["face"]:
            info["susp"] = None  # the voided icon never took effect
        before = info["face"]
        pos = flow.spec(target).flip[info["pos"] - 1]
        info.update(pos=pos, face=flow.spec(target).faces[pos - 1])
        state["roll"]["geared"] = True
        events.append(Event("gear", {**base, "gear": gear, "die": target, "was": before,
                                     "face": info["face"]}))
        push(state, *flow.read_steps(state, state["roll"]["seat"], [target]))
    elif op == "smile":
        smile = held(state, seat, "smile")[0]
        susp = state["dice"][smile]["susp"]
        value = order["value"] if order.get("value") in susp["d6"] else susp["d6"][0]
        susp["d6"].remove(value)
        delta = value if order["sign"] == "+" else -value
        state["roll"]["adjust"] += delta
        events.append(Event("smile", {**base, "d6": value, "sign": order["sign"],
                                      "number": roll_number(state)}))
        flow.use_up(state, smile, events)
        push(state, {"do": "window", "kind": "smile", "seat": seat})
    elif op == "pair":
        die = order.get("die") or pending["legal"][0].split()[1]
        state["dice"][die]["place"] = "field"
        state["paired"][seat] = True
        events.append(Event("pair", {**base, "die": die}))
    elif op == "double":
        arrow = held(state, seat, "double-arrow")[0]
        state["doubling"] = 1
        flow.use_up(state, arrow, events)
        events.append(Event("double", {**base, "icon": pending.get("icon")}))
    elif op == "nut":
        nut = held(state, seat, "nut")[0]
        hit = _next_hit(state)
        state["queue"].remove(hit)
        flow.use_up(state, nut, events)
        events.append(Event("protected", {**base, "effect": hit["effect"],
                                          "by": pending.get("by")}))
    elif op == "instead":
        hit = _next_hit(state)
        spare = order["die"]
        if hit["effect"] == "pit":
            hit["die"] = spare
        else:
            hit["spared"].append(pending["die"])
            hit["extra"].append(spare)
        events.append(Event("general-swap", {**base, "general": pending["die"], "die": spare}))


USES = {"gear": "gear", "smile": "smile", "double": "double-arrow", "nut": "nut"}
"""The suspended effect each reaction spends."""


def square_problem(state: State, seat: str, order: dict[str, Any]) -> str | None:
    """A Square may be played by its holder at any decision (or by a standing order)."""
    if not rules(state).effects or not held(state, seat, "square"):
        return "you hold no suspended Square"
    target, die = order["seat"], order["die"]
    if target in state["out"]:
        return f"{target} is out"
    if state["dice"][die]["owner"] != target or \
            state["dice"][die]["place"] not in ("garden", "field"):
        return f"{die} is not one of {target}'s dice in play"
    if die in barred(state, target):
        return f"{target} just played {die}: a Square may not name it"
    return None


def standing_squares(state: State, seat: str, events: list[Event]) -> bool:
    """Before `seat` rolls, holders' standing `SQUARE <seat> <die>` orders fire."""
    fired = False
    for holder in flow.clockwise_from(state, seat):
        for item in state["standing"][holder]:
            order = item.get("order")
            if not order or order["op"] != "square" or order["seat"] != seat:
                continue
            if square_problem(state, holder, order) is None:
                events.append(Event("settled", {"seat": holder,
                                                "order": render(order)},
                                    (holder,)))
                play_square(state, holder, order, events)
                fired = True
                break
    return fired


def play_square(state: State, holder: str, order: dict[str, Any], events: list[Event]) -> None:
    """Square: the holder names the next die a seat must roll (the Nut may answer).

    From revision 4 playing it is an effect taking place, which the Double-arrow holders
    may double first (clockwise from the holder): doubled, the Square keeps a second use
    on the Ledges, for a second naming of the holder's choice (revisions 1-3 opened no
    window: only a Square doubled when rolled had two uses)."""
    if revision_of(state) >= 4:
        state["doubling"] = 0
        events.append(Event("square-play", {"seat": holder}))
        doubles = [{"do": "window", "kind": "double", "seat": s, "icon": "square"}
                   for s in holders(state, "double-arrow", flow.clockwise_from(state, holder))]
        push(state, *doubles, {"do": "square", "seat": holder, "order": dict(order)})
        return
    _name_square(state, holder, order, events)


def _square(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    """Revision 4: the Square played, after its Double-arrow window."""
    holder = step["seat"]
    doubled = state["doubling"]
    state["doubling"] = 0
    if not held(state, holder, "square"):  # pragma: no cover - nothing moves it meanwhile
        events.append(Event("maxed", {"seat": holder, "what": "square"}))
        return
    if doubled:
        events.append(Event("doubled", {"seat": holder, "icon": "square"}))
        state["dice"][held(state, holder, "square")[0]]["susp"]["uses"] += 1
    _name_square(state, holder, step["order"], events)


def _name_square(state: State, holder: str, order: dict[str, Any],
                 events: list[Event]) -> None:
    die = held(state, holder, "square")[0]
    flow.use_up(state, die, events)
    target = order["seat"]
    events.append(Event("target", {"seat": holder, "effect": "square", "target": target,
                                   "die": order["die"]}))
    push(state, *nut_window(state, holder, target, "square"),
         {"do": "hit", "effect": "square", "seat": holder, "target": target,
          "die": order["die"]})


def die_kind(die: str) -> str:
    return die_type(die)


STEPS = {"window": _window, "square": _square}
