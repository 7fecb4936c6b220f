"""Hit and damage rolls shared by the Fire, Opportunity Fire and Melee phases."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from .. import catalog, challenge, hexmap
from ..state import State, position, ranged_card, with_me
from . import abilities

Events = list[Event]


def weapon_stats(char: str, weapon: str | None) -> dict[str, Any]:
    """A card's figures, or the character's natural melee attack when weapon is None."""
    if weapon is None:
        c = catalog.character(char)
        return {"title": "bare hands", "kind": "melee", "penetration": c["penetration"],
                "damage": c["damage"], "uses": "P"}
    return catalog.card(weapon)


def protection(state: State, char: str, rating: str, known_only: bool = False
               ) -> tuple[str, str | None]:
    """The character's Armor or Stealth colour with his best usable card of that kind
    (body armour or a stealth card; one in use at a time), and that card if it helps.
    `known_only` counts only shown cards: what an attacker may base a choice on."""
    colour, best = catalog.character(char)[rating], None
    for entry in _cards(state, char, rating, known_only):
        card = catalog.card(entry["card"])
        if card.get("slot", "body") == "body" \
                and catalog.colour_value(card[rating]) > catalog.colour_value(colour):
            colour, best = card[rating], entry["card"]
    return colour, best


def _cards(state: State, char: str, kind: str, known_only: bool) -> list[dict[str, Any]]:
    return [e for e in state["chars"][char]["cards"]
            if catalog.card(e["card"])["kind"] == kind and catalog.can_use(char, e["card"])
            and (e["revealed"] or not known_only)]


def best_in_slot(state: State, char: str, slot: str, field: str, known_only: bool = False
                 ) -> tuple[int, str | None]:
    """Head armour (field armor_bonus) or a shield (parry): the best usable one of the
    slot, as (steps, card)."""
    best: tuple[int, str | None] = (0, None)
    for entry in _cards(state, char, "armor", known_only):
        card = catalog.card(entry["card"])
        if card.get("slot") == slot and card.get(field, 0) > best[0]:
            best = (card[field], entry["card"])
    return best


def armor_steps(state: State, char: str, ranged: bool, known_only: bool = False
                ) -> tuple[int, list[str]]:
    """Armor steps on top of the colour: head armour always, a ridden mount's bonus
    against ranged attacks (the Sumerian Chariot); with the cards that give them."""
    steps, cards = 0, []
    head, helm = best_in_slot(state, char, "head", "armor_bonus", known_only)
    if helm:
        steps, cards = steps + head, cards + [helm]
    mount = state["chars"][char].get("mount")
    if ranged and mount and catalog.card(mount).get("ranged_armor"):
        steps += catalog.card(mount)["ranged_armor"]
    return steps, cards


def melee_modifier(state: State, attacker: str, target: str, weapon: str | None,
                   known_only: bool = False) -> int:
    """Melee Hit modifiers: the attacker's weapon bonus; the dread of an enemy sharing
    his space (the Tyrant's -2 in the rulebook's melee example: the worst one counts);
    the target's dodge and shield."""
    team = state["chars"][attacker]["team"]
    dread = max((abilities.value(state, k, "dread") for k in with_me(state, attacker)
                 if state["chars"][k]["team"] != team), default=0)
    parry = best_in_slot(state, target, "shield", "parry", known_only)[0]
    return (abilities.hit_bonus(state, attacker, weapon) - dread
            - abilities.value(state, target, "dodge") - parry)


