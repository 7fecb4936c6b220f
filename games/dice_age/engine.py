"""Dice Age as a rules engine (the contract is games.core.engine.Engine).

Sequential play: one seat owes each decision (a draft pick, a roll, reading a die that
rests between two sides, a level-4 icon choice; from level 5 an effect's target or a
short out-of-turn reaction; at level 7 every seat chooses its Legion at once). A seat's
standing orders settle its decisions without asking it, which is how a player plays
ahead between deadlines. The rules live in rules/, the order language in orders.py.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.engine import REVISION, Engine, Option, Pick
from games.core.orders import merge_standing
from games.core.rng import RngBase
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid

from . import orders as order_lang
from .board import html as board_html
from .dice import DICE, die_type, face_text, spec
from .levels import level_rules, rules
from .report import render
from .rules import effects, flow, legion, steps, windows
from .rules import setup as setup_rules
from .state import (
    LEVELS,
    State,
    barred,
    dice_order,
    in_pool,
    in_revision_order,
    invariants,
    new_state,
    owned,
    playable,
    rollable,
)

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
                             "wasteland, 4 dealt by colour and icon choice, 5 the thirteen "
                             "effects and reactions, 6 the initiates' what-ifs, "
                             "7 secret Legions"),
        "points": Option(500, choices=(300, 500, 750, 1000),
                         help="level 7: the value of each Legion"),
    }
    hidden_information = True  # each seat's standing orders are its own secret
    revision = 4
    revisions = {
        1: "the rules as they were before revisions (every game stored before 1 Dec 2026)",
        2: "levels 5-7: a knocked-out seat's new round passes over a seat owing a skipped "
           "turn, as at levels 1-4 (revision 1 handed it to the next seat, which took "
           "its skip later). Not gated, since no recorded game could reach them: a "
           "chaos's lowest die swept away by its own cross no longer rests on the Ledges "
           "(it broke the state checks); the chaos report lists the effects rolled "
           "(reports are not replayed)",
        3: "the dice are walked in catalogue order (a Legion's copies after their first), "
           "not in the order of the stored state's dice: which die a tie picks (the "
           "default roll, the die a chaos keeps, the suspended die used), the order of "
           "the choices a prompt lists and of the dice a report names, the dice dealt "
           "at levels 4-6 and the Legion turn of level 7 (revisions 1-2 walk the dice "
           "sorted by id, as the service always handed them); a Roman numeral equalling "
           "the Number (level 6) may still capture; a Double arrow may double a capture; "
           "a Pair may follow a chaos (level 6); a turn begun with a standing Square "
           "counts once towards per un pugno di dadi; a radiation's roller chooses which of "
           "other players' copies comes back (level 7)",
        4: "the rules audit continued: every die used in a main roll is barred from the "
           "roller's next main roll (a kept triangle result, each die whose result a "
           "chaos counted), not only the die he rolled; a triangle within a chaos is not "
           "a main roll of its own, its kept result joins the chaos's (a lower number, an "
           "effect not yet rolled); at level 6 a Pair may match any die of a triangle "
           "throw, each throw; a Square played is an effect a Double arrow may double "
           "(the Square keeps a second use); a reaction window set aside while a Square "
           "plays out is asked again as it stands. Not gated, since it crashed: a stale "
           "window answered with a die already spent is no reaction",
    }
    # Random full games per conformance run (each replayed from its record): 100 take
    # about 100 s of CI's SQLite pass; a developer's run draws new seeds every time.
    conformance_examples = 100

    # -- setup --------------------------------------------------------------------
    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        options = self.validate_options(options)
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ValueError("Dice Age is played by 2 to 4 players")
        level = options["level"]
        state = new_state(seats, level, options["points"])
        if REVISION in options:  # the rules read it during setup (the base class stamps it
            state[REVISION] = options[REVISION]  # again, to the same value, afterwards)
        legions = level_rules(level).legions
        events = [Event("setup", {"level": level, "seats": list(seats),
                                  "dice": dice_order(state),
                                  **({"points": options["points"]} if legions else {})})]
        if legions:
            state["pending"] = {"kind": "legion", "seat": None, "seats": list(seats)}
            return state, events
        flow.unpack(state)
        setup_rules.first_player(state, rng, events)
        if rules(state).draft:
            state["pending"] = {"kind": "draft", "seat": state["first"]}
        else:
            setup_rules.distribute(state, rng, events)
            flow.start(state, state["first"])
            steps.run(state, rng, events)
        return flow.pack(state), events

    # -- who owes orders -----------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        state = in_revision_order(state)
        pending = state["pending"]
        if pending is None:
            return None
        if pending["kind"] == "legion":
            return Decision("legion", {s: order_lang.prompt(state, s)
                                       for s in pending["seats"]})
        seat = pending["seat"]
        reaction = pending["kind"] in ("react", "defend")
        return Decision(pending["kind"], {seat: order_lang.prompt(state, seat)},
                        reaction=reaction)

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        state = in_revision_order(state)
        if state["pending"] is None:
            raise OrdersInvalid([OrderError(0, "the game is over")])
        return order_lang.parse(state, seat, text)

    def default_orders(self, state: State, seat: str) -> Orders:
        state = in_revision_order(state)
        return order_lang.default(state, seat)

    # -- resolution ----------------------------------------------------------------
    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        if state["pending"] is None:
            raise ValueError("the game is over; there is nothing to resolve")
        s = flow.unpack(clone(in_revision_order(state)))
        events: list[Event] = []
        if s["pending"]["kind"] == "legion":
            self._legions(s, orders, rng, events)
        else:
            seat = s["pending"]["seat"]
            given = orders.get(seat) or self.default_orders(state, seat)
            items = self._standing(s, seat, given, events)
            order = order_lang.pick_order(s, seat, items) or order_lang.default_order(s, seat)
            self._apply(s, seat, order, rng, events, "default" if given.default else "orders")
            if rules(s).effects:
                self._squares(s, seat, given.items, rng, events)
        for _ in range(AUTO_LIMIT):  # standing orders settle what they cover
            if s["pending"] is None or s["pending"]["kind"] == "legion":
                break
            who = s["pending"]["seat"]
            standing = order_lang.standing_answer(s, who)
            if standing is None:
                break
            events.append(Event("settled", {"seat": who, "order": order_lang.render(standing)},
                                (who,)))
            self._apply(s, who, standing, rng, events, "standing")
        return flow.pack(s), events

    def _standing(self, s: State, seat: str, given: Orders, events: list[Event]
                  ) -> list[dict[str, Any]]:
        kept, items = merge_standing(s["standing"][seat], given.items)
        if kept != s["standing"][seat]:
            events.append(Event("standing", {"seat": seat, "orders": [
                order_lang.GRAMMAR.render(i) for i in kept]}, (seat,)))
        s["standing"][seat] = kept
        return items

    def _legions(self, s: State, orders: dict[str, Orders], rng: RngBase,
                 events: list[Event]) -> None:
        """Level 7: every Legion arrives at once; then the d6 for the first player."""
        chosen: dict[str, list[dict[str, Any]]] = {}
        for seat in s["seats"]:
            given = orders.get(seat) or order_lang.default(s, seat)
            items = self._standing(s, seat, given, events)
            mine = [i["order"] for i in items if "order" in i and
                    i["order"]["op"] in ("legion", "general", "reserve")]
            if not mine or legion.problems(s, mine):
                mine = legion.default_legion(s)
                events.append(Event("legion-default", {"seat": seat}))
            chosen[seat] = mine
        legion.reveal(s, chosen, events)
        s["pending"] = None
        setup_rules.first_player(s, rng, events)
        flow.start(s, s["first"])
        steps.run(s, rng, events)

    def _squares(self, s: State, seat: str, items: list[dict[str, Any]], rng: RngBase,
                 events: list[Event]) -> None:
        """SQUARE lines sent with any decision are played right after it."""
        for item in items:
            order = item.get("order")
            if item.get("standing") or not order or order["op"] != "square":
                continue
            why = order_lang.square_problem(s, seat, order)
            if why and s["winner"] is None:
                events.append(Event("square-refused", {"seat": seat, "why": why}))
            if s["winner"] is None and why is None:
                pending, s["pending"] = s["pending"], None
                queue_before = len(s["queue"])
                windows.play_square(s, seat, order, events)
                if pending is not None:
                    # the decision in progress waits behind the Square and its Nut window
                    s["queue"].insert(len(s["queue"]) - queue_before, {"do": "resume",
                                                                        "pending": pending})
                steps.run(s, rng, events)

    def _apply(self, s: State, seat: str, order: dict[str, Any], rng: RngBase,
               events: list[Event], how: str = "orders") -> None:
        """Carry out the order that answers the pending decision, then the turn's steps."""
        kind = s["pending"]["kind"]
        op = order["op"]
        if kind == "draft":
            die = next(d for d in order["dice"] if d in in_pool(s))
            setup_rules.take(s, seat, die, events)
        elif kind == "icon":
            if op == "skip":
                flow.skip(s, seat, s["pending"]["die"], events)
            else:
                flow.recall(s, seat, order["die"], events)
        elif kind == "roll":
            flow.main_roll(s, seat, order["die"], rng, events)
        elif kind == "read":
            flow.choose_side(s, seat, order["face"], events)
        elif kind == "target":
            if how == "default":
                events.append(Event("default", {"seat": seat, "order": order_lang.render(order)}))
            effects.choose_target(s, seat, order, rng, events)
        elif kind == "defend":
            if how == "default":
                events.append(Event("default", {"seat": seat, "order": order_lang.render(order)}))
            effects.defend(s, seat, order["die"], events)
        elif kind == "triangle":
            if op == "keep":
                effects.keep(s, seat, order["die"], events)
            else:
                effects.triangle(s, seat, order["die"], events)
        elif kind == "chaos":
            effects.apply_chaos(s, seat, order["icon"], rng, events)
        elif kind == "react":
            windows.react(s, seat, order, events, how=how)
        else:  # pragma: no cover - the grammar knows no other decision
            raise ValueError(f"unknown decision {kind}")
        steps.run(s, rng, events)

    # -- what leaves the engine ------------------------------------------------------
    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """The whole table is open; each seat's standing orders, General and reserve are
        its own (a General shows once it has acted)."""
        state = in_revision_order(state)
        gm = seat == "*"
        level = state["level"]
        lv = rules(state)
        players = {}
        for who in state["seats"]:
            entry: dict[str, Any] = {
                place: [_entry(state, d) for d in owned(state, who, place)]
                for place in ("garden", "field", "wasteland")}
            entry.update(out=who in state["out"], skips=state["skips"][who],
                         playable=len(playable(state, who)))
            if lv.effects:
                entry.update(last=", ".join(barred(state, who)) or None,
                             forced=list(state["forced"][who]))
            if gm or who == seat:
                entry["standing"] = [order_lang.GRAMMAR.render(i)
                                     for i in state["standing"][who]]
                if lv.general:
                    entry.update(general=state["general"][who],
                                 reserve=list(state["reserve"][who]))
            players[who] = entry
        pending = state["pending"]
        shown_pending = None
        if pending is not None:
            shown_pending = {k: pending[k] for k in ("kind", "seat", "die", "window", "effect",
                                                      "icon", "seats") if k in pending}
            if "sides" in pending:
                shown_pending["sides"] = [face_text(f) for f in pending["sides"]]
        types = list(DICE) if lv.legions else sorted({die_type(d) for d in state["dice"]})
        return {
            "ruleset": self.name, "level": level, "seats": list(state["seats"]),
            "you": seat if seat in state["seats"] else None,
            "number": state["number"], "round": state["round"], "rolls": state["rolls"],
            "first": state["first"], "players": players,
            "centre": in_pool(state),
            "limbo": [d for d in dice_order(state) if state["dice"][d]["place"] == "limbo"],
            "pending": shown_pending,
            "winner": state["winner"],
            "dice": {d: {"name": spec(d).name, "colour": spec(d).colour,
                         "shape": spec(d).shape, "value": spec(d).value,
                         "faces": [face_text(f) for f in spec(d).faces]}
                     for d in [*dice_order(state), *(t for t in types if t not in state["dice"])]},
            **({"points": state["points"]} if lv.legions else {}),
        }

    def report(self, events: list[Event], viewer: str | None) -> str:
        return render(events, viewer)

    def board(self, view: dict[str, Any]) -> str | None:
        return board_html(view)

    def invariants(self, state: State) -> list[str]:
        return invariants(in_revision_order(state))

    def result(self, state: State) -> dict[str, Any]:
        if state["winner"] is None:
            return {"winners": [], "summary": ""}
        return {"winners": [state["winner"]],
                "summary": f"{state['winner']} is the last player with dice to roll "
                           f"(level {state['level']}, {state['rolls']} rolls)"}

    # -- conformance hooks -----------------------------------------------------------
    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        state = in_revision_order(state)
        legal = order_lang.legal_lines(state, seat)
        lines = [pick(legal)]
        kind = state["pending"]["kind"]
        if kind == "draft":
            pool = in_pool(state)
            lines += pick([[], [], ["STANDING PICK " + " ".join(pool[:3])],
                           ["PICK " + " ".join(reversed(pool))]])
        elif kind == "roll":
            dice = rollable(state, seat)
            a, b = pick(dice), pick(dice)
            lines = pick([lines, lines, [f"IF NUMBER < {pick([3, 6, 9, 12])} THEN ROLL {a} "
                                         f"ELSE ROLL {b}"],
                          [*lines, f"STANDING IF NUMBER > 8 THEN ROLL {a}"],
                          [*lines, f"STANDING ROLL {a}"], [*lines, "CANCEL STANDING"]])
        elif kind == "icon":
            lines += pick([[], ["STANDING SKIP"], ["CANCEL STANDING"]])
        elif kind == "react":
            window = state["pending"]["window"]
            lines = pick([lines, lines, [f"PASS {window.upper()}"],
                          [*lines, pick(STANDING_REACTIONS)], [*lines, "CANCEL STANDING"]])
        elif kind == "legion":
            lines = [pick(legal).replace("\n", "\n")]
            lines += pick([[], ["RESERVE " + pick([d for d in DICE if DICE[d].value <= 60])]])
        if rules(state).effects and kind not in ("legion",):
            lines += self._random_square(state, seat, pick)
        return "\n".join(lines)

    def _random_square(self, state: State, seat: str, pick: Pick) -> list[str]:
        from .state import held
        if not held(state, seat, "square"):
            return []
        options = [f"SQUARE {t} {d}" for t in state["seats"] if t not in state["out"]
                   for d in owned(state, t, "garden", "field")
                   if order_lang.square_problem(
                       state, seat, {"op": "square", "seat": t, "die": d}) is None]
        if not options:
            return []
        line = pick(options)
        return pick([[], [line], ["STANDING " + line]])

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        """Another seat's standing orders are private: change them."""
        if seat == "*" or state["pending"] is None:
            return None
        state = in_revision_order(state)
        others = [s for s in state["seats"] if s != seat]
        s = clone(state)
        target = pick(others)
        if rules(state).general and state["dice"] and pick([True, False]):
            mine = owned(s, target)
            s["reserve"][target] = s["reserve"][target] + ["SUN"]
            if mine:
                s["general"][target] = pick([None, *mine]) if s["general"][target] else mine[0]
            return s
        die = pick(dice_order(s) or list(DICE))
        s["standing"][target] = s["standing"][target] + [
            {"if": {"test": "compare", "name": "NUMBER", "op": "<", "value": -1},
             "then": {"op": "roll", "die": die}, "else": None}]
        return s


def _shown(face: Any) -> Any:
    return None if face is None else face_text(face)


def _entry(state: State, die: str) -> dict[str, Any]:
    info = state["dice"][die]
    entry: dict[str, Any] = {"die": die, "face": _shown(info["face"])}
    susp = info.get("susp")
    if susp:
        entry["suspended"] = {"effect": susp["effect"] or "resting", "uses": susp["uses"],
                              "d6": list(susp["d6"])}
    return entry


STANDING_REACTIONS = [
    "STANDING NUT WHEN TARGETED BY PIT", "STANDING NUT WHEN TARGETED",
    "STANDING GEAR IF ROLL > NUMBER", "STANDING SMILE - IF ROLL > NUMBER",
    "STANDING DOUBLE WHEN CROSS", "STANDING PASS GEAR", "STANDING PAIR",
    "STANDING PASS DOUBLE", "STANDING IF ROLL > 6 THEN GEAR",
]


ENGINE = DiceAge()
