"""GM-adjudicated games: the GM is the rules engine (issue 27).

A game turn is two decisions of the service: the players' orders (free text, one per
seat, simultaneous), then the adjudication, owed by the pseudo-seat `GM`, which the
game's GM plays from the desk (gm/gmadj). Its "orders" are the adjudication language
of adjudication.py: reports, private reports, sheets, notes, dice rolls, deck draws
and seat changes. Dice and draws come through the turn's labelled RNG like every
engine's, so export and verify recompute them.

A GM who misses the adjudication deadline gets the default: the turn records that the
adjudication is late and asks the GM again (the service reminds the GM).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.core.canonical import clone
from games.core.engine import Engine, Option, Pick
from games.core.rng import RngBase
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid

from . import adjudication, dice, setup_options
from .adjudication import GM
from .report import render

State = dict[str, Any]
REVEALS = ("after_turn", "gm_only", "never")


class GmAdjudicated(Engine):
    name = "gm_adjudicated"
    title = "GM-adjudicated game"
    min_seats = 1
    max_seats = setup_options.MAX_SEATS
    # the seats the service never gives a player: played by the game's GM (the desk)
    pseudo_seats: ClassVar[tuple[str, ...]] = (GM,)
    free_text_orders = True
    options = {
        "seats": Option("", help="the seats' names, separated by commas (e.g. France, "
                                 "England); empty: P1, P2, ..."),
        "help": Option("", help="order help shown to every seat"),
        "seat_help": Option("", help="order help per seat: `Seat: help`, one a line or "
                                      "separated by ; (e.g. France: armies first; "
                                      "England: fleets first)"),
        "reveal": Option("after_turn", choices=REVEALS,
                         help="after_turn: every seat's orders are shown to all when the "
                              "adjudication is published; gm_only: only the GM reads them "
                              "(in its reports too); never: only the GM, on the desk"),
        "max_lines": Option(0, min=0, max=500, help="most lines of orders a seat may send "
                                                    "(0: no cap)"),
        "first_words": Option("", help="if set, each line of orders must start with one "
                                       "of these words (commas between)"),
        "decks": Option("", help="named decks to draw from: `name: card, card`, one a line "
                                  "or separated by ; (e.g. omens: raven, comet, eclipse)"),
        "remind_gm": Option("on", choices=("on", "off"),
                            help="on: the GM is reminded by mail when the adjudication "
                                 "is late"),
    }
    hidden_information = True
    revision = 1
    revisions = {1: "the first rules of GM-adjudicated games"}
    conformance_examples = 60

    # -- seats and options ---------------------------------------------------------
    def seat_names_for(self, count: int, options: dict[str, Any] | None) -> list[str]:
        named = setup_options.seat_list((options or {}).get("seats", ""))
        generic = (f"P{i + 1}" for i in range(10 * count + 10))
        extra = [n for n in generic if n not in named]
        return (named + extra)[:count]

    def named_seat_count(self, options: dict[str, Any] | None) -> int:
        return len(setup_options.seat_list((options or {}).get("seats", "")))

    def seats_in_play(self, state: State, seats: list[str]) -> list[str]:
        """Seats set up, then those the GM added (seats that left still read)."""
        return [*seats, *(x for x in [*state["seats"], *state["left"]] if x not in seats)]

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        valid = super().validate_options(options)
        setup_options.check(valid)
        return valid

    # -- the contract --------------------------------------------------------------
    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        options = self.validate_options(options)
        decks = {name: {"cards": list(cards), "left": list(cards)}
                 for name, cards in setup_options.decks(options["decks"]).items()}
        state = {"version": 1, "options": options, "seats": list(seats), "left": [],
                 "turn": 1, "phase": "orders", "orders": {}, "missing": [],
                 "sheets": {s: {"text": "", "version": 0} for s in seats},
                 "notes": {"text": "", "version": 0}, "decks": decks, "late": 0,
                 "rolls": 0}
        return state, [Event("setup", {"seats": list(seats), "reveal": options["reveal"]})]

    def decision(self, state: State) -> Decision | None:
        if state["phase"] == "over":
            return None
        if state["phase"] == "adjudicate":
            return Decision("adjudicate", {GM: self._gm_prompt(state)})
        return Decision("orders", {s: self._prompt(state, s) for s in state["seats"]})

    def _prompt(self, state: State, seat: str) -> dict[str, Any]:
        options = state["options"]
        help_parts = [setup_options.seat_help(options["seat_help"]).get(seat, ""),
                      options["help"]]
        words = [w.strip().upper() for w in options["first_words"].split(",") if w.strip()]
        rules = []
        if options["max_lines"]:
            rules.append(f"at most {options['max_lines']} lines")
        if words:
            rules.append("each line starts with one of: " + ", ".join(words))
        help_text = " ".join(p for p in help_parts if p) or \
            "Write your orders in your own words; the GM reads them."
        if rules:
            help_text += " (" + "; ".join(rules) + ")"
        example = (words[0] + " as planned") if words else "As planned."
        return {"title": f"Turn {state['turn']}: orders for {seat}", "help": help_text,
                "choices": [], "example": example, "free_text": True}

    def _gm_prompt(self, state: State) -> dict[str, Any]:
        return {"title": f"Turn {state['turn']}: the GM's adjudication",
                "help": "The GM writes the reports at the adjudication desk.",
                "choices": [], "example": "@public\nThe turn passes quietly.",
                "pseudo_seat": True, "late": state["late"]}

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        phase = state["phase"]
        if phase == "over":
            raise OrdersInvalid([OrderError(0, "the game is over")])
        if seat == GM:
            if phase != "adjudicate":
                raise OrdersInvalid([OrderError(0, "the players' orders are not all in yet")])
            return adjudication.parse(state, text)
        if phase != "orders" or seat not in state["seats"]:
            raise OrdersInvalid([OrderError(0, f"{seat} owes no orders now")])
        return adjudication.check_player(state, seat, text)

    def default_orders(self, state: State, seat: str) -> Orders:
        """A seat that sends nothing sent NO ORDERS (the GM adjudicates it as missing);
        a GM who publishes nothing in time is late (the turn asks the GM again)."""
        return Orders(seat, [], "" if seat == GM else adjudication.NO_ORDERS, default=True)

    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        if state["phase"] == "orders":
            return self._close_orders(state, orders)
        if state["phase"] == "adjudicate":
            given = orders.get(GM) or self.default_orders(state, GM)
            if given.default:
                s = clone(state)
                s["late"] += 1
                return s, [Event("late", {"turn": s["turn"], "times": s["late"]})]
            return self._adjudicate(state, given.items, rng)
        raise ValueError("the game is over; there is nothing to resolve")

    def _close_orders(self, state: State, orders: dict[str, Orders]
                      ) -> tuple[State, list[Event]]:
        s = clone(state)
        got = {seat: orders[seat].text for seat in s["seats"]
               if seat in orders and orders[seat].items}
        s["orders"] = got
        s["missing"] = [seat for seat in s["seats"] if seat not in got]
        s["phase"] = "adjudicate"
        events = [Event("closed", {"turn": s["turn"], "in": [x for x in s["seats"] if x in got],
                                   "missing": s["missing"]})]
        events += [Event("own", {"seat": seat, "text": got[seat]}, (seat,))
                   for seat in s["seats"] if seat in got]
        events.append(Event("all", {"orders": [[x, got[x]] for x in s["seats"] if x in got]},
                            (GM,)))
        return s, events

    def _adjudicate(self, state: State, items: list[dict[str, Any]], rng: RngBase
                    ) -> tuple[State, list[Event]]:
        s = clone(state)
        events: list[Event] = []
        results: dict[str, str] = {}
        for item in items:
            op = item["op"]
            if op == "deck":
                s["decks"][item["name"]] = {"cards": list(item["cards"]),
                                            "left": list(item["cards"])}
                events.append(Event("deck", {"name": item["name"],
                                             "size": len(item["cards"])}, (GM,)))
            elif op == "roll":
                s["rolls"] += 1
                result = dice.roll(rng, f"roll {s['rolls']}: {item['label']}", item["expr"])
                results[item["label"]] = str(result["total"])
                events.append(Event("roll", {"n": s["rolls"], "label": item["label"],
                                             "secret": item["secret"],
                                             "text": dice.describe(result),
                                             "total": result["total"]},
                                    (GM,) if item["secret"] else None))
            elif op == "draw":
                s["rolls"] += 1
                deck = s["decks"][item["deck"]]
                cards = dice.draw(rng, f"draw {s['rolls']}: {item['label']}", deck,
                                  item["count"])
                results[item["label"]] = ", ".join(cards) or "(the deck is empty)"
                events.append(Event("draw", {"n": s["rolls"], "label": item["label"],
                                             "deck": item["deck"], "cards": cards,
                                             "left": len(deck["left"])}))
        fill = _filler(results)
        reveal = s["options"]["reveal"]
        shown = [[x, s["orders"][x]] for x in s["seats"] if x in s["orders"]]
        if reveal == "after_turn":
            events.append(Event("revealed", {"turn": s["turn"], "orders": shown,
                                             "missing": s["missing"]}))
        elif reveal == "gm_only":
            events.append(Event("revealed", {"turn": s["turn"], "orders": shown,
                                             "missing": s["missing"]}, (GM,)))
        for item in items:
            op = item["op"]
            if op == "public":
                events.append(Event("public", {"text": fill(item["text"])}))
            elif op == "private":
                events.append(Event("private", {"seat": item["seat"],
                                                "text": fill(item["text"])}, (item["seat"],)))
            elif op == "sheet":
                sheet = s["sheets"][item["seat"]]
                sheet["text"], sheet["version"] = fill(item["text"]), sheet["version"] + 1
                events.append(Event("sheet", {"seat": item["seat"], **sheet},
                                     (item["seat"],)))
            elif op == "notes":
                s["notes"] = {"text": fill(item["text"]),
                              "version": s["notes"]["version"] + 1}
                events.append(Event("notes", dict(s["notes"]), (GM,)))
        for item in items:
            if item["op"] == "add":
                s["seats"].append(item["seat"])
                s["sheets"].setdefault(item["seat"], {"text": "", "version": 0})
                events.append(Event("seat-added", {"seat": item["seat"]}))
            elif item["op"] == "remove":
                s["seats"].remove(item["seat"])
                s["left"].append(item["seat"])
                events.append(Event("seat-removed", {"seat": item["seat"]}))
        ended = any(item["op"] == "end" for item in items)
        s["turn"] += 1
        s["orders"], s["missing"], s["late"] = {}, [], 0
        s["phase"] = "over" if ended else ("orders" if s["seats"] else "adjudicate")
        if ended:
            events.append(Event("ended", {"turn": state["turn"]}))
        return s, events

    # -- what leaves the engine ------------------------------------------------------
    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """Public: the seats, the turn and phase, who is in. A seat adds its own sheet
        and, until the turn closes, its own orders. The GM ("*" or GM) sees all."""
        options = state["options"]
        view: dict[str, Any] = {
            "game": self.name, "turn": state["turn"], "phase": state["phase"],
            "seats": list(state["seats"]), "left": list(state["left"]),
            "reveal": options["reveal"], "late": state["late"],
            "missing": list(state["missing"]) if state["phase"] == "adjudicate" else [],
            "decks": {name: len(d["left"]) for name, d in sorted(state["decks"].items())},
        }
        if seat in ("*", GM):
            view["orders"] = {x: state["orders"][x] for x in sorted(state["orders"])}
            view["sheets"] = {x: dict(state["sheets"][x]) for x in sorted(state["sheets"])}
            view["notes"] = dict(state["notes"])
            view["deck_cards"] = {n: list(d["left"]) for n, d in sorted(state["decks"].items())}
        elif seat is not None and seat in state["sheets"]:
            view["sheet"] = dict(state["sheets"][seat])
            if seat in state["orders"]:
                view["my_orders"] = state["orders"][seat]
        return view

    def board(self, view: dict[str, Any]) -> str | None:
        sheet = view.get("sheet")
        if not sheet or not sheet.get("text"):
            return None
        from html import escape
        body = "".join(f"<p>{escape(line)}</p>" for line in sheet["text"].split("\n")
                       if line.strip())
        return (f'<section class="gm-sheet"><h3>Your sheet (version {sheet["version"]})'
                f"</h3>{body}</section>")

    def report(self, events: list[Event], viewer: str | None) -> str:
        return render(events, viewer)

    def result(self, state: State) -> dict[str, Any]:
        return {"winners": [], "summary": f"The GM ended the game after turn "
                                          f"{state['turn'] - 1}."}

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        if state["phase"] not in ("orders", "adjudicate", "over"):
            problems.append(f"unknown phase {state['phase']!r}")
        if len(set(state["seats"])) != len(state["seats"]):
            problems.append("a seat is listed twice")
        if set(state["seats"]) & set(state["left"]):
            problems.append("a seat both plays and has left")
        if not set(state["orders"]) <= set(state["seats"]):
            problems.append("orders from a seat not in the game")
        if state["phase"] == "orders" and state["orders"]:
            problems.append("orders kept while the turn is still open")
        if not set(state["seats"]) <= set(state["sheets"]):
            problems.append("a seat without a sheet")
        for name, deck in state["decks"].items():
            left = list(deck["left"])
            for card in left:
                if card not in deck["cards"]:
                    problems.append(f"deck {name}: {card!r} is not one of its cards")
        return problems

    # -- conformance hooks -------------------------------------------------------------
    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        if seat != GM:
            words = [w.strip().upper() for w in state["options"]["first_words"].split(",")
                     if w.strip()]
            lead = (pick(words) + " ") if words else ""
            lines = pick([1, 1, 2, 3])
            cap = state["options"]["max_lines"]
            if cap:
                lines = min(lines, cap)
            return "\n".join(f"{lead}{pick(['hold', 'advance', 'scout', 'trade'])} {i}"
                             for i in range(lines))
        out = ["@public", f"Turn {state['turn']} {{fate}} happens."]
        out.append(f"@roll fate: {pick(['2d6+1', 'd100', '4d6 keep 3', '3d8 kl 2 - 1'])}")
        if pick([True, False]):
            out.append(f"@secret-roll hidden: {pick(['d20', 'd6'])}")
        if state["decks"] and pick([True, False]):
            out.append(f"@draw card: {pick(sorted(state['decks']))} {pick([1, 2])}")
        else:
            out.append("@deck omens: raven, comet, eclipse")
        for seat_name in state["seats"]:
            if pick([True, False]):
                out += [f"@private {seat_name}", f"Only for {seat_name}: {{fate}}."]
            if pick([True, False]):
                out += [f"@sheet {seat_name}", f"HP {pick([3, 5, 8])}"]
        out += ["@notes", f"secret plan {pick([1, 2, 3])}"]
        if state["seats"] and pick([True, False, False]):
            out.append(f"@remove {pick(state['seats'])}")
        if pick([True, False, False]):
            out.append(f"@add Late {state['turn']}")
        if state["turn"] >= pick([2, 3, 4, 5]):
            out.append("@end")
        return "\n".join(out)

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        if seat in ("*", GM):
            return None
        s = clone(state)
        s["notes"] = {"text": s["notes"]["text"] + " (changed)",
                      "version": s["notes"]["version"] + 1}
        others = [x for x in s["sheets"] if x != seat]
        if others:
            other = pick(others)
            s["sheets"][other]["text"] += " (changed)"
        others = [x for x in s["orders"] if x != seat]
        if others:
            s["orders"][pick(others)] += " (changed)"
        for deck in s["decks"].values():
            deck["left"] = list(reversed(deck["left"]))
        return s


def _filler(results: dict[str, str]) -> Any:
    def fill(text: str) -> str:
        for label, value in results.items():
            text = text.replace("{" + label + "}", value)
        return text
    return fill


ENGINE = GmAdjudicated()
