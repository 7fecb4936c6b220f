"""The shape of a Combat Dice game state, and small helpers that read it.

The state is plain JSON:

    {"version": 1, "options": {...}, "seats": ["P1", "P2"],
     "phase": "arm" | "fight" | "reroll" | "over",
     "turn": <combat turns begun>,
     "fighters": {seat: Fighter},
     "pending": None | a paused turn waiting for a reroll choice (option reroll=ask),
     "last": None | the public summary of the latest turn,
     "result": None | {"winners", "outcome", "status": {seat: status}, "summary"}}

A Fighter:

    {"hp", "max_hp", "bonus_hp", "specialty_count", "specialty": [die ids],
     "items": [item ids], "standing": [order items],
     "charm": None | {"spell": spell id, "spent": bool, "turn": turn cast or None},
     "effects": {"stun_next", "entangled_next", "disarmed", "knocked_down", "hurt_arm",
                 "hurt_leg", "broken_armor", "blinded", "bleeding": [{"turns", "since"}]}}
"""

from __future__ import annotations

from typing import Any

from . import catalog

PHASES = ("arm", "fight", "reroll", "over")
BASE_HP = 10
BASIC_DICE = 6
BLIND_DICE = 3  # basic dice lost per blinding


def new_effects() -> dict[str, Any]:
    return {"stun_next": 0, "entangled_next": False, "disarmed": False,
            "knocked_down": False, "hurt_arm": 0, "hurt_leg": 0, "broken_armor": 0,
            "blinded": 0, "bleeding": []}


def new_fighter(bonus_hp: int = 0, specialty_count: int = 0) -> dict[str, Any]:
    return {"hp": BASE_HP + bonus_hp, "max_hp": BASE_HP + bonus_hp, "bonus_hp": bonus_hp,
            "specialty_count": specialty_count, "specialty": [], "items": [],
            "standing": [], "charm": None, "effects": new_effects()}


def charm_ready(fighter: dict[str, Any]) -> catalog.Spell | None:
    """The spell in the fighter's charm if it can still be cast, else None."""
    charm = fighter.get("charm")
    if not charm or charm["spent"]:
        return None
    return catalog.SPELLS[charm["spell"]]


def foe(state: dict[str, Any], seat: str) -> str:
    a, b = state["seats"]
    return b if seat == a else a


def carried(fighter: dict[str, Any], kind: str) -> list[catalog.Item]:
    return [catalog.ITEMS[i] for i in fighter["items"] if catalog.ITEMS[i].kind == kind]


def worn(fighter: dict[str, Any], kind: str) -> catalog.Item:
    """The armour or shield worn, or the stand-in for going without."""
    found = carried(fighter, kind)
    return found[0] if found else catalog.NONE[kind]


def usable_weapons(fighter: dict[str, Any], turn: int) -> list[catalog.Item]:
    """Weapons that can be swung on combat turn `turn` (ranged ones only on turn 1)."""
    return [w for w in carried(fighter, "weapon") if turn == 1 or not w.ranged]


def default_weapon(fighter: dict[str, Any], turn: int) -> catalog.Item:
    """What a combatant fights with when not told: see README, "Weapons in hand".

    The opening exchange prefers a ranged weapon (that is what it is carried for); after
    that the first melee weapon listed; the net only when nothing else is at hand.
    """
    usable = usable_weapons(fighter, turn)
    ranked = ([w for w in usable if w.ranged] if turn == 1 else []) + \
        [w for w in usable if not w.ranged and not w.entangle] + \
        [w for w in usable if w.entangle]
    return ranked[0] if ranked else catalog.NONE["weapon"]


def basic_dice(fighter: dict[str, Any], stunned: int) -> int:
    """Basic dice thrown this turn: six, less stuns this turn and blindings (never < 0)."""
    fx = fighter["effects"]
    return max(0, BASIC_DICE - stunned - BLIND_DICE * fx["blinded"])


def status(hp: int) -> str:
    if hp <= -2:
        return "dead"
    if hp <= 0:
        return "unconscious"
    return "fighting"


def invariants(state: dict[str, Any]) -> list[str]:
    """Problems with a state; empty when sound."""
    problems: list[str] = []
    if state.get("phase") not in PHASES:
        return [f"unknown phase {state.get('phase')!r}"]
    seats = state.get("seats", [])
    if len(seats) != 2 or set(state.get("fighters", {})) != set(seats):
        return ["a fight needs exactly two fighters, one per seat"]
    armed = state["phase"] != "arm"
    for seat in seats:
        f = state["fighters"][seat]
        if f["max_hp"] != BASE_HP + f["bonus_hp"]:
            problems.append(f"{seat}: max_hp does not match 10 + bonus")
        if not 0 <= f["bonus_hp"] <= 6 or not 0 <= f["specialty_count"] <= 6:
            problems.append(f"{seat}: advanced rolls outside 0..6")
        if f["hp"] > f["max_hp"]:
            problems.append(f"{seat}: more hit points than the maximum")
        if state["phase"] in ("fight", "reroll") and f["hp"] <= 0:
            problems.append(f"{seat}: still fighting at {f['hp']} hit points")
        if armed and len(f["specialty"]) != f["specialty_count"]:
            problems.append(f"{seat}: {len(f['specialty'])} specialty dice chosen, "
                            f"{f['specialty_count']} rolled")
        if any(d not in catalog.SPECIALTY for d in f["specialty"]):
            problems.append(f"{seat}: unknown specialty die")
        if len(f["items"]) > 3 or any(i not in catalog.ITEMS for i in f["items"]):
            problems.append(f"{seat}: illegal equipment {f['items']}")
        for kind in ("armor", "shield"):
            if len(carried(f, kind)) > 1:
                problems.append(f"{seat}: more than one {kind}")
        charm = f.get("charm")
        if bool(charm) != (catalog.CHARM in f["items"]):
            problems.append(f"{seat}: a spell charm must hold a spell, and a spell needs a charm")
        if charm and (charm["spell"] not in catalog.SPELLS
                      or charm["spent"] != (charm["turn"] is not None)):
            problems.append(f"{seat}: broken spell charm {charm}")
        fx = f["effects"]
        if any(w["turns"] < 1 for w in fx["bleeding"]):
            problems.append(f"{seat}: a spent bleeding wound was kept")
        for key in ("stun_next", "hurt_arm", "hurt_leg", "broken_armor", "blinded"):
            if fx[key] < 0:
                problems.append(f"{seat}: negative {key}")
    if state["phase"] == "reroll" and not state.get("pending"):
        problems.append("waiting for a reroll choice with no paused turn")
    if state["phase"] != "reroll" and state.get("pending"):
        problems.append("a paused turn outside the reroll phase")
    if (state["phase"] == "over") != bool(state.get("result")):
        problems.append("a result exists exactly when the game is over")
    return problems
