"""The thirteen icon effects of level 5 (and their doubled forms, level 6).

Each effect is a step in the turn's queue (see flow.py). An effect that needs a choice
asks the roller through a `target` decision; once a player is the only target, his
Nut window opens before the effect hits (windows.py). Doubling (a Double arrow) makes
the effect apply twice, each time with its own target. An effect with nothing to act on
is "maxed out" and reported as such.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from ..dice import COLOURS, ROMAN, die_type, read, spec
from ..levels import rules
from ..state import State, active, clockwise_from, dice_order, holders, owned, valley
from . import flow
from .flow import Step, push

DEFAULT_TARGET = "pit"


def roll_number(state: State) -> int | None:
    """The number the roll being reacted to shows now (chaos: its lowest number)."""
    roll = state["roll"]
    if roll is None:
        return None
    if roll.get("chaos") and state.get("chaos"):
        low = chaos_faces(state)[0]
        return None if low is None else low + roll["adjust"]
    return flow.roll_value(state)


def _effect(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat, die, icon = step["seat"], step["die"], step["icon"]
    times = 1 + state["doubling"]
    state["doubling"] = 0
    if times > 1:
        events.append(Event("doubled", {"seat": seat, "icon": icon}))
    if step.get("suspended"):
        if times > 1 and die in state["dice"] and state["dice"][die].get("susp"):
            susp = state["dice"][die]["susp"]
            if icon == "smile":
                susp["d6"].append(rng.die("smile/d6", 6))
                susp["uses"] = len(susp["d6"])
                events.append(Event("smile-d6", {"seat": seat, "d6": list(susp["d6"])}))
            else:
                susp["uses"] += 1
        return
    if icon in ("pit", "blank", "cannon", "radiation"):
        push(state, *[{"do": "choose", "effect": icon, "seat": seat, "die": die}] * times)
    elif icon == "cross":
        for _ in range(times):
            cross_steps(state, seat)
    elif icon == "chaos":
        if state["chaos"] is not None:  # a chaos within a chaos (e.g. by a triangle)
            events.append(Event("fizzle", {"seat": seat}))
            return
        push(state, {"do": "chaos-start", "seat": seat, "die": die, "times": times})
    elif icon == "triangle":
        push(state, {"do": "tri-start", "seat": seat, "die": die, "adds": times})
    else:  # pragma: no cover - every icon is listed above or suspends
        raise ValueError(f"no effect for {icon}")


# -- choosing a target ----------------------------------------------------------------
def legal(state: State, seat: str, effect: str, step: Step) -> list[str]:
    if effect == "pit":
        return [f"PIT {d}" for s in active(state) for d in owned(state, s, "field")]
    if effect == "blank":
        return [f"SKIP {s}" for s in active(state)]
    if effect == "cannon":
        return [f"CANNON {s}" for s in active(state)
                if s != seat and owned(state, s, "garden", "field")]
    if effect == "radiation":
        return [f"RADIATION {c.upper()}" for c in COLOURS
                if any(spec(d).colour == c for s in active(state)
                       for d in owned(state, s, "wasteland"))]
    if effect == "capture":
        same = [d for s in active(state) if s != seat for d in owned(state, s, "field")
                if _reads(state["dice"][d]["face"]) == step["number"]]
        return [f"CAPTURE {d}" for d in same] + (["PASS"] if same else [])
    if effect == "attack":
        return [f"ATTACK {d}" for d in owned(state, seat, "garden", "field")]
    if effect == "copy":
        left = [f"PICK {d}" for d in step["copies"]
                if state["dice"][d]["place"] == "wasteland"]
        return left if len(left) > 1 else []
    raise ValueError(effect)  # pragma: no cover


def _reads(face: Any) -> Any:
    if face is None:
        return None
    kind, value = read(face) if "|" not in str(face) else ("edge", face)
    return value


def _capture(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    """A Roman numeral's capture (revision 3): with a die to capture, the Double-arrow
    holders may double it first (two captures, each with its own target and Nut)."""
    seat = step["seat"]
    choose = {**step, "do": "choose"}
    if not legal(state, seat, "capture", choose):
        return
    state["doubling"] = 0
    doubles = [{"do": "window", "kind": "double", "seat": s, "icon": "roman"}
               for s in holders(state, "double-arrow", clockwise_from(state, seat))]
    push(state, *doubles, {**step, "do": "captures"})


def _captures(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    times = 1 + state["doubling"]
    state["doubling"] = 0
    if times > 1:
        events.append(Event("doubled", {"seat": step["seat"], "icon": "roman"}))
    push(state, *[{**step, "do": "choose"}] * times)


def _choose(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat, effect = step["seat"], step["effect"]
    lines = legal(state, seat, effect, step)
    if not lines:
        if effect not in ("capture", "copy"):
            events.append(Event("maxed", {"seat": seat, "what": effect}))
        return
    state["pending"] = {"kind": "target", "seat": seat, "effect": effect, "legal": lines,
                        **{k: step[k] for k in ("number", "type") if k in step}}


def choose_target(state: State, seat: str, order: dict[str, Any], rng: RngBase,
                  events: list[Event]) -> None:
    """The roller named the target of the pending effect."""
    state["pending"] = None
    op = order["op"]
    if op == "pit":
        die = order["die"]
        target = state["dice"][die]["owner"]
        events.append(Event("target", {"seat": seat, "effect": "pit", "die": die,
                                       "target": target}))
        hit = {"do": "hit", "effect": "pit", "seat": seat, "die": die, "target": target}
        push(state, *nut_window(state, seat, target, "pit"),
             *general_window(state, target, die, "pit"), hit)
    elif op == "skip":
        target = order["seat"]
        events.append(Event("target", {"seat": seat, "effect": "blank", "target": target}))
        push(state, *nut_window(state, seat, target, "blank"),
             {"do": "hit", "effect": "blank", "seat": seat, "target": target})
    elif op == "cannon":
        target = order["seat"]
        events.append(Event("target", {"seat": seat, "effect": "cannon", "target": target}))
        push(state, *nut_window(state, seat, target, "cannon"),
             {"do": "hit", "effect": "cannon", "seat": seat, "target": target})
    elif op == "radiation":
        push(state, {"do": "hit", "effect": "radiation", "seat": seat,
                     "colour": order["colour"]})
    elif op == "capture":
        die = order["die"]
        target = state["dice"][die]["owner"]
        events.append(Event("target", {"seat": seat, "effect": "capture", "die": die,
                                       "target": target}))
        push(state, *nut_window(state, seat, target, "capture"),
             {"do": "hit", "effect": "capture", "seat": seat, "die": die, "target": target})
    elif op == "pass":
        events.append(Event("no-capture", {"seat": seat}))
    elif op == "pick":  # which copy a radiation brings back (level 7, revision 3)
        die = order["dice"][0]
        hit = next(s for s in state["queue"] if s["do"] == "hit"
                   and s["effect"] == "radiation")
        hit["chosen"][die_type(die)] = die
        events.append(Event("copy-chosen", {"seat": seat, "die": die,
                                            "owner": state["dice"][die]["owner"]}))
    elif op == "attack":
        duel(state, seat, order["die"], rng, events)


def nut_window(state: State, seat: str, target: str, effect: str) -> list[Step]:
    """A player who is the only target of an effect may answer with his Nut."""
    if target == seat or not holders(state, "nut", [target]):
        return []
    return [{"do": "window", "kind": "nut", "seat": target, "effect": effect, "by": seat}]


def general_window(state: State, owner: str | None, die: str, effect: str) -> list[Step]:
    """Level 7: a General on its way to the wasteland may send another field die instead."""
    if owner is None or not rules(state).general or state["general"].get(owner) != die:
        return []
    return [{"do": "window", "kind": "instead", "seat": owner, "die": die, "effect": effect}]


def cross_steps(state: State, seat: str) -> None:
    steps: list[Step] = []
    if rules(state).general:
        for s in clockwise_from(state, seat):
            general = state["general"].get(s)
            if general in valley(state, s):
                steps += general_window(state, s, general, "cross")
    push(state, {"do": "announce-cross", "seat": seat}, *steps,
         {"do": "hit", "effect": "cross", "seat": seat, "spared": [], "extra": []})


def _announce_cross(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    pass


# -- the effect lands -----------------------------------------------------------------
def _hit(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    effect, seat = step["effect"], step["seat"]
    if effect == "pit":
        die = step["die"]
        info = state["dice"].get(die)
        if info is None or info["place"] != "field":
            events.append(Event("maxed", {"seat": seat, "what": "pit"}))
            return
        owner = info["owner"]
        flow.to_wasteland(state, die, events)
        events.append(Event("pit", {"seat": seat, "die": die, "target": owner}))
    elif effect == "blank":
        state["skips"][step["target"]] += 1
        events.append(Event("blank", {"seat": seat, "target": step["target"]}))
    elif effect == "cannon":
        target = step["target"]
        options = [f"DEFEND {d}" for d in owned(state, target, "garden", "field")]
        if target not in active(state) or not options:
            events.append(Event("maxed", {"seat": seat, "what": "cannon"}))
            return
        state["duel"] = {"attacker": seat, "target": target, "defend": None}
        state["pending"] = {"kind": "defend", "seat": target, "by": seat, "legal": options}
    elif effect == "radiation":
        chosen = step.get("chosen")
        if chosen is None and revision_of(state) >= 3:
            contested = _contested(state, seat, step["colour"])
            if contested:  # the roller chooses which copy comes back, then it lands
                push(state, *[{"do": "choose", "effect": "copy", "seat": seat, "type": t,
                               "copies": c} for t, c in contested.items()],
                     {**step, "chosen": {}})
                return
        _radiation(state, seat, step["colour"], events, chosen or {})
    elif effect == "capture":
        die = step["die"]
        info = state["dice"][die]
        if info["place"] != "field" or info["owner"] not in active(state):
            events.append(Event("maxed", {"seat": seat, "what": "capture"}))
            return
        info.update(owner=seat, susp=None)
        events.append(Event("capture", {"seat": seat, "die": die, "target": step["target"]}))
    elif effect == "cross":
        gone = {}
        for s in active(state):
            dice = [d for d in valley(state, s) if d not in step["spared"]]
            dice += [d for d in step["extra"] if state["dice"][d]["owner"] == s]
            for d in dice:
                flow.to_wasteland(state, d, events)
            if dice:
                gone[s] = dice
        if not gone:
            events.append(Event("maxed", {"seat": seat, "what": "cross"}))
            return
        events.append(Event("cross", {"seat": seat, "gone": gone}))
    elif effect == "square":
        target, die = step["target"], step["die"]
        state["forced"][target].append(die)
        events.append(Event("square", {"seat": seat, "target": target, "die": die}))


def _contested(state: State, seat: str, colour: str) -> dict[str, list[str]]:
    """The dice types of the colour that only other players' copies (two or more, none
    of them the roller's and none already in the field) could bring back: the roller
    chooses which (revision 3; revision 2 took the first clockwise)."""
    def radiated(s: str) -> list[str]:
        return [d for d in owned(state, s, "wasteland") if spec(d).colour == colour]
    mine = {die_type(d) for d in radiated(seat)}
    in_field = {die_type(d) for d in dice_order(state) if state["dice"][d]["place"] == "field"}
    copies: dict[str, list[str]] = {}
    for s in clockwise_from(state, seat)[1:]:
        for d in radiated(s):
            if die_type(d) not in mine | in_field:
                copies.setdefault(die_type(d), []).append(d)
    return {t: c for t, c in copies.items() if len(c) > 1}


def _radiation(state: State, seat: str, colour: str, events: list[Event],
               chosen: dict[str, str]) -> None:
    """Every player's wasteland dice of the colour come back to the field; only one copy
    of a die may be in the field (the roller's own dice first, then the copy he chose,
    else the first clockwise)."""
    back: dict[str, list[str]] = {}
    kept: list[str] = []
    for s in clockwise_from(state, seat):
        for d in owned(state, s, "wasteland"):
            if spec(d).colour != colour:
                continue
            if chosen.get(die_type(d), d) != d or any(die_type(o) == die_type(d) and state["dice"][o]["place"] == "field"
                   for o in dice_order(state)):
                kept.append(d)
                continue
            state["dice"][d]["place"] = "field"
            back.setdefault(s, []).append(d)
    events.append(Event("radiation", {"seat": seat, "colour": colour, "back": back,
                                      "kept": kept}))


def defend(state: State, seat: str, die: str, events: list[Event]) -> None:
    state["duel"]["defend"] = die
    attacker = state["duel"]["attacker"]
    events.append(Event("defend", {"seat": seat, "die": die}))
    state["pending"] = None
    lines = legal(state, attacker, "attack", {})
    if not lines:
        state["duel"] = None
        events.append(Event("maxed", {"seat": attacker, "what": "cannon"}))
        return
    state["pending"] = {"kind": "target", "seat": attacker, "effect": "attack", "legal": lines}


DUEL_LIMIT = 100
"""Ties are rolled again; a duel still tied after this many throws ends with no loser."""


def duel(state: State, seat: str, die: str, rng: RngBase, events: list[Event]) -> None:
    """Both dice roll until one shows less: that die goes to Limbo; icons count 0."""
    other = state["duel"]["defend"]
    state["duel"] = None
    for n in range(1, DUEL_LIMIT + 1):
        a = flow.throw(state, die, rng, f"duel/{n}", events, to_field=False)
        b = flow.throw(state, other, rng, f"duel/{n}", events, to_field=False)
        va, vb = _duel_value(a), _duel_value(b)
        events.append(Event("duel-roll", {"dice": [die, other], "faces": [a, b],
                                          "values": [va, vb]}))
        if va != vb:
            loser = die if va < vb else other
            owner = state["dice"][loser]["owner"]
            flow.to_limbo(state, loser, events, "it lost a duel")
            events.append(Event("duel", {"seat": seat, "loser": loser, "owner": owner}))
            return
    events.append(Event("maxed", {"seat": seat, "what": "cannon"}))  # pragma: no cover


def _duel_value(face: Any) -> int:
    """A number counts as itself, an icon as zero; a die on an edge reads its higher side."""
    best = 0
    for side in str(face).split("|") if isinstance(face, str) else [face]:
        side_v = int(side) if isinstance(side, int) or str(side).lstrip("-").isdigit() \
            else side
        kind, value = read(side_v)
        if kind == "number":
            best = max(best, int(value))
    return best


# -- chaos ----------------------------------------------------------------------------
def _chaos_start(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    state["chaos"] = {"seat": seat, "die": step["die"], "dice": valley(state, seat),
                      "times": step["times"], "pass": 0, "low": None, "icons": []}
    state["roll"] = {"seat": seat, "die": None, "chaos": True, "adjust": 0, "geared": False}
    push(state, {"do": "chaos-throw", "seat": seat})


def _chaos_throw(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    chaos = state["chaos"]
    chaos["pass"] += 1
    dice = [d for d in chaos["dice"] if state["dice"][d]["place"] == "field"
            and state["dice"][d]["owner"] == seat]
    chaos["dice"] = dice
    faces = [flow.throw(state, d, rng, "chaos", events) for d in dice]
    events.append(Event("chaos-roll", {"seat": seat, "dice": dice, "faces": faces,
                                       "pass": chaos["pass"]}))
    steps = flow.read_steps(state, seat, dice)
    if chaos["pass"] < chaos["times"]:
        steps += [{"do": "chaos-note"}, {"do": "chaos-throw", "seat": seat}]
    else:
        steps += [{"do": "window", "kind": "gear", "seat": s}
                  for s in holders(state, "gear", clockwise_from(state, seat))]
        steps.append({"do": "window", "kind": "smile", "seat": seat})
        if rules(state).pair and revision_of(state) >= 3:  # its dice are main rolls too
            steps.append({"do": "window", "kind": "pair", "seat": seat})
        steps.append({"do": "chaos-collect", "seat": seat})
    push(state, *steps)


def chaos_faces(state: State) -> tuple[int | None, str | None, list[str]]:
    """(lowest number, the die showing it, icons in order) over the chaos dice now."""
    chaos = state["chaos"]
    low, low_die, icons = None, None, []
    for d in chaos["dice"]:
        face = state["dice"][d]["face"]
        if state["dice"][d]["place"] != "field" or face is None or "|" in str(face):
            continue
        kind, value = read(face)
        if kind == "number" and (low is None or int(value) < low):
            low, low_die = int(value), d
        elif kind == "icon" and value not in icons:
            icons.append(str(value))
    return low, low_die, icons


def _chaos_note(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    chaos = state["chaos"]
    low, low_die, icons = chaos_faces(state)
    if low is not None and (chaos["low"] is None or low < chaos["low"][0]):
        chaos["low"] = [low, low_die]
    chaos["icons"] += [i for i in icons if i not in chaos["icons"]]


def _chaos_collect(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    chaos = state["chaos"]
    low, low_die, icons = chaos_faces(state)
    if low is not None and (chaos["low"] is None or low <= chaos["low"][0]):
        chaos["low"] = [low, low_die]
    icons = chaos["icons"] + [i for i in icons if i not in chaos["icons"]]
    if "chaos" in icons:
        events.append(Event("fizzle", {"seat": seat}))
    if revision_of(state) >= 4:  # every effect rolled, for a triangle within the chaos
        chaos["icons"] = list(icons)
    chaos["todo"] = [i for i in icons if i != "chaos"]
    events.append(Event("chaos-result", {"seat": seat, "low": chaos["low"],
                                         "icons": list(chaos["todo"])}))
    push(state, {"do": "chaos-next", "seat": seat})


def _chaos_next(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    chaos = state["chaos"]
    if not chaos["todo"]:
        low = chaos["low"]
        adjust = (state["roll"] or {}).get("adjust", 0)
        state["chaos"] = None
        if low is not None:
            flow.bar(state, seat, low[1])  # its result counts: a main roll (revision 4)
            state["roll"] = {"seat": seat, "die": low[1], "adjust": adjust, "geared": True}
            flow.settle_number(state, seat, low[1], low[0] + adjust, events)
        return
    if len(chaos["todo"]) == 1:
        apply_chaos(state, seat, chaos["todo"][0], rng, events)
        return
    state["pending"] = {"kind": "chaos", "seat": seat,
                        "legal": [f"APPLY {i.upper()}" for i in chaos["todo"]]}


def apply_chaos(state: State, seat: str, icon: str, rng: RngBase, events: list[Event]) -> None:
    """One of the chaos icons takes effect (the roller picks the order)."""
    from ..dice import SUSPENDING
    chaos = state["chaos"]
    state["pending"] = None
    chaos["todo"].remove(icon)
    shown = next((d for d in chaos["dice"] if state["dice"][d]["face"] == icon
                  and state["dice"][d]["place"] == "field"), None)
    die = shown or chaos["die"]
    if shown is not None:
        flow.bar(state, seat, shown)  # its result counts: a main roll (revision 4)
    push(state, {"do": "chaos-next", "seat": seat})
    if icon in SUSPENDING:
        if state["dice"][die]["place"] == "field" and not state["dice"][die].get("susp"):
            flow.suspend(state, die, icon, events,
                         [rng.die("smile/d6", 6)] if icon == "smile" else None)
            flow.effect_steps(state, seat, die, icon, suspended_die=True)
        else:
            events.append(Event("maxed", {"seat": seat, "what": icon}))
        return
    flow.effect_steps(state, seat, die, icon)


# -- triangle -------------------------------------------------------------------------
def _tri_start(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    state["tri"] = {"seat": step["seat"], "group": [step["die"]], "adds": step["adds"],
                    "all": False}
    push(state, {"do": "tri-add", "seat": step["seat"]})


def _tri_options(state: State, seat: str) -> list[str]:
    from ..state import legendary_clash
    group = state["tri"]["group"]
    return [d for d in owned(state, seat, "garden", "field") if d not in group
            and not (rules(state).legendary and state["dice"][d]["place"] == "garden"
                     and legendary_clash(state, seat, d))]


def _tri_add(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    tri = state["tri"]
    options = _tri_options(state, seat)
    if options and tri["adds"] > 0:
        state["pending"] = {"kind": "triangle", "seat": seat, "stage": "add",
                            "legal": [f"TRIANGLE {d}" for d in options]}
        return
    if not options and not tri["all"]:
        tri["all"] = True
        events.append(Event("triangle-all", {"seat": seat}))
    push(state, {"do": "tri-throw", "seat": seat})


def triangle(state: State, seat: str, die: str | None, events: list[Event]) -> None:
    tri = state["tri"]
    state["pending"] = None
    if die is None:
        tri["all"] = True
        events.append(Event("triangle-all", {"seat": seat}))
        push(state, {"do": "tri-throw", "seat": seat})
        return
    tri["group"].append(die)
    tri["adds"] -= 1
    events.append(Event("triangle-add", {"seat": seat, "die": die}))
    push(state, {"do": "tri-add" if tri["adds"] > 0 else "tri-throw", "seat": seat})


def _tri_throw(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    tri = state["tri"]
    dice = [d for d in tri["group"] if state["dice"][d]["owner"] == seat
            and state["dice"][d]["place"] in ("garden", "field")]
    tri["group"] = dice
    faces = [flow.throw(state, d, rng, "triangle", events) for d in dice]
    events.append(Event("triangle-roll", {"seat": seat, "dice": dice, "faces": faces}))
    pair: list[Step] = []
    if rules(state).pair and revision_of(state) >= 4:  # a Pair may follow any roll
        pair = [{"do": "window", "kind": "pair", "seat": seat, "dice": dice}]
    push(state, *flow.read_steps(state, seat, dice), *pair, {"do": "tri-keep", "seat": seat})


def _tri_keep(state: State, step: Step, rng: RngBase, events: list[Event]) -> None:
    seat = step["seat"]
    tri = state["tri"]
    group = tri["group"]
    keep = [d for d in group if state["dice"][d]["face"] != "triangle"]
    lines = [f"KEEP {d}" for d in keep]
    if any(state["dice"][d]["face"] == "triangle" for d in group):
        options = _tri_options(state, seat)
        if options:
            lines += [f"TRIANGLE {d}" for d in options]
        elif not tri["all"]:
            lines.append("TRIANGLE ALL")
    if not lines:
        events.append(Event("maxed", {"seat": seat, "what": "triangle"}))
        state["tri"] = None
        return
    state["pending"] = {"kind": "triangle", "seat": seat, "stage": "keep", "legal": lines}


def keep(state: State, seat: str, die: str, events: list[Event]) -> None:
    """The chosen triangle result is the main roll; the other dice stay in the Valley.

    From revision 4 the kept die is barred from the seat's next main roll like the die
    he rolled (a kept chaos is not: the dice its own throw counts are), and a triangle
    thrown within a chaos is not a main roll of its own: its result joins the chaos's
    (revisions 1-3 settled it as a main roll there and then, and the chaos's lowest
    number after it)."""
    state["pending"] = None
    state["tri"] = None
    face = state["dice"][die]["face"]
    events.append(Event("keep", {"seat": seat, "die": die, "face": face}))
    if revision_of(state) >= 4 and state["chaos"] is not None:
        _into_chaos(state, seat, die, events)
        return
    if face != "chaos":
        flow.bar(state, seat, die)
    state["roll"] = {"seat": seat, "die": die, "adjust": 0, "geared": False}
    after = {"do": "after-roll", "seat": seat, "die": die}
    push(state, {**after, "kept": True} if revision_of(state) >= 4 else after)


def _into_chaos(state: State, seat: str, die: str, events: list[Event]) -> None:
    """Revision 4: a triangle result kept within a chaos counts among the chaos's
    results: a number lower than its lowest becomes the chaos's number, an effect it has
    not rolled yet joins the effects left to apply, a chaos fizzles."""
    chaos = state["chaos"]
    kind, value = read(state["dice"][die]["face"])
    if die not in chaos["dice"]:
        chaos["dice"].append(die)
    if kind == "number":
        if chaos["low"] is None or int(value) < chaos["low"][0]:
            chaos["low"] = [int(value), die]
    elif value == "chaos":
        events.append(Event("fizzle", {"seat": seat}))
    elif value not in chaos["icons"]:
        chaos["icons"].append(str(value))
        chaos["todo"].append(str(value))
    events.append(Event("chaos-result", {"seat": seat, "low": chaos["low"],
                                         "icons": list(chaos["todo"])}))


def roman(face: Any) -> bool:
    return isinstance(face, str) and face in ROMAN


STEPS = {"effect": _effect, "choose": _choose, "capture": _capture, "captures": _captures,
         "hit": _hit, "chaos-start": _chaos_start,
         "chaos-throw": _chaos_throw, "chaos-note": _chaos_note,
         "chaos-collect": _chaos_collect, "chaos-next": _chaos_next,
         "tri-start": _tri_start, "tri-add": _tri_add, "tri-throw": _tri_throw,
         "tri-keep": _tri_keep, "announce-cross": _announce_cross}