def hit_number(state: State, firer: str, target: str, weapon: str | None,
               from_space: str | None = None, to_space: str | None = None,
               to_down: bool | None = None, known_only: bool = True) -> int:
    """The Hit challenge number: ranged uses the card's skill vs Stealth less terrain;
    melee uses Melee vs React with no terrain. By default only shown stealth cards count
    (for choosing targets); the roll itself uses the true figure."""
    stats = weapon_stats(firer, weapon)
    me, them = catalog.character(firer), catalog.character(target)
    if stats["kind"] == "melee":
        return challenge.challenge_number(
            me["melee"], them["react"], melee_modifier(state, firer, target, weapon, known_only))
    a = from_space or state["chars"][firer]["space"]
    b = to_space or state["chars"][target]["space"]
    down = state["chars"][target].get("down", False) if to_down is None else to_down
    # the terrain of a tunnel is always clear
    penalty = 0 if down else hexmap.hindrance(a, b, grenade=stats.get("grenade", False),
                                              marksman=abilities.has(state, firer, "marksman"))
    stealth = protection(state, target, "stealth", known_only)[0]
    return challenge.challenge_number(me[stats["skill"]], stealth,
                                      abilities.hit_bonus(state, firer, weapon) - penalty)


def ranged_block(state: State, firer: str, space: str, down: bool = False,
                 weapon: str | None = None) -> str | None:
    """Why `firer` cannot shoot into `space` (in the tunnel below it when `down`) with
    `weapon` (default: his first usable ranged card) now (None: he can)."""
    weapon = weapon or ranged_card(state, firer)
    if weapon is None or ranged_card(state, firer, weapon) is None:
        return "has no usable ranged weapon"
    here, here_down = position(state, firer)
    if (space, down) == (here, here_down):
        return "cannot shoot into his own space"
    if catalog.card(weapon).get("grenade"):
        if not hexmap.lobs(here, here_down, space, down):
            return f"cannot throw into {space}"
    elif not hexmap.sight(here, here_down, space, down):
        return f"has no line of sight to {space}"
    if hexmap.distance(here, space) > catalog.card(weapon)["range"]:
        return f"{space} is out of range"
    return None


def reveal(state: State, events: Events, char: str, weapon: str | None) -> None:
    """A card is shown to all just before its first Hit roll."""
    if weapon is None:
        return
    for entry in state["chars"][char]["cards"]:
        if entry["card"] == weapon and not entry["revealed"]:
            entry["revealed"] = True
            events.append(Event("reveal", {"char": char, "card": weapon}))


def strike(state: State, rng: RngBase, events: Events, phase: str, attacker: str,
           target: str, weapon: str | None, from_space: str | None = None,
           to_space: str | None = None, to_down: bool | None = None) -> dict[str, Any]:
    """Roll to hit and, on SQUEAK or better, roll for damage. Nothing is applied yet."""
    reveal(state, events, attacker, weapon)
    stats = weapon_stats(attacker, weapon)
    if stats["kind"] == "ranged":
        reveal(state, events, target, protection(state, target, "stealth")[1])
    else:
        reveal(state, events, target, best_in_slot(state, target, "shield", "parry")[1])
    number = hit_number(state, attacker, target, weapon, from_space, to_space, to_down,
                        known_only=False)
    hit = challenge.roll(rng, f"{phase}/hit/{attacker}", number)
    record: dict[str, Any] = {"phase": phase, "char": attacker, "target": target,
                              "weapon": weapon, "hit": hit, "damage": 0,
                              "space": to_space or state["chars"][target]["space"],
                              "down": state["chars"][target].get("down", False)
                              if to_down is None else to_down}
    if challenge.succeeded(hit["level"]):
        armor, worn = protection(state, target, "armor")
        steps, extra = armor_steps(state, target, stats["kind"] == "ranged")
        for card in [worn, *extra]:
            reveal(state, events, target, card)
        pen = challenge.challenge_number(stats["penetration"], armor, -steps)
        wound = challenge.roll(rng, f"{phase}/damage/{attacker}", pen)
        record["wound"] = wound
        record["damage"] = challenge.damage_for(wound["level"], stats["damage"])
    return record


def apply(state: State, events: Events, record: dict[str, Any]) -> None:
    """One attack: its damage, then what happens to the weapon."""
    settle_weapon(state, events, [land(state, events, record)])


