"""Dice Age as a rules engine (the contract is games.core.engine.Engine).

Sequential play: one seat owes each decision (a draft pick, a roll, reading a die that
rests between two sides, a level-4 icon choice). A seat's standing orders settle its
decisions without asking it, which is how a player plays ahead between deadlines. The
rules live in rules/, the order language in orders.py.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.engine import Engine, Option, Pick
from games.core.orders import merge_standing
from games.core.rng import RngBase
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid

from . import orders as order_lang
from .board import svg as board_svg
from .dice import DICE, face_text
from .report import render
from .rules import setup as setup_rules
from .rules import turn as turn_rules
from .state import LEVELS, State, in_pool, invariants, new_state, owned, playable

AUTO_LIMIT = 500
"""Most decisions standing orders may settle in one resolution before a seat is asked."""


class DiceAge(Engine):
    name = "dice_age"
    title = "Dice Age"
    min_seats = 2
    max_seats = 4
    options = {
        "level": Option(1, choices=LEVELS,
                        help="rules level: 1 lower number, 2 all the dice, 3 field and "
                             "wasteland, 4 dealt by colour and icon choice "
                             "(levels 5-7 are not implemented yet)"),
    }
    hidden_information = True  # each seat's standing orders are its own secret
    conformance_examples = 150

    # -- setup --------------------------------------------------------------------
    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        options = self.validate_options(options)
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ValueError("Dice Age is played by 2 to 4 players")
        level = options["level"]
        state = new_state(seats, level)
        events = [Event("setup", {"level": level, "seats": list(seats),
                                  "dice": list(state["dice"])})]
        setup_rules.first_player(state, rng, events)
        if level >= 4:
            setup_rules.distribute(state, rng, events)
        else:
            state["pending"] = {"kind": "draft", "seat": state["first"]}
        return state, events

    # -- who owes orders -----------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        pending = state["pending"]
        if pending is None:
            return None
        seat = pending["seat"]
        return Decision(pending["kind"], {seat: order_lang.prompt(state, seat)})

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        if state["pending"] is None:
            raise OrdersInvalid([OrderError(0, "the game is over")])
        return order_lang.parse(state, seat, text)

    def default_orders(self, state: State, seat: str) -> Orders:
        return order_lang.default(state, seat)

    # -- resolution ----------------------------------------------------------------
    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        if state["pending"] is None:
            raise ValueError("the game is over; there is nothing to resolve")
        s = clone(state)
        events: list[Event] = []
        seat = s["pending"]["seat"]
        given = orders.get(seat) or self.default_orders(state, seat)
        kept, items = merge_standing(s["standing"][seat], given.items)
        if kept != s["standing"][seat]:
            events.append(Event("standing", {"seat": seat, "orders": [
                order_lang.GRAMMAR.render(i) for i in kept]}, (seat,)))
        s["standing"][seat] = kept
        order = order_lang.pick_order(s, seat, items) or order_lang.default_order(s, seat)
        self._apply(s, seat, order, rng, events)
        for _ in range(AUTO_LIMIT):  # standing orders settle what they cover
            if s["pending"] is None:
                break
            who = s["pending"]["seat"]
            standing = order_lang.pick_order(s, who, s["standing"][who])
            if standing is None:
                break
            events.append(Event("settled", {"seat": who, "order": order_lang.render(standing)},
                                (who,)))
            self._apply(s, who, standing, rng, events)
        return s, events

    def _apply(self, s: State, seat: str, order: dict[str, Any], rng: RngBase,
               events: list[Event]) -> None:
        op = order["op"]
        if op == "pick":
            die = next(d for d in order["dice"] if d in in_pool(s))
            setup_rules.take(s, seat, die, events)
        elif op == "roll":
            turn_rules.roll(s, seat, order["die"], rng, events)
        elif op == "read":
            turn_rules.choose_side(s, seat, order["face"], events)
        elif op == "skip":
            turn_rules.skip(s, seat, s["pending"]["die"], events)
        elif op == "recall":
            turn_rules.recall(s, seat, order["die"], events)
        else:  # pragma: no cover - the grammar knows no other order
            raise ValueError(f"unknown order {op}")

    # -- what leaves the engine ------------------------------------------------------
    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """The whole table is open; only each seat's standing orders are its own."""
        gm = seat == "*"
        players = {}
        for who in state["seats"]:
            entry: dict[str, Any] = {
                place: [{"die": d, "face": _shown(state["dice"][d]["face"])}
                        for d in owned(state, who, place)]
                for place in ("garden", "field", "wasteland")}
            entry.update(out=who in state["out"], skips=state["skips"][who],
                         playable=len(playable(state, who)))
            if gm or who == seat:
                entry["standing"] = [order_lang.GRAMMAR.render(i)
                                     for i in state["standing"][who]]
            players[who] = entry
        pending = state["pending"]
        return {
            "ruleset": self.name, "level": state["level"], "seats": list(state["seats"]),
            "you": seat if seat in state["seats"] else None,
            "number": state["number"], "round": state["round"], "rolls": state["rolls"],
            "first": state["first"], "players": players,
            "centre": in_pool(state),
            "limbo": [d for d, i in state["dice"].items() if i["place"] == "limbo"],
            "pending": None if pending is None else {
                "kind": pending["kind"], "seat": pending["seat"],
                **({"die": pending["die"]} if "die" in pending else {}),
                **({"sides": [face_text(f) for f in pending["sides"]]}
                   if "sides" in pending else {})},
            "winner": state["winner"],
            "dice": {d: {"name": DICE[d].name, "colour": DICE[d].colour,
                         "shape": DICE[d].shape,
                         "faces": [face_text(f) for f in DICE[d].faces]}
                     for d in state["dice"]},
        }

    def report(self, events: list[Event], viewer: str | None) -> str:
        return render(events, viewer)

    def board(self, view: dict[str, Any]) -> str | None:
        return board_svg(view)

    def invariants(self, state: State) -> list[str]:
        return invariants(state)

    def result(self, state: State) -> dict[str, Any]:
        if state["winner"] is None:
            return {"winners": [], "summary": ""}
        return {"winners": [state["winner"]],
                "summary": f"{state['winner']} is the last player with dice to roll "
                           f"(level {state['level']}, {state['rolls']} rolls)"}

    # -- conformance hooks -----------------------------------------------------------
    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        legal = order_lang.legal_lines(state, seat)
        lines = [pick(legal)]
        kind = state["pending"]["kind"]
        if kind == "draft":
            pool = in_pool(state)
            lines += pick([[], [], ["STANDING PICK " + " ".join(pool[:3])],
                           ["PICK " + " ".join(reversed(pool))]])
        elif kind == "roll":
            dice = playable(state, seat)
            a, b = pick(dice), pick(dice)
            lines = pick([lines, lines, [f"IF NUMBER < {pick([3, 6, 9, 12])} THEN ROLL {a} "
                                         f"ELSE ROLL {b}"],
                          [*lines, f"STANDING IF NUMBER > 8 THEN ROLL {a}"],
                          [*lines, f"STANDING ROLL {a}"], [*lines, "CANCEL STANDING"]])
        elif kind == "icon":
            lines += pick([[], ["STANDING SKIP"], ["CANCEL STANDING"]])
        return "\n".join(lines)

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        """Another seat's standing orders are private: change them."""
        if seat == "*" or state["pending"] is None:
            return None
        others = [s for s in state["seats"] if s != seat]
        s = clone(state)
        target = pick(others)
        die = pick(list(s["dice"]))
        s["standing"][target] = s["standing"][target] + [
            {"if": {"test": "compare", "name": "NUMBER", "op": "<", "value": -1},
             "then": {"op": "roll", "die": die}, "else": None}]
        return s


def _shown(face: Any) -> Any:
    return None if face is None else face_text(face)


ENGINE = DiceAge()
