"""Random legal orders (for the conformance suite and demo bots) and the default orders."""

from __future__ import annotations

from typing import Any

from games.core.engine import revision_of

from . import catalog, hexmap
from .rules.combat import ranged_block
from .rules.labyrinth import guardian_space
from .state import State, chars, on_map, other, position, ranged_card


def _targets(state: State, key: str) -> list[str]:
    return [e for e in on_map(state, other(state["chars"][key]["team"]))
            if ranged_block(state, key, *position(state, e)) is None]


def _guardian_spaces(state: State, seat: str) -> list[str]:
    return sorted(guardian_space(state, age, seat) for age in state["labyrinths"])


def _tunnel_trip(state: State, key: str, pick: Any) -> str | None:
    """A move that uses the tunnels: down at an entrance, along, and maybe up again."""
    here, down = position(state, key)
    if down:
        goal = pick(sorted(hexmap.entrances() & set(
            s for s in hexmap.tunnel_spaces() if hexmap.tunnel_path(here, s) is not None)))
        return f"MOVE {key} TO {goal} UP" if goal != here else f"MOVE {key} TO UP"
    if here in hexmap.entrances():
        goal = pick(sorted(s for s in hexmap.tunnel_spaces()
                           if s != here and hexmap.tunnel_path(here, s) is not None))
        return f"MOVE {key} TO DOWN {goal}"
    return None


def _with(state: State, key: str, kind: str, pick: Any) -> str:
    """Sometimes a WITH naming one of the character's weapons of that kind."""
    carried = [e["card"] for e in state["chars"][key]["cards"]
               if catalog.card(e["card"])["kind"] == kind]
    return f" WITH {pick(carried)}" if carried and pick([0, 1]) else ""


def random_lines(state: State, seat: str, pick: Any) -> list[str]:
    lines: list[str] = []
    mine = on_map(state, seat)
    enemies = on_map(state, other(seat))
    spaces = [s for s in hexmap.terrain() if hexmap.enterable(s)]
    if seat == state["active"]:
        for key in mine:
            action = pick(["fire", "move", "move", "move", "none"])
            targets = _targets(state, key)
            if action == "fire" and targets:
                line = f"FIRE {key} AT {pick(targets)}" if pick([0, 1]) else f"FIRE {key}"
                lines.append(line + _with(state, key, "ranged", pick))
            elif action == "move" and (trip := _tunnel_trip(state, key, pick)) and pick([0, 1]):
                lines.append(trip)
            elif action == "move" and state["ground"] and pick([0, 1]):
                where = pick(sorted(state["ground"]))
                here = state["chars"][key]["space"]
                if not where.endswith("/t") and not state["chars"][key]["down"] \
                        and hexmap.cheapest_path(here, where) is not None:
                    lines.append(f"MOVE {key} TO {where} PICKUP" if where != here
                                 else f"MOVE {key} TO PICKUP")
            elif action == "move":
                near = [state["chars"][e]["space"] for e in enemies] * 3
                goal = pick(near + spaces[:: max(1, len(spaces) // 8)]
                            + sorted(hexmap.entrances()) + sorted(hexmap.towers())
                            + _guardian_spaces(state, seat) * 2)
                here = state["chars"][key]["space"]
                if state["chars"][key]["down"]:
                    continue
                if goal != here and hexmap.cheapest_path(here, goal) is not None:
                    lines.append(f"MOVE {key} TO {goal}")
        for key in mine:
            here = state["chars"][key]["space"]
            if here in _guardian_spaces(state, seat) and pick([0, 1, 1]):
                lines.append(f"CHALLENGE {key}")
            elif here in {s[-1] for s in hexmap.labyrinths().values()} and pick(range(6)) == 0:
                lines.append(f"MERCY {key}")
            cards = state["chars"][key]["cards"]
            if cards and pick(range(12)) == 0:
                lines.append(f"DESTROY {key} {pick(cards)['card']}")
            kinds = {catalog.card(e["card"])["kind"] for e in cards}
            if "medical" in kinds and pick([0, 1]):
                lines.append(f"HEAL {key}")
            if "gadget" in kinds and pick([0, 1]):
                lines.append(f"USE {key}")
            if len(cards) >= 3 and pick([0, 1]):
                lines.append(f"DISCARD {key} {pick(cards)['card']}")
            if "mount" in kinds and pick([0, 1, 2]):
                lines.append(pick([f"RIDE {key}", f"DISMOUNT {key}"]))
        for key in mine:
            if state["chars"][key]["space"] in hexmap.towers() and enemies and pick([0, 1]):
                lines.append(pick([f"HAVOC {key} GIVER {pick(enemies)}",
                                   f"MANEUVER {key} BANISH {pick(enemies)}"]))
        for a in mine:
            mates = [b for b in mine if b != a
                     and position(state, b) == position(state, a)]
            cards = state["chars"][a]["cards"]
            if mates and cards and pick([0, 1]):
                line = f"TRADE {a} WITH {pick(mates)} GIVE {pick(cards)['card']}"
                if len(cards) > 1 and pick(range(4)) == 0:
                    line += f" DESTROY {pick(cards)['card']}"
                lines.append(line)
                move = f"MOVE {a} TO "
                if revision_of(state) >= 4 and any(x.startswith(move) for x in lines) \
                        and pick([0, 1]):
                    # rules revision 4: trade where he stands, then walk on
                    lines = [move + "TRADE " + x.removeprefix(move) if x.startswith(move)
                             else x for x in lines]
        reserve = chars(state, seat, "reserve")
        if reserve and pick([0, 1]):
            lines.append(f"REINFORCE {pick(reserve)}")
    else:
        for key in mine:
            form = pick(["plain", "at", "los", "space", "none", "standing"])
            if form == "plain":
                lines.append(f"FIRE {key}" + _with(state, key, "ranged", pick))
            elif form == "at" and enemies:
                lines.append(f"IF {(e := pick(enemies))} MOVES THEN FIRE {key} AT {e}")
            elif form == "los":
                lines.append(f"IF ENEMY ENTERS LOS THEN OPFIRE {key} ELSE HOLD {key}")
            elif form == "space":
                lines.append(f"IF ENEMY ENTERS {pick(spaces)} THEN FIRE {key}")
            elif form == "standing":
                lines.append(f"STANDING OPFIRE {key}")
        if state["standing"][seat] and pick([0, 0, 1]):
            lines.append("CANCEL STANDING")
        if mine and pick(range(5)) == 0:
            lines.append(pick([f"CHOOSE GIVER {pick(mine)}", f"CHOOSE RECEIVER {pick(mine)}",
                               f"CHOOSE DOME {pick(sorted(hexmap.domes()))}"]))
    for key in mine:
        if pick([0, 0, 1]):
            lines.append(pick([f"HOLD {key}", f"MELEE {key} WITH NATURAL",
                               f"MELEE {key}" + _with(state, key, "melee", pick)]))
    if pick(range(400)) == 0:
        lines.append("SURRENDER")
    return lines


def default_lines(state: State, seat: str) -> list[str]:
    """Missed deadline: every armed character fires at will (on its own turn at the best
    target, on the enemy's at movers); nobody moves except out of a dome; melee as usual;
    a character on his team's guardian position challenges the guardian."""
    lines = [f"FIRE {key}" for key in on_map(state, seat) if ranged_card(state, key)]
    if seat == state["active"]:
        lines += [f"CHALLENGE {key}" for key in on_map(state, seat)
                  if state["chars"][key]["space"] in _guardian_spaces(state, seat)]
    return lines
