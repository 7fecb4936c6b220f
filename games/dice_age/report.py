"""Turn reports in our own words, built only from the events the reader may see."""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from .dice import DICE, face_text, read


def _die(die: str) -> str:
    d = DICE[die]
    return f"{d.name} ({d.colour})"


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
    if k == "setup":
        return (f"Dice Age, level {d['level']}, for {', '.join(d['seats'])}: "
                f"{len(d['dice'])} dice on the table.")
    if k == "first-roll":
        rolls = ", ".join(f"{s} {v}" for s, v in d["rolls"].items())
        return f"Rolling for the first player ({'again, ' if d['attempt'] > 1 else ''}d6): {rolls}."
    if k == "first-player":
        return f"{d['seat']} goes first."
    if k == "pick":
        return f"{d['seat']} takes the {_die(d['die'])}."
    if k == "draft-done":
        return "The centre is empty; the game begins."
    if k == "deal":
        got = "; ".join(f"{s}: {_dice(v)}" for s, v in d["given"].items() if v)
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
        lost_word = "set aside for good" if d["level"] < 3 else "sent to the wasteland"
        text = (f"{d['number']} is above {d['limit']}: {d['seat']} loses the round; "
                f"{_dice(d['lost'])} {lost_word}.")
        for seat, dice in d["back"].items():
            text += f" {seat} takes {_dice(dice)} back to the garden."
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
