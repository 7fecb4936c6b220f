"""Helpers for the one conformance suite run over every registered engine."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

from games.core.canonical import canonical_json, state_hash
from games.core.engine import Engine
from games.core.replay import build_record, run_setup, run_turn, secret_rng, turn_entry
from games.core.types import Event, Orders, filter_events

MAX_TURNS = 2000


@dataclass
class Playout:
    engine: Engine
    seats: list[str]
    options: dict[str, Any]
    secret: str
    states: list[Any] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    perturbations: int = 0


def examples(engine: Engine) -> int:
    """How many random games per engine: the engine's own figure unless the env says."""
    env = os.environ.get("CONFORMANCE_EXAMPLES")
    return int(env) if env else getattr(engine, "conformance_examples", 200)


def random_options(engine: Engine, rnd: random.Random) -> dict[str, Any]:
    chosen = {}
    for name, opt in engine.options.items():
        if opt.choices:
            chosen[name] = rnd.choice(list(opt.choices))
        elif opt.min is not None and opt.max is not None:
            chosen[name] = rnd.randint(opt.min, min(opt.max, opt.min + 3))
    return engine.validate_options(chosen)


def check_views(engine: Engine, state: Any, seats: list[str], pick: Any, secret: str,
                play: Playout) -> None:
    """No-leak: perturbing what a viewer may not see leaves that viewer's view identical."""
    for viewer in [None, *seats]:
        view = canonical_json(engine.view(state, viewer))
        assert secret not in view, "the game secret leaked into a view"
        perturbed = engine.perturb_hidden(state, viewer, pick)
        if perturbed is None:
            continue
        assert engine.invariants(perturbed) == [], engine.invariants(perturbed)
        assert state_hash(engine.to_json(perturbed)) != state_hash(engine.to_json(state)), \
            "perturb_hidden returned an unchanged state: the no-leak check would prove nothing"
        assert canonical_json(engine.view(perturbed, viewer)) == view, \
            f"view for {viewer!r} changed when only hidden information changed"
        play.perturbations += 1


def check_reports(engine: Engine, events: list[Event], seats: list[str]) -> None:
    """A report may depend only on the events its reader may see."""
    for viewer in [None, *seats]:
        full = engine.report(events, viewer)
        assert isinstance(full, str)
        assert full == engine.report(filter_events(events, viewer), viewer), \
            f"report for {viewer!r} depends on events that reader may not see"


def play_random_game(engine: Engine, seed: int, *, check: bool = True,
                     count: int | None = None, options: dict[str, Any] | None = None
                     ) -> Playout:
    """One random game; `count` and `options` pin the seats and options (else drawn)."""
    rnd = random.Random(seed)

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[rnd.randrange(len(items))]

    drawn_count = rnd.randint(engine.min_seats, engine.max_seats)
    seats = engine.seat_names(count or drawn_count)
    drawn_options = random_options(engine, rnd)
    options = engine.validate_options({**drawn_options, **options}) if options else drawn_options
    secret = f"{seed:016x}" * 4
    play = Playout(engine, seats, options, secret)
    setup = run_setup(engine, seats, options, secret_rng(secret, None))
    state = setup.state
    assert engine.invariants(state) == [], engine.invariants(state)
    if check:
        check_reports(engine, setup.events, seats)
    for number in range(1, MAX_TURNS + 1):
        decision = engine.decision(state)
        if decision is None:
            break
        assert decision.seats, "a decision must name at least one seat"
        assert set(decision.seats) <= set(seats)
        if check:
            check_views(engine, state, seats, pick, secret, play)
            dumped = canonical_json(engine.to_json(state))
            again = canonical_json(engine.to_json(engine.from_json(engine.to_json(state))))
            assert again == dumped, "to_json/from_json does not round-trip"
        orders: dict[str, Orders] = {}
        before = state_hash(engine.to_json(state))
        for seat in decision.seats:
            if rnd.random() < 0.1:
                orders[seat] = engine.default_orders(state, seat)
                assert orders[seat].default
            else:
                text = engine.random_orders(state, seat, pick)
                orders[seat] = engine.parse_orders(state, seat, text)
        assert state_hash(engine.to_json(state)) == before, "parsing orders mutated the state"
        step = run_turn(engine, state, orders, secret_rng(secret, number))
        assert state_hash(engine.to_json(state)) == before, "resolve mutated its input state"
        problems = engine.invariants(step.state)
        assert problems == [], f"turn {number}: {problems}"
        if check:
            check_reports(engine, step.events, seats)
        play.turns.append(turn_entry(number, orders, step))
        state = step.state
        play.states.append(state)
    else:
        raise AssertionError(f"game did not end within {MAX_TURNS} turns")
    assert engine.decision(state) is None
    play.record = build_record(engine, seats, options, secret, setup, play.turns, reveal=True)
    return play