def land(state: State, events: Events, record: dict[str, Any]) -> dict[str, Any]:
    """Take the damage off and eliminate at 0; returns the record as reported."""
    target = state["chars"][record["target"]]
    killed = False
    if record["damage"] and target["status"] == "map":
        target["health"] = max(0, target["health"] - record["damage"])
        killed = target["health"] == 0
    record = {**record, "health": target["health"], "killed": killed}
    events.append(Event("attack", record))
    if killed:
        eliminate(state, events, record["target"])
    return record


def settle_weapon(state: State, events: Events, records: list[dict[str, Any]]) -> None:
    """After all of one shot's attacks: a 12 breaks the weapon, killing an enemy spends a
    K card (an ally killed by a random target or an area shot does not, since the weapon
    is lost on killing an enemy; rules revision 1 spent it on any kill, as games stored
    before revisions were played), and a single-use card is gone."""
    if not records or records[0]["weapon"] is None:
        return
    char, weapon = records[0]["char"], records[0]["weapon"]
    uses = catalog.card(weapon)["uses"]
    team = state["chars"][char]["team"]
    counts = (lambda r: state["chars"][r["target"]]["team"] != team) \
        if revision_of(state) >= 2 else (lambda r: True)
    if any(r["hit"]["roll"] == 12 for r in records):
        lose_card(state, events, char, weapon, "broke")
    elif uses == "K" and any(r["killed"] and counts(r) for r in records):
        lose_card(state, events, char, weapon, "spent on a kill")
    elif uses == "1":
        lose_card(state, events, char, weapon, "used up")


def pile_key(space: str, down: bool) -> str:
    """Where cards lie on the ground: a space, or the tunnel below it ("B5/t")."""
    return space + ("/t" if down else "")


def eliminate(state: State, events: Events, char: str) -> None:
    """The dead leave their cards on the ground, face as they were, for anyone to pick
    up; in a tower or dome nobody can, so there they are discarded face up."""
    c = state["chars"][char]
    space, down = c["space"], c.get("down", False)
    c["status"], c["space"], c["health"], c["down"] = "dead", None, 0, False
    cards, c["cards"], c["mount"] = c["cards"], [], None
    data: dict[str, Any] = {"char": char, "space": space}
    if space is not None and cards and hexmap.terrain()[space] not in hexmap.SEALED:
        state["ground"].setdefault(pile_key(space, down), []).extend(cards)
        data["dropped"] = len(cards)
    elif cards:
        state["discard"] += [e["card"] for e in cards]
        data["discarded"] = [e["card"] for e in cards]
    events.append(Event("eliminated", data))


def lose_card(state: State, events: Events, char: str, card: str, why: str) -> None:
    if state["chars"][char].get("mount") == card:
        state["chars"][char]["mount"] = None
    cards = state["chars"][char]["cards"]
    for entry in list(cards):
        if entry["card"] == card:
            cards.remove(entry)
            state["discard"].append(card)
            events.append(Event("card_lost", {"char": char, "card": card, "why": why}))
            return


def random_target(state: State, rng: RngBase, events: Events, firer: str, intended: str
                  ) -> str:
    """A single-target shot into a crowded space hits whoever rolls lowest."""
    space = state["chars"][intended]["space"]
    crowd = with_me(state, intended)
    if len(crowd) == 1:
        return intended
    rolls = {k: rng.die(f"fire/random-target/{k}", 6) for k in crowd}
    low = min(rolls.values())
    tied = [k for k in crowd if rolls[k] == low]
    mine = state["chars"][firer]["team"]
    enemies = [k for k in tied if state["chars"][k]["team"] != mine]
    chosen = intended if intended in tied else (enemies or tied)[0]
    events.append(Event("random_target", {"char": firer, "space": space, "rolls": rolls,
                                          "target": chosen}))
    return chosen
