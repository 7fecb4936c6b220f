"""The spell charm: when a CAST takes effect and what each kind of spell does.

Casting happens after any YIELD and before the combat roll (README, "The spell
charm"), so a spell's effect reaches this turn's throw. Both seats cast at once.
A boost or a dazzle lasts `turns` turns counted from the cast; it is read off the
spent charm (its spell and turn), so it needs no state of its own, and a CLEANSE
does not end a foe's FLASH (the spell is the foe's, not an effect on the victim).
The numbers live in data/spells.toml; this module holds the four kinds.
"""

from __future__ import annotations

from copy import copy
from typing import Any

from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog
from ..orders import first_order
from ..state import charm_ready, foe

_CLEARS: dict[str, tuple[str, Any]] = {
    "stunned": ("stun_next", 0), "netted": ("entangled_next", False),
    "disarmed": ("disarmed", False), "knocked_down": ("knocked_down", False),
    "bleeding": ("bleeding", []), "hurt_arm": ("hurt_arm", 0), "hurt_leg": ("hurt_leg", 0),
    "broken_armor": ("broken_armor", 0), "blinded": ("blinded", 0),
}
"""Each effect a cleanse may end: the effects key and its cleared value."""


def curable(spell: catalog.Spell, fighter: dict[str, Any]) -> list[str]:
    """The effects on `fighter` that `spell` would end, in data order."""
    fx = fighter["effects"]
    return [name for name in spell.ends if fx[_CLEARS[name][0]] != _CLEARS[name][1]]


def would_act(spell: catalog.Spell, fighter: dict[str, Any]) -> bool:
    """False when casting now would be wasted: a heal at full hit points, a cleanse
    with nothing to end. Such a CAST is held and the charm keeps its spell."""
    if spell.kind == "heal":
        return fighter["hp"] < fighter["max_hp"]
    if spell.kind == "cleanse":
        return bool(curable(spell, fighter))
    return True


def cast_phase(s: dict[str, Any], ex: dict[str, Any], items: dict[str, list[dict[str, Any]]],
               values: dict[str, dict[str, int]], rng: RngBase, events: list[Event]) -> None:
    """Every seat whose orders call for its charm now casts it (seat order; the
    effects do not depend on each other), then every spell still running this turn
    (cast now or earlier) writes its modifiers or lost dice into the exchange."""
    for seat in s["seats"]:
        fighter = s["fighters"][seat]
        spell = charm_ready(fighter)
        if spell is None:
            continue
        order, _ = first_order(items[seat], ("cast",), values[seat],
                               accept=lambda _o, sp=spell, f=fighter: would_act(sp, f))
        if order is not None:
            cast(s, seat, spell, ex["turn"], rng, events)
    for seat in s["seats"]:
        running = active(s["fighters"][seat], ex["turn"])
        if running is None:
            continue
        if running.kind == "boost":
            ex["boost"][seat] = dict(running.modifiers)
        else:
            ex["dazzled"][foe(s, seat)] += running.dice


def active(fighter: dict[str, Any], turn: int) -> catalog.Spell | None:
    """The fighter's boost or dazzle if it still runs on combat turn `turn`."""
    charm = fighter.get("charm")
    if not charm or not charm["spent"]:
        return None
    spell = catalog.SPELLS[charm["spell"]]
    if spell.kind in ("boost", "dazzle") and charm["turn"] <= turn < charm["turn"] + spell.turns:
        return spell
    return None


def conditions(state: dict[str, Any], seat: str, turn: int) -> list[str]:
    """Spells acting on `seat` on combat turn `turn`, in words (its own boost, the
    foe's dazzle), with the turns they still have to run."""
    out: list[str] = []
    for caster in state["seats"]:
        spell = active(state["fighters"][caster], turn)
        if spell is None or (caster == seat) != (spell.kind == "boost"):
            continue
        left = state["fighters"][caster]["charm"]["turn"] + spell.turns - turn
        span = "next turn" if left == 1 else f"next {left} turns"
        if spell.kind == "boost":
            mods = ", ".join(f"{k} {v:+d}" for k, v in spell.modifiers.items())
            out.append(f"{spell.name}: {mods} for the {span}")
        else:
            out.append(f"dazzled by {spell.name}: {spell.dice} basic dice fewer for the {span}")
    return out

def cast(s: dict[str, Any], seat: str, spell: catalog.Spell, turn: int, rng: RngBase,
         events: list[Event]) -> None:
    """Spend the charm and apply its spell; the public event reveals the spell."""
    fighter = s["fighters"][seat]
    fighter["charm"].update(spent=True, turn=turn)
    data: dict[str, Any] = {"seat": seat, "spell": spell.id, "kind": spell.kind}
    if spell.kind == "heal":
        rolled = [rng.die(f"spell/{seat}/{spell.id}", 6) for _ in range(spell.dice)]
        gain = min(sum(rolled) + spell.bonus, fighter["max_hp"] - fighter["hp"])
        fighter["hp"] += gain
        data.update(dice=rolled, healed=gain, hp=fighter["hp"], max_hp=fighter["max_hp"])
    elif spell.kind == "boost":
        data.update(modifiers=dict(spell.modifiers), turns=spell.turns)
    elif spell.kind == "dazzle":
        data.update(target=foe(s, seat), dice=spell.dice, turns=spell.turns)
    elif spell.kind == "cleanse":
        ended = curable(spell, fighter)
        for name in ended:
            key, value = _CLEARS[name]
            # a fresh copy: the shared [] must never become a fighter's wound list
            fighter["effects"][key] = copy(value)
        data["ended"] = ended
    events.append(Event("cast", data))
