"""Turn reports in our own words, built only from the events the reader may see."""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from .dice import face_text, read, spec
from .levels import level_rules

WINDOW_WORD = {"gear": "Gear", "smile": "Smile", "pair": "Pair", "double": "Double arrow",
               "nut": "Nut", "instead": "General"}
HOW = {"orders": "", "standing": " (standing order)", "default": " (deadline missed)"}


def _effect_name(icon: str | None) -> str:
    """An effect as a report names it: the Roman numeral's effect is its capture."""
    return "Roman numeral's capture" if icon == "roman" else str(icon)


def _die(die: str) -> str:
    d = spec(die)
    copy = die[len(die.rstrip("0123456789")):]
    return f"{d.name}{' ' + copy if copy else ''} ({d.colour})"


def _dice(dice: list[str]) -> str:
    return ", ".join(_die(d) for d in dice) if dice else "nothing"


def _face(face: Any) -> str:
    kind, value = read(face) if "|" not in str(face) else ("edge", face)
    if kind == "number":
        return f"**{value}**" if str(value) == str(face) else f"**{face}** (= {value})"
    if kind == "icon":
        return f"the {face_text(face).lower()} icon"
    return "an edge between " + " and ".join(face_text(f) for f in str(face).split("|"))


def _line(event: Event) -> str | None:
    d = event.data
    k = event.kind
    if k == "setup" and d.get("points"):
        return (f"Dice Age, level {d['level']}, for {', '.join(d['seats'])}: each player "
                f"chooses a Legion of {d['points']} points in secret.")
    if k == "setup":
        return (f"Dice Age, level {d['level']}, for {', '.join(d['seats'])}: "
                f"{len(d['dice'])} dice on the table.")
    if k == "first-roll":
        rolls = ", ".join(f"{s} {v}" for s, v in sorted(d["rolls"].items()))
        return f"Rolling for the first player ({'again, ' if d['attempt'] > 1 else ''}d6): {rolls}."
    if k == "first-player":
        return f"{d['seat']} goes first."
    if k == "pick":
        return f"{d['seat']} takes the {_die(d['die'])}."
    if k == "draft-done":
        return "The centre is empty; the game begins."
    if k == "deal":
        got = "; ".join(f"{s}: {_dice(v)}" for s, v in sorted(d["given"].items()) if v)
        head = "the set-aside dice" if d["what"] == "set-aside" else f"the {d['what']} dice"
        return f"Dealing {head}: {got or 'too few to go round'}" + (
            f"; put aside {_dice(d['left'])}." if d["left"] else ".")
    if k == "limbo":
        return f"Left over and out of the game (Limbo): {_dice(d['dice'])}."
    if k == "roll":
        limit = "with no Number standing" if d["number"] is None else \
            f"against a Number of {d['number']}"
        return f"{d['seat']} rolls the {_die(d['die'])} {limit}: {_face(d['face'])}."
    if k == "read":
        return f"{d['seat']} reads the {_die(d['die'])} as {_face(d['face'])}."
    if k == "number":
        return f"The Number is now **{d['number']}**."
    if k == "overshoot":
        lv = level_rules(d["level"])
        lost_word = "sent to the wasteland" if lv.field else "set aside for good"
        ledges = " (Ledges stay)" if lv.effects else ""
        text = (f"{d['number']} is above {d['limit']}: {d['seat']} loses the round; "
                f"{_dice(d['lost'])} {lost_word}.")
        if d.get("limbo"):
            text += f" {_dice(d['limbo'])} to Limbo (white)."
        for seat, dice in sorted(d["back"].items()):
            text += f" {seat} takes {_dice(dice)} back to the garden{ledges}."
        return text + " The Number is cleared."
    if k == "icon-skip":
        return f"{d['seat']} will miss his next turn."
    if k == "recall":
        return f"{d['seat']} brings the {_die(d['die'])} back from the wasteland to the field."
    if k == "skipped":
        return f"{d['seat']} misses this turn."
    if k == "out":
        return f"{d['seat']} has no die left to play and is out."
    if k == "winner":
        return f"**{d['seat']} wins**: the last player with dice to roll."
    if k == "suspend":
        if d["effect"] is None:
            return None
        extra = f" with a d6 showing {d['d6'][0]}" if d["d6"] else ""
        return f"{d['seat']}'s {_die(d['die'])} goes to the Ledges (suspended {d['effect']}){extra}."
    if k == "unsuspend":
        why = {"used": "its effect spent", "picked up to roll": "picked up to roll, its "
               "effect lost"}.get(d["why"], d["why"])
        return f"The {_die(d['die'])} leaves the Ledges ({why})."
    if k == "limbo-die":
        return f"The {_die(d['die'])} goes to Limbo: {d['why']}."
    if k == "resting":
        return (f"{d['seat']} equals the Number {d['number']}: the {_die(d['die'])} rests on "
                f"the Ledges.")
    if k == "effect":
        return f"{d['seat']}'s {d['icon']} takes effect."
    if k == "doubled":
        if d["icon"] == "square":  # a doubled Square is not played twice: it is kept
            return f"The {_effect_name(d['icon'])} is doubled: it keeps a second use."
        return f"The {_effect_name(d['icon'])} is doubled: it applies twice."
    if k == "smile-d6":
        return f"{d['seat']}'s doubled Smile keeps d6s showing {', '.join(map(str, d['d6']))}."
    if k == "target":
        what = f" ({_die(d['die'])})" if d.get("die") else ""
        return f"{d['seat']} aims the {d['effect']} at {d['target']}{what}."
    if k == "default":
        return f"{d['seat']} missed the deadline: {d['order']} (the default)."
    if k == "no-reaction":
        if d["how"] == "default":
            return f"{d['seat']} did not answer in time: no {WINDOW_WORD[d['window']]}."
        return None if d["how"] == "standing" else \
            f"{d['seat']} lets the {WINDOW_WORD[d['window']]} moment pass."
    if k == "protected":
        return (f"Wait! {d['seat']} unsuspends a Nut{HOW[d['how']]}: protected from "
                f"{d['by']}'s {d['effect']}.")
    if k == "gear":
        return (f"Wait! {d['seat']} plays the Gear{HOW[d['how']]}: the {_die(d['die'])} showing "
                f"{_face(d['was'])} is void; turned over it shows {_face(d['face'])}.")
    if k == "smile":
        return (f"Wait! {d['seat']} smiles{HOW[d['how']]}: {d['sign']}{d['d6']}, the roll "
                f"counts {d['number']}.")
    if k == "pair":
        return (f"{d['seat']} makes a pair{HOW[d['how']]}: the {_die(d['die'])} comes back "
                f"from the wasteland to the field.")
    if k == "double":
        return (f"Wait! {d['seat']} plays a Double arrow{HOW[d['how']]} on the "
                f"{_effect_name(d['icon'])}.")
    if k == "general-swap":
        return (f"{d['seat']}'s General {_die(d['general'])} is saved{HOW[d['how']]}: the "
                f"{_die(d['die'])} goes instead.")
    if k == "copy-chosen":
        return (f"{d['seat']} chooses {d['owner']}'s {_die(d['die'])} to come back (one copy "
                f"in the field).")
    if k == "pit":
        return f"The pit swallows {d['target']}'s {_die(d['die'])}: to the wasteland."
    if k == "blank":
        return f"{d['target']} will skip a turn."
    if k == "defend":
        return f"{d['seat']} defends with the {_die(d['die'])}."
    if k == "duel-roll":
        a, b = d["dice"]
        return (f"Duel: {_die(a)} {_face(d['faces'][0])} against {_die(b)} "
                f"{_face(d['faces'][1])} ({d['values'][0]}-{d['values'][1]}).")
    if k == "duel":
        return f"{d['owner']}'s {_die(d['loser'])} loses the duel and goes to Limbo."
    if k == "radiation":
        back = "; ".join(f"{s}: {_dice(v)}" for s, v in sorted(d["back"].items())) or "nothing"
        text = f"Radiation ({d['colour']}): back to the field: {back}."
        if d["kept"]:
            text += f" Kept in the wasteland (a copy is in the field): {_dice(d['kept'])}."
        return text
    if k == "cross":
        gone = "; ".join(f"{s}: {_dice(v)}" for s, v in sorted(d["gone"].items())) or "nothing"
        return f"The cross sweeps the Valley to the wastelands: {gone}."
    if k == "capture":
        return f"{d['seat']} captures {d['target']}'s {_die(d['die'])}."
    if k == "no-capture":
        return f"{d['seat']} captures nothing."
    if k == "square":
        return f"{d['target']} must roll the {_die(d['die'])} next (Square by {d['seat']})."
    if k == "square-play":
        return f"{d['seat']} plays his Square."
    if k == "square-refused":
        return f"{d['seat']}'s Square order cannot be played now: {d['why']}."
    if k == "square-obeyed":
        return f"{d['seat']} rolls the die the Square named."
    if k == "square-lapses":
        return f"The Square on {d['seat']}'s {_die(d['die'])} lapses: it cannot be rolled."
    if k == "chaos-roll":
        faces = ", ".join(f"{_die(x)} {_face(f)}" for x, f in zip(d["dice"], d["faces"],
                                                                   strict=True))
        again = " again" if d["pass"] > 1 else ""
        return f"Chaos: {d['seat']} rolls{again} every Valley die: {faces or 'none'}."
    if k == "fizzle":
        return "A second chaos: the Chaos fizzles, and is ignored."
    if k == "chaos-result":
        low = f"lowest number {d['low'][0]}" if d["low"] else "no number"
        icons = ", ".join(d["icons"]) or "no effect"
        return f"Chaos result: {low}; effects: {icons}."
    if k == "triangle-add":
        return f"{d['seat']} adds the {_die(d['die'])} to the triangle throw."
    if k == "triangle-all":
        return f"{d['seat']} throws all his triangle dice once more."
    if k == "triangle-roll":
        faces = ", ".join(f"{_die(x)} {_face(f)}" for x, f in zip(d["dice"], d["faces"],
                                                                   strict=True))
        return f"Triangle throw: {faces}."
    if k == "keep":
        return f"{d['seat']} keeps the {_die(d['die'])}'s {_face(d['face'])} as his main roll."
    if k == "void":
        return f"{d['seat']}'s roll no longer counts: the {_die(d['die'])} left the field."
    if k == "maxed":
        return f"The {d['what']} is maxed out: nothing (more) to act on."
    if k == "eliminated":
        return (f"{d['seat']} {d['why']} and is out; {_dice(d['dice'])} to Limbo. "
                f"Next! The round ends.")
    if k == "round-end":
        back = " ".join(f"{s} takes {_dice(v)} back to the garden." for s, v in
                        sorted(d["back"].items()))
        return ("A new round: the Number is cleared. " + back).strip()
    if k == "pugno-start":
        return (f"Per un pugno di dadi: {' and '.join(d['seats'])} each have one die left; "
                f"in 4 turns the lower value wins.")
    if k == "pugno-tie":
        return "Four turns passed with equal values: four more turns."
    if k == "pugno":
        values = ", ".join(f"{s} {v}" for s, v in sorted(d["values"].items()))
        return f"Four turns passed: die values {values}; {d['loser']} is out."
    if k == "legion":
        return f"{d['seat']}'s Legion: {_dice(d['dice'])}."
    if k == "legion-private":
        general = _die(d["general"]) if d["general"] else "none"
        return (f"(private) Your Legion costs {d['cost']} points; General: {general}; "
                f"reserve: {', '.join(d['reserve']) or 'none'}.")
    if k == "legion-default":
        return f"{d['seat']} chose no valid Legion: the default Legion is taken."
    if k == "standing":
        orders = "; ".join(d["orders"]) or "none"
        return f"(private) Your standing orders: {orders}."
    if k == "settled":
        return f"{d['seat']}'s standing order settles it: {d['order']}."
    return None


def render(events: list[Event], viewer: str | None) -> str:
    lines: list[str] = []
    for event in events:
        if not event.visible_to(viewer):
            continue
        line = _line(event)
        if line:
            lines.append(f"- {line}")
    return "\n".join(lines) + ("\n" if lines else "")
