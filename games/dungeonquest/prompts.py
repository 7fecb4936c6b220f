"""What the order form shows each hero: the situation, the legal orders, an example."""

from __future__ import annotations

from typing import Any

from .board import CHAMBER, SIDE_WORDS, TOWERS, allowed_sides, passage
from .content import RINGS
from .rules.combat import describe_choices
from .state import State, treasure_total

HELP = ("One order per line. Movement: MOVE <direction>[ <direction>...], MOVE TO <square>, "
        "RETREAT, SEARCH [THEN <direction>], STAY (LOOT in the treasure chamber), LEAVE "
        "(quit the dungeon by a corner tower), "
        "DESTINATION <square>. Answers: ATTACK, WAIT, ESCAPE, SHOOT, FIGHT, FLEE, "
        "SEARCH CRYPT, SEARCH BODY, IGNORE. Items: DRINK POTION, USE RING OF <name>. "
        "Conditions: IF MONSTER [kind] / AMBUSH / SPIDER / CRYPT / CORPSE / TRAP / DOOR / "
        "PORTCULLIS / POTION / FAIL / TILE [kind] / LIFE < n / TREASURE > n / TURN > n "
        "THEN <order> [ELSE <order>]. STANDING <order> keeps an order; CANCEL STANDING.")


def exits(state: State, seat: str) -> list[str]:
    ch = state["chars"][seat]
    board = state["board"]
    out = []
    for side in allowed_sides(board, ch["pos"], ch["entry"]):
        kind, _ = passage(board, ch["pos"], side)
        if kind is not None:
            out.append(side)
    return out


def pending_choices(state: State, seat: str) -> list[str]:
    ch = state["chars"][seat]
    p = ch["pending"]
    if not p:
        return []
    if p["type"] == "monster":
        allowed = {"attack", "escape"} if p["ambush"] else {"attack", "wait", "escape"}
        if not p["ambush"]:
            if ch["arrows"] > 0:
                allowed.add("shoot")
            if "blinding" in ch["rings"]:
                allowed.add("use:blinding")
        if p["no_escape"] or ch["prev"] is None:
            allowed.discard("escape")
        return describe_choices(allowed)
    if p["type"] == "spider":
        out = ["FIGHT"] + ([] if p["no_escape"] or ch["prev"] is None else ["FLEE"])
        return out + (["SHOOT"] if ch["arrows"] > 0 else [])
    return ["SEARCH CRYPT" if p["type"] == "crypt" else "SEARCH BODY", "IGNORE"]


def prompt(state: State, seat: str) -> dict[str, Any]:
    ch = state["chars"][seat]
    moves = [f"MOVE {SIDE_WORDS[s].upper()}" for s in exits(state, seat)]
    where = "the treasure chamber" if ch["pos"] in CHAMBER else ch["pos"]
    kind = state["board"][ch["pos"]]["kind"]
    lines = [f"{ch['name']} {ch['title']} is in {where} ({kind}), Life {ch['life']}/"
             f"{ch['max_life']}, treasure {treasure_total(ch)} gold."]
    choices = list(moves)
    if ch["pending"]:
        from .rules.turn import pending_text
        lines.append(f"Decision from last turn: {pending_text(ch)}.")
        choices = pending_choices(state, seat) + choices
    if ch["pos"] in CHAMBER:
        choices.append("LOOT")
    elif ch["pos"] in TOWERS:
        choices += ["LEAVE", "STAY"]
    else:
        choices += ["SEARCH", "STAY"]
    if ch["prev"]:
        choices.append("RETREAT")
    if ch["potion"]:
        choices.append("DRINK POTION")
    choices += [f"USE RING OF {r.upper()}" for r in ch["rings"]]
    choices += ["DESTINATION E7", "MOVE TO E7"]
    if ch["rings"]:
        lines.append("Unused rings: " + ", ".join(RINGS[r]["name"] for r in ch["rings"]) + ".")
    turn = state["turn"]
    example = ("ATTACK\n" if ch["pending"] and ch["pending"]["type"] == "monster" else "") + \
        (moves[0] if moves else "SEARCH") + "\nIF MONSTER TROLL THEN ESCAPE ELSE ATTACK"
    return {"title": f"Turn {turn} of {state['turns']}: orders for {ch['name']}",
            "help": " ".join(lines) + " " + HELP, "choices": choices, "example": example,
            "pending": bool(ch["pending"])}
