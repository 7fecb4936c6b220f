"""A tiny race engine for the referee tests: every seat moves each round, one die each.

Small enough that a test can compute what must happen, with the properties the referee
needs: orders that become illegal when the state changes ("MOVE k" needs k energy),
draws to fix, invariants to break, and an end.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.engine import Engine, Option, Pick
from games.core.rng import RngBase
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid


class ToyRace(Engine):
    name = "toy_race"
    title = "Toy Race"
    min_seats = 2
    max_seats = 3
    options = {"rounds": Option(5, min=1, max=20, help="rounds before the race ends")}

    def setup(self, seats, options, rng: RngBase):
        options = self.validate_options(options)
        state = {"round": 0, "rounds": options["rounds"], "seats": list(seats),
                 "pos": {s: 0 for s in seats}, "energy": {s: 9 for s in seats}}
        return state, [Event("start", {"seats": list(seats)})]

    def decision(self, state):
        if state["round"] >= state["rounds"]:
            return None
        return Decision("move", {s: {"title": "Move 0-3", "energy": state["energy"][s]}
                                 for s in state["seats"]})

    def parse_orders(self, state, seat, text):
        lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
        if len(lines) != 1:
            raise OrdersInvalid([OrderError(0, "send exactly one line: MOVE <0-3> or REST")])
        words = lines[0].upper().split()
        if words == ["REST"]:
            return Orders(seat, [0], "REST")
        if len(words) == 2 and words[0] == "MOVE" and words[1].isdigit():
            k = int(words[1])
            if k > 3:
                raise OrdersInvalid([OrderError(1, "you can move at most 3")])
            if k > state["energy"][seat]:
                raise OrdersInvalid([OrderError(1, f"MOVE {k} needs {k} energy; you have "
                                                   f"{state['energy'][seat]}")])
            return Orders(seat, [k], f"MOVE {k}")
        raise OrdersInvalid([OrderError(1, f"unknown order {lines[0]!r}", "MOVE 2 or REST")])

    def default_orders(self, state, seat):
        return Orders(seat, [0], "REST", default=True)

    def resolve(self, state, orders, rng):
        s = clone(state)
        events = []
        for seat in s["seats"]:
            k = orders[seat].items[0] if seat in orders else 0
            roll = rng.die(f"boost/{seat}", 6)
            s["pos"][seat] += k + roll
            s["energy"][seat] -= k
            events.append(Event("moved", {"seat": seat, "k": k, "roll": roll,
                                          "pos": s["pos"][seat]}))
        s["round"] += 1
        return s, events

    def view(self, state, seat):
        return clone(state)

    def report(self, events, viewer):
        return "\n".join(f"- {e.data['seat']} moves {e.data['k']}+{e.data['roll']} to "
                         f"{e.data['pos']}" for e in events if e.kind == "moved") or "Go!"

    def invariants(self, state):
        problems = []
        for seat, energy in state["energy"].items():
            if energy < 0:
                problems.append(f"{seat} has negative energy")
        for seat, pos in state["pos"].items():
            if pos < 0:
                problems.append(f"{seat} is behind the start")
        if not 0 <= state["round"] <= state["rounds"]:
            problems.append("round out of range")
        return problems

    def result(self, state):
        best = max(state["pos"].values())
        winners = sorted(s for s, p in state["pos"].items() if p == best)
        return {"winners": winners, "summary": f"{', '.join(winners)} won the race."}

    def random_orders(self, state, seat, pick: Pick) -> str:
        return f"MOVE {pick(range(min(3, state['energy'][seat]) + 1))}"


ENGINE: Any = ToyRace()
