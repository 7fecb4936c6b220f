"""Warpspawn Combat Dice as a rules engine (the contract is games.core.engine.Engine).

The flow: an arming turn (both seats choose equipment and specialty dice at once),
then simultaneous combat turns until a combatant falls, yields, or time runs out.
With option reroll=ask a turn may pause after the maneuver phase for the initiative
winner's reroll choice. The rules themselves live in rules/; this module wires them
to the contract.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.engine import Engine, Option, Pick
from games.core.orders import merge_standing
from games.core.rng import RngBase
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid

from . import bot, catalog
from . import orders as order_lang
from .board import svg as board_svg
from .report import render
from .rules import criticals, exchange, spells
from .state import charm_ready, invariants, new_fighter, usable_weapons

State = dict[str, Any]


class CombatDice(Engine):
    name = "combat_dice"
    title = "Warpspawn Combat Dice"
    min_seats = 2
    max_seats = 2
    options = {
        "combatants": Option("basic", choices=("basic", "advanced"),
                             help="advanced: each combatant rolls 1d6 extra hit points "
                                  "and 1d6 specialty dice"),
        "reroll": Option("orders", choices=("orders", "ask"),
                         help="orders: the reroll is settled by orders given in advance "
                              "(no order = keep); ask: when no order settles it the turn "
                              "pauses and the initiative winner is asked"),
        "damage_dice": Option("on", choices=("on", "off"), since=2,
                              help="on: a blow that costs hit points rolls the damage dice "
                                   "for a lasting effect (the rulebook's advanced rule); "
                                   "off: the basic rules, damage only"),
        "max_turns": Option(100, choices=(50, 100, 200),
                            help="a fight still undecided after this many turns is a draw"),
    }
    hidden_information = True  # advanced rolls before the reveal; standing orders; spells
    revision = 2
    revisions = {
        1: "the rules as they were before revisions (every game stored before 1 Dec 2026)",
        2: "option damage_dice (on: as revision 1, where the damage dice were always "
           "thrown; off: the basic rules). A game of revision 1 has no such option and "
           "throws them; its options and state keep their recorded bytes",
    }
    conformance_examples = 200

    # -- setup --------------------------------------------------------------------
    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        options = self.validate_options(options)
        if len(seats) != 2:
            raise ValueError("Combat Dice is a duel: exactly two seats")
        fighters: dict[str, Any] = {}
        events = [Event("setup", {**options})]
        for seat in seats:
            if options["combatants"] == "advanced":
                bonus = rng.die(f"setup/{seat}/hit-points", 6)
                count = rng.die(f"setup/{seat}/specialty-dice", 6)
            else:
                bonus = count = 0
            fighters[seat] = new_fighter(bonus, count)
            if options["combatants"] == "advanced":
                events.append(Event("advanced-roll", {
                    "seat": seat, "bonus_hp": bonus, "hp": fighters[seat]["hp"],
                    "specialty_count": count}, (seat,)))
        state = {"version": 1, "options": options, "seats": list(seats), "phase": "arm",
                 "turn": 0, "fighters": fighters, "pending": None, "last": None,
                 "result": None}
        return state, events

    # -- who owes orders ---------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == "over":
            return None
        if phase == "reroll":
            seats = [state["pending"]["chooser"]]
        else:
            seats = list(state["seats"])
        return Decision(phase, {seat: order_lang.prompt(state, seat) for seat in seats})

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        if state["phase"] == "over":
            raise OrdersInvalid([OrderError(0, "the fight is over")])
        return order_lang.parse(state, seat, text)

    def default_orders(self, state: State, seat: str) -> Orders:
        return order_lang.default(state, seat)

    # -- resolution ----------------------------------------------------------------
    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        phase = state["phase"]
        if phase == "arm":
            return self._arm(state, orders)
        if phase == "fight":
            return exchange.begin(state, orders, rng)
        if phase == "reroll":
            return exchange.answer(state, orders, rng)
        raise ValueError("the fight is over; there is nothing to resolve")

    def _arm(self, state: State, orders: dict[str, Orders]) -> tuple[State, list[Event]]:
        """Both picks arrive together and are revealed together."""
        s = clone(state)
        events: list[Event] = []
        for seat in s["seats"]:
            given = orders.get(seat) or self.default_orders(state, seat)
            fighter = s["fighters"][seat]
            plain = [i["order"] for i in given.items if "order" in i and not i.get("standing")]
            for order in plain:
                if order["op"] == "equip":
                    fighter["items"] = list(order["items"])
                    fighter["charm"] = {"spell": order["spell"], "spent": False,
                                        "turn": None} if order.get("spell") else None
                elif order["op"] == "specialty":
                    fighter["specialty"] = list(order["dice"])
            kept, _ = merge_standing(fighter["standing"],
                                     [i for i in given.items if "order" not in i
                                      or i.get("standing")])
            fighter["standing"] = kept
            if fighter.get("charm"):  # the spell stays secret until cast
                events.append(Event("charm", {"seat": seat,
                                              "spell": fighter["charm"]["spell"]}, (seat,)))
            if kept:
                events.append(Event("standing", {"seat": seat, "orders": [
                    order_lang.GRAMMAR.render(i) for i in kept]}, (seat,)))
        s["phase"] = "fight"
        events.insert(0, Event("armed", {"fighters": {
            seat: {"items": f["items"], "specialty": f["specialty"], "hp": f["hp"],
                   "bonus_hp": f["bonus_hp"]} for seat, f in s["fighters"].items()}}))
        return s, events

    # -- what leaves the engine ------------------------------------------------------
    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """Everything on the table; hidden: another seat's standing orders, the spell in
        another seat's charm until it is cast, and before the reveal another seat's
        advanced rolls."""
        gm = seat == "*"
        fighters = {}
        for who, f in state["fighters"].items():
            mine = gm or who == seat
            secret = state["phase"] == "arm" and not mine
            entry: dict[str, Any] = {
                "items": [catalog.ITEMS[i].name for i in f["items"]],
                "specialty": list(f["specialty"]),
                "effects": clone(f["effects"]),
                "conditions": criticals.conditions(f["effects"])
                + spells.conditions(state, who, state["turn"] + 1),
            }
            if not secret:
                entry.update(hp=f["hp"], max_hp=f["max_hp"], bonus_hp=f["bonus_hp"],
                             specialty_count=f["specialty_count"])
            charm = f.get("charm")
            if charm:
                shown = mine or charm["spent"]
                entry["charm"] = {"spell": catalog.SPELLS[charm["spell"]].name if shown
                                  else None, "spent": charm["spent"], "turn": charm["turn"]}
            if mine:
                entry["standing"] = [order_lang.GRAMMAR.render(i) for i in f["standing"]]
            fighters[who] = entry
        return {"ruleset": self.name, "phase": state["phase"], "turn": state["turn"],
                "options": dict(state["options"]), "seats": list(state["seats"]),
                "you": seat if seat in state["seats"] else None,
                "fighters": fighters, "last": clone(state["last"]),
                "pending": clone(state["pending"]), "result": clone(state["result"])}

    def report(self, events: list[Event], viewer: str | None) -> str:
        return render(events, viewer)

    def invariants(self, state: State) -> list[str]:
        return invariants(state)

    def result(self, state: State) -> dict[str, Any]:
        res = state.get("result") or {}
        return {"winners": list(res.get("winners", [])), "summary": res.get("summary", "")}

    # -- conformance hooks -----------------------------------------------------------
    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        phase = state["phase"]
        fighter = state["fighters"][seat]
        if phase == "reroll":
            return pick(["REROLL", "KEEP"])
        if phase == "arm":
            return "\n".join(self._random_arming(fighter, pick))
        lines: list[str] = []
        turn = state["turn"] + 1
        weapons = [w.label for w in usable_weapons(fighter, turn)] + ["UNARMED"]
        pool = ["REROLL", "KEEP", "IF ATTACK < 2 THEN REROLL",
                "IF DAMAGE <= FOE_ARMOR THEN REROLL ELSE KEEP",
                "IF ATTACK <= FOE_DODGE AND MANEUVER > 1 THEN REROLL",
                "STANDING IF ATTACK < 2 THEN REROLL", "STANDING KEEP", "CANCEL STANDING",
                "CANCEL STANDING 1", "IF HP < 3 THEN WIELD UNARMED",
                *(f"WIELD {w}" for w in weapons), "STANDING WIELD " + pick(weapons)]
        spell = charm_ready(fighter)
        if spell:  # weighted so that most fights with a charm see it cast
            pool += ["CAST", "CAST", f"CAST {spell.label}", "IF HP < 6 THEN CAST",
                     "IF TURN > 2 THEN CAST", "STANDING CAST", "STANDING IF HP < 5 THEN CAST"]
        for _ in range(pick([0, 1, 1, 2, 3])):
            lines.append(pick(pool))
        # A random player tires of a long duel: this keeps the suite's games short
        # while still reaching knock-outs, deaths, draws and the turn limit.
        if pick(range(30)) == 0:
            lines.append("YIELD")
        elif pick(range(10)) == 0:
            lines.append(pick(["IF HP < FOE_HP THEN YIELD", "IF TURN > 8 AND HP < 5 THEN YIELD"]))
        return "\n".join(_drop_clashes(lines))

    def _random_arming(self, fighter: dict[str, Any], pick: Pick) -> list[str]:
        weapons = [i for i in catalog.ITEMS.values() if i.kind == "weapon"]
        gear: list[str] = []
        for _ in range(pick([0, 1, 1, 1, 2, 2])):
            w = pick(weapons).label
            if w not in gear:
                gear.append(w)
        for kind in ("armor", "shield"):
            choice = pick([None, *(i.label for i in catalog.ITEMS.values() if i.kind == kind)])
            if choice:
                gear.append(choice)
        charm = pick([None, None, *catalog.SPELLS])
        if charm:  # in place of whatever would be the third item
            gear = gear[:2] + [f"{catalog.ITEMS[catalog.CHARM].label} "
                               f"{catalog.SPELLS[charm].label}"]
        lines = ["EQUIP " + ", ".join(gear[:3] or [catalog.NONE["weapon"].label])]
        if fighter["specialty_count"]:
            lines.append("SPECIALTY " + " ".join(
                pick(list(catalog.SPECIALTY)).upper() for _ in range(fighter["specialty_count"])))
        if pick([True, False]):
            lines.append(pick(["STANDING IF ATTACK < 2 THEN REROLL", "STANDING REROLL",
                               "STANDING IF TURN > 1 THEN WIELD UNARMED",
                               *(["STANDING IF HP < 5 THEN CAST"] if charm else [])]))
        return lines

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        """Change something `seat` may not see: another seat's standing orders, the
        spell in its unspent charm, or (before the reveal) its advanced rolls."""
        others = [s for s in state["seats"] if s != seat]
        if seat == "*" or not others:
            return None
        s = clone(state)
        other = pick(others)
        f = s["fighters"][other]
        if s["phase"] == "arm" and s["options"]["combatants"] == "advanced" and \
                pick([True, False]):
            f["bonus_hp"] = f["bonus_hp"] % 6 + 1
            f["hp"] = f["max_hp"] = 10 + f["bonus_hp"]
            f["specialty_count"] = f["specialty_count"] % 6 + 1
            return s
        if charm_ready(f) and pick([True, True, False]):
            f["charm"]["spell"] = pick([sp for sp in catalog.SPELLS if sp != f["charm"]["spell"]])
            return s
        if f["standing"] and pick([True, False]):
            f["standing"].pop()
        else:
            f["standing"].append({"order": {"op": pick(["reroll", "keep"])}})
        return s

    def seat_bot(self, view: dict[str, Any], prompt: dict[str, Any], seat: str,
                 pick: Pick) -> str | None:
        """games/combat_dice/bot.py: a steady fighter from the seat's view and prompt."""
        return bot.seat_bot(view, prompt, seat, pick)

    def board(self, view: dict[str, Any]) -> str | None:
        """An SVG of the view (games/combat_dice/board.py)."""
        return board_svg(view)


def _drop_clashes(lines: list[str]) -> list[str]:
    """Random order sets must be legal: one unconditional reroll choice, one WIELD,
    one CAST."""
    seen: set[str] = set()
    out = []
    for line in lines:
        words = line.split()
        standing = words[0] == "STANDING"
        head = words[1] if standing else words[0]
        group = {"REROLL": "roll", "KEEP": "roll"}.get(head, head)
        key = f"{standing}:{group}"
        if head in ("REROLL", "KEEP", "WIELD", "CAST"):
            if key in seen:
                continue
            seen.add(key)
        out.append(line)
    return out


ENGINE = CombatDice()
