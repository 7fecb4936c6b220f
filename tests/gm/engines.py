"""A tiny engine for service tests ("tally"), so they test the service, not a rulebook.

Each turn every seat orders `ADD <1-3>`; each seat also rolls a secret d6 that only it
sees. The game ends when a seat's total reaches the target (option), or after
`max_turns` turns. Missing orders default to `ADD 1`.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.engine import Engine, Option
from games.core.orders import Grammar, OrderSyntax, expect_int
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid


def _add(tokens: list[str], ctx: Any) -> dict[str, Any]:
    if len(tokens) != 1:
        raise OrderSyntax("ADD needs one number", "e.g. ADD 2")
    return {"op": "add", "n": expect_int(tokens[0], "ADD amount", 1, 3)}


GRAMMAR = Grammar({"ADD": _add}, standing=False)


class TallyEngine(Engine):
    name = "tally"
    title = "Tally (test game)"
    min_seats = 1
    max_seats = 4
    hidden_information = True
    options = {"target": Option(default=12, min=5, max=100),
               "max_turns": Option(default=6, min=1, max=50)}

    def setup(self, seats, options, rng):
        state = {"seats": seats, "totals": {s: 0 for s in seats},
                 "secret": {s: rng.die(f"secret/{s}", 6) for s in seats},
                 "turn": 0, "options": options, "over": False}
        return state, [Event("setup", {"seats": seats})]

    def decision(self, state):
        if state["over"]:
            return None
        return Decision("add", {s: {"title": "How much to add?", "choices":
                                    ["ADD 1", "ADD 2", "ADD 3"], "example": "ADD 2"}
                                for s in state["seats"]})

    def parse_orders(self, state, seat, text):
        items, lines = GRAMMAR.parse(text)
        if len(items) != 1:
            raise OrdersInvalid([OrderError(0, "send exactly one ADD order", "e.g. ADD 2")])
        return Orders(seat, items, "\n".join(lines))

    def default_orders(self, state, seat):
        return Orders(seat, [{"order": {"op": "add", "n": 1}}], "ADD 1", default=True)

    def resolve(self, state, orders, rng):
        state = clone(state)
        state["turn"] += 1
        events = []
        for seat in state["seats"]:
            n = orders[seat].items[0]["order"]["n"]
            roll = rng.die(f"roll/{seat}", 6)
            state["totals"][seat] += n + roll
            state["secret"][seat] = rng.die(f"secret/{seat}", 6)
            events.append(Event("added", {"seat": seat, "n": n, "roll": roll,
                                          "total": state["totals"][seat]}))
            events.append(Event("secret", {"seat": seat, "value": state["secret"][seat]},
                                (seat,)))
        opts = state["options"]
        if max(state["totals"].values()) >= opts["target"] or state["turn"] >= opts["max_turns"]:
            state["over"] = True
            events.append(Event("over", {"winners": self.result(state)["winners"]}))
        return state, events

    def view(self, state, seat):
        data = {"totals": state["totals"], "turn": state["turn"], "over": state["over"]}
        if seat == "*":
            data["secret"] = state["secret"]
        elif seat in state["secret"]:
            data["my_secret"] = state["secret"][seat]
        return data

    def report(self, events, viewer):
        lines = []
        for e in events:
            if not e.visible_to(viewer):
                continue
            if e.kind == "added":
                d = e.data
                lines.append(f"- {d['seat']} adds {d['n']} and rolls {d['roll']}: total "
                             f"{d['total']}")
            elif e.kind == "secret":
                lines.append(f"- your secret die now shows {e.data['value']}")
            elif e.kind == "over":
                lines.append(f"**Game over.** Winner(s): {', '.join(e.data['winners'])}")
            elif e.kind == "setup":
                lines.append("The tally begins.")
        return "\n".join(lines)

    def invariants(self, state):
        return [] if all(v >= 0 for v in state["totals"].values()) else ["negative total"]

    def result(self, state):
        best = max(state["totals"].values())
        winners = sorted(s for s, v in state["totals"].items() if v == best)
        return {"winners": winners, "summary": f"{' and '.join(winners)} won with {best}."}

    def random_orders(self, state, seat, pick):
        return pick(["ADD 1", "ADD 2", "ADD 3"])

    def perturb_hidden(self, state, seat, pick):
        others = [s for s in state["seats"] if s != seat]
        if seat == "*" or not others:
            return None
        state = clone(state)
        state["secret"][others[0]] = state["secret"][others[0]] % 6 + 1
        return state


ENGINE = TallyEngine()
