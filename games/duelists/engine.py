"""Duelists: two champions, hidden plans, a secretly set die against the defender's guesses.

One service turn is one game turn: the attacker plans a card and sets the die for each
attack (possibly depending on the defender's choice), the defender picks the defending
card, the guesses and how to absorb damage, all at once. Choices the orders leave open
become the next decision (see rules/orders_in_play.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.core.canonical import clone
from games.core.engine import Engine, Pick, State
from games.core.rng import RngBase
from games.core.types import Decision, Event, Orders

from . import board, bot, bots, cards, hidden, prompts, report
from .orders import make, parse
from .rules import armor
from .rules import setup as setup_rules
from .rules.orders_in_play import store
from .rules.turn import advance, start_turn
from .state import HAND_SIZE, QUEUE_SIZE, TOKENS, Surrender, all_cards, other, player
from .view import view as build_view

STAGES = ("pick", "queue", "turn", "over")
KINDS = ("champion", "queue", "turn", "plan", "set", "defend", "absorb")


class DuelistsEngine(Engine):
    name: ClassVar[str] = "duelists"
    title: ClassVar[str] = "Duelists"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    hidden_information: ClassVar[bool] = True
    conformance_examples: ClassVar[int] = 200
    revision: ClassVar[int] = 2
    revisions: ClassVar[dict[int, str]] = {
        1: "the rules as they were before revisions (every game stored before 1 Dec 2026)",
        2: "a left-most card that begins the turn holding the Defended! token stays "
           "barred for the whole turn (revision 1 barred it only while it held the "
           "token, so a standing DEFEND LEFT defended with it on a double attack's "
           "second hit)",
    }

    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        self.validate_options(options)
        return setup_rules.begin(seats, rng)

    def decision(self, state: State) -> Decision | None:
        if state["stage"] == "over" or not state["awaiting"]:
            return None
        kinds = set(state["awaiting"].values())
        phase = state["stage"] if kinds == {"turn"} or state["stage"] != "turn" else kinds.pop()
        return Decision(phase, {seat: prompts.prompt(state, seat)
                                for seat in sorted(state["awaiting"])})

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        return parse(state, seat, text)

    def default_orders(self, state: State, seat: str) -> Orders:
        return make(state, seat, bots.default_lines(state, seat), default=True)

    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        s = clone(state)
        events: list[Event] = []
        owed = dict(s["awaiting"])
        got: dict[str, Orders] = {}
        for seat in sorted(owed):
            given = orders.get(seat)
            got[seat] = given if given is not None else self.default_orders(s, seat)
            if got[seat].default:
                events.append(Event("defaulted", {"seat": seat}))
                events.append(Event("default_text", {"seat": seat, "text": got[seat].text},
                                    (seat,)))
        try:
            self._apply(s, owed, got, rng, events)
        except Surrender as lost:
            s["stage"] = "over"
            s["awaiting"] = {}
            s["winner"] = other(s, lost.seat)
            s["reason"] = f"{lost.seat} could not draw ({lost.why})"
            events.append(Event("surrender", {"loser": lost.seat, "winner": s["winner"],
                                              "why": lost.why}))
        return s, events

    def _apply(self, s: State, owed: dict[str, str], got: dict[str, Orders], rng: RngBase,
               events: list[Event]) -> None:
        stage = s["stage"]
        if stage == "pick":
            (seat,) = owed
            setup_rules.pick(s, seat, got[seat].items[0]["order"]["name"], rng, events)
            return
        if stage == "queue":
            for seat in sorted(owed):
                chosen = [c for item in got[seat].items for c in item["order"]["cards"]]
                setup_rules.queue_up(s, seat, chosen, events)
            setup_rules.finish_queues(s, rng, events)
            start_turn(s, s["starter"], True, rng, events)
            advance(s, rng, events)
            return
        answer = any(kind != "turn" for kind in owed.values())
        for seat in sorted(owed):
            store(s, got[seat], answer=answer)
        s["awaiting"] = {}
        # The start-of-turn armor exchange: this resolution's lines of the owing seats;
        # standing ones once per game turn (not again when a decision is answered),
        # for both duelists whether or not they owed orders.
        for seat in sorted(owed) if answer else s["seats"]:
            plans = s["turn"]["orders"].get(seat, {}).get("plan", [])
            keep = sum(1 for item in plans[:1]
                       if item.get("order", {}).get("card") == cards.ARMOR)
            armor.at_start(s, seat, keep, rng, events, standing=not answer)
        advance(s, rng, events)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return build_view(state, seat)

    def report(self, events: list[Event], viewer: str | None) -> str:
        return report.render(events, viewer)

    def result(self, state: State) -> dict[str, Any]:
        if state["stage"] != "over":
            return {"winners": [], "summary": ""}
        champ = cards.champions()[player(state, state["winner"])["champion"]].name
        return {"winners": [state["winner"]],
                "summary": f"{state['winner']} ({champ}) wins: {state['reason']}."}

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        if state["stage"] not in STAGES:
            problems.append(f"unknown stage {state['stage']!r}")
        if (state["stage"] == "over") != (state["winner"] is not None):
            problems.append("a winner exists exactly when the duel is over")
        if state["stage"] == "over" and state["awaiting"]:
            problems.append("nobody owes orders in a finished duel")
        for seat, kind in state["awaiting"].items():
            if seat not in state["seats"] or kind not in KINDS:
                problems.append(f"bad awaiting entry {seat}: {kind}")
        for seat in state["seats"]:
            p = player(state, seat)
            if p["champion"] is None or not (p["deck"] or p["hand"] or p["queue"]
                                             or p["exhausted"]):
                continue
            owned = all_cards(p)
            expected = cards.champions()[p["champion"]].ids()
            if seat == state["starter"]:
                expected = expected[:-2]
            if sorted(owned) != sorted(expected):
                problems.append(f"{seat}: cards lost or duplicated")
            if p["hand"] != sorted(p["hand"]):
                problems.append(f"{seat}: hand not kept in deck-list order")
            if len(p["queue"]) > QUEUE_SIZE:
                problems.append(f"{seat}: more than {QUEUE_SIZE} queued cards")
            if len(p["hand"]) > HAND_SIZE + 10:
                problems.append(f"{seat}: impossible hand size")
            if sum(1 for slot in p["queue"] if slot["defended"]) > 1:
                problems.append(f"{seat}: two Defended! tokens")
            for slot in p["queue"]:
                if slot["up"] and cards.is_armor(slot["card"]):
                    problems.append(f"{seat}: armor left face up in the queue")
            for token in TOKENS:
                if p["tokens"][token] < 0:
                    problems.append(f"{seat}: negative {token} token")
            if p["tokens"]["disarmed"] > 1 or p["tokens"]["blinded"] > 1:
                problems.append(f"{seat}: more than one Disarmed!/Blinded! token")
        return problems

    # -- conformance hooks and bots ------------------------------------------------
    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        return "\n".join(bots.random_lines(state, seat, pick))

    def bot_orders(self, state: State, seat: str, pick: Pick) -> str:
        return "\n".join(bots.bot_lines(state, seat, pick))

    def seat_bot(self, view: dict[str, Any], prompt: dict[str, Any], seat: str,
                 pick: Pick) -> str | None:
        """games/duelists/bot.py: a sensible duelist from the seat's view and prompt."""
        return bot.seat_bot(view, prompt, seat, pick)

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        return hidden.perturb(state, seat, pick)

    def board(self, view: dict[str, Any]) -> str | None:
        """The view as an HTML board that wraps on a phone (games/duelists/board.py)."""
        return board.html(view)


ENGINE = DuelistsEngine()
