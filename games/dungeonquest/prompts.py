"""What the order form shows each hero: the situation, the legal orders, an example."""

from __future__ import annotations

from typing import Any

from . import content
from .board import CHAMBER, SIDE_WORDS, TOWERS, allowed_sides, passage, step_target
from .rules.combat import describe_choices
from .state import State, treasure_total

HELP = "One order per line; the forms below show each kind with an example."

# Order forms with an example each: "FORM — what it does (e.g. EXAMPLE)". The order form
# lists them one per line (gm/web/prompts.py reads this shape), and mail lists them too,
# so a phone shows a list to scan rather than one long paragraph. `forms()` builds them
# per seat: a form and its example name only what that hero can do now (his own rings,
# his bow, his potion), so the help never offers an order the parser would refuse and
# never hints at anything another seat holds.
FORMS = [
    "<step> — RETREAT (back where you came from), SEARCH, STAY (LOOT in the treasure "
    "chamber), LEAVE (quit the dungeon by a corner tower) (e.g. RETREAT)",
    "MOVE <direction> [<direction>...] — through exits in turn, e.g. on along a corridor "
    "(e.g. MOVE NORTH EAST)",
    "MOVE TO <square> — the shortest known way there (e.g. MOVE TO F7)",
    "DESTINATION <square> — where to head when no order says otherwise; kept until "
    "changed (e.g. DESTINATION G7)",
    "SEARCH THEN <direction> — search the room; where to go if a secret door turns up "
    "(e.g. SEARCH THEN EAST)",
]
CONDITIONS = ("MONSTER [kind], AMBUSH, SPIDER, CRYPT, CORPSE, TRAP, DOOR, PORTCULLIS, "
              "POTION, FAIL, TILE [kind], LIFE < n, TREASURE > n, TURN > n")


def forms(ch: dict[str, Any]) -> list[str]:
    """The order forms for this hero, each with an example he could send as written."""
    answers = ["ATTACK", "WAIT", "ESCAPE"] + (["SHOOT"] if ch["arrows"] > 0 else []) + \
        ["FIGHT", "FLEE", "SEARCH CRYPT", "SEARCH BODY", "IGNORE"]
    out = [*FORMS, f"<answer> — to a decision arising: {', '.join(answers)} (e.g. ESCAPE)"]
    potion = "; DRINK POTION drinks your potion" if ch["potion"] else ""
    if ch["rings"]:
        names = ", ".join(r.upper() for r in ch["rings"])
        out.append(f"USE RING OF <name> — a ring you carry ({names}){potion} "
                   f"(e.g. USE RING OF {ch['rings'][0].upper()})")
    conditions = CONDITIONS + (", ARROWS < n" if ch["arrows"] > 0 else "")
    out += [f"IF <condition> THEN <order> [ELSE <order>] — conditions: {conditions} "
            "(e.g. IF MONSTER TROLL THEN ESCAPE ELSE ATTACK)",
            "STANDING <order> — kept every turn until CANCEL STANDING (e.g. STANDING IF TRAP "
            "THEN RETREAT)"]
    return out


def exits(state: State, seat: str) -> list[str]:
    ch = state["chars"][seat]
    board = state["board"]
    out = []
    for side in allowed_sides(board, ch["pos"], ch["entry"]):
        kind, _ = passage(board, ch["pos"], side)
        if kind is not None:
            out.append(side)
    return out


def tower_beyond(state: State, seat: str, side: str) -> str | None:
    """The corner tower a step of the hero's own by `side` walks into, if it does.

    Such a step takes him out of the dungeon for good (rules/movement.py, walk). A player
    played the page's example, "MOVE NORTH" from J2, on turn 2 and was out with no gold:
    the example must never be that step, and the help names it where an exit is one."""
    pos = state["chars"][seat]["pos"]
    target = step_target(state["board"], pos, side)
    return target if target in TOWERS and target != pos else None


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


def _example_move(moves: list[str], outward: dict[str, str]) -> str:
    """A step deeper into the dungeon when there is one: the example is what a new player
    sends as it stands, and a step into a tower would end his quest."""
    inward = [m for m in moves if m not in outward]
    return (inward or moves or ["SEARCH"])[0]


def prompt(state: State, seat: str) -> dict[str, Any]:
    ch = state["chars"][seat]
    sides = exits(state, seat)
    moves = [f"MOVE {SIDE_WORDS[s].upper()}" for s in sides]
    outward = {f"MOVE {SIDE_WORDS[s].upper()}": t for s in sides
               if (t := tower_beyond(state, seat, s))}
    where = "the treasure chamber" if ch["pos"] in CHAMBER else ch["pos"]
    kind = state["board"][ch["pos"]]["kind"]
    lines = [f"{ch['name']} {ch['title']} is in {where} ({kind}), Life {ch['life']}/"
             f"{ch['max_life']}, treasure {treasure_total(ch)} gold."]
    choices = list(moves)
    if ch["pending"]:
        from .rules.turn import pending_text
        lines.append(f"Decision from last turn: {pending_text(ch, content.of(state))}.")
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
    choices += ["DESTINATION E7", "MOVE TO E7", *forms(ch)]
    for move, tower in outward.items():
        lines.append(f"{move} steps into the corner tower {tower}, which ends your quest "
                     "there: you leave the dungeon with the treasure you carry.")
    if ch["rings"]:
        lines.append("Unused rings: " + ", ".join(content.of(state).rings[r]["name"]
                                                for r in ch["rings"]) + ".")
    turn = state["turn"]
    # A decision arising is answered first in the example, whatever it is (a corpse or a
    # crypt as well as a monster: the example answered monsters only).
    answer = pending_choices(state, seat)[:1] if ch["pending"] else []
    example = "\n".join([*answer, _example_move(moves, outward),
                         "IF MONSTER TROLL THEN ESCAPE ELSE ATTACK"])
    return {"title": f"Round {turn} of {state['turns']}: orders for {ch['name']}",
            "help": " ".join(lines) + " " + HELP, "choices": choices, "example": example,
            "pending": bool(ch["pending"])}
