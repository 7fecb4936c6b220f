"""Helpers for the one conformance suite run over every registered engine."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.core.canonical import canonical_json, clone, state_hash
from games.core.engine import REVISION, Engine
from games.core.replay import build_record, run_setup, run_turn, secret_rng, turn_entry
from games.core.types import Decision, Event, OrderError, Orders, OrdersInvalid, filter_events

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


def random_options(engine: Engine, rnd: random.Random, revision: int | None = None
                   ) -> dict[str, Any]:
    """Options drawn at random for a new game (the current rules revision), or for a game
    of an earlier `revision` (1: recorded before revisions, options without the key)."""
    revision = engine.revision if revision is None else revision
    chosen: dict[str, Any] = {REVISION: revision} if revision > 1 else {}
    for name, opt in engine.options.items():
        if opt.since > revision:
            continue
        if opt.choices:
            chosen[name] = rnd.choice(list(opt.choices))
        elif opt.min is not None and opt.max is not None:
            chosen[name] = rnd.randint(opt.min, min(opt.max, opt.min + 3))
    if revision == engine.revision:
        return engine.new_game_options(chosen)
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
                     count: int | None = None, options: dict[str, Any] | None = None,
                     revision: int | None = None) -> Playout:
    """One random game; `count` and `options` pin the seats and options (else drawn);
    it plays by the current rules revision unless `revision` names an earlier one."""
    rnd = random.Random(seed)

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[rnd.randrange(len(items))]

    drawn_count = rnd.randint(engine.min_seats, engine.max_seats)
    seats = engine.seat_names(count or drawn_count)
    drawn_options = random_options(engine, rnd, revision)
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
        # decision_seats: the seats in play now (some engines add seats later) and the
        # engine's pseudo seats (played by the GM, never by a player)
        playing = engine.seats_in_play(state, seats)
        assert set(decision.seats) <= set(playing) | set(engine.pseudo_seats)
        if check:
            check_views(engine, state, playing, pick, secret, play)
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
            check_reports(engine, step.events, [*playing, *engine.pseudo_seats])
        play.turns.append(turn_entry(number, orders, step))
        state = step.state
        play.states.append(state)
    else:
        raise AssertionError(f"game did not end within {MAX_TURNS} turns")
    assert engine.decision(state) is None
    play.record = build_record(engine, seats, options, secret, setup, play.turns, reveal=True)
    return play


# -- the order form: what it shows and what its buttons build -------------------------
#
# The web page (gm/web/prompts.py, templates/web/game.html, static/web/site.js) shows a
# seat's prompt as: its title and help; quick picks and parts, buttons that each append
# their text as a new line to the order box; order forms ("FORM — note (e.g. EXAMPLE)");
# and the prompt's example, which "Put the example in the box" copies whole. The helpers
# below walk random games and say what of that a player could be misled by.

# A refusal that explains nothing the form had not already said: a catch-all of the
# shared grammar or of an engine, which a player who clicked the buttons cannot act on.
GENERIC_REFUSALS = re.compile(
    r"^(unknown order|cannot read|refused$|the parser failed|a second unconditional"
    r"|only one \w+ per turn$|pick only one \w+$)", re.I)
# What a line of samples in help text may be made of: capitals, numbers, comparisons.
_SAMPLE_TOKEN = re.compile(r"[A-Z][A-Z0-9_'-]*|-?\d+|<=|>=|!=|<>|[<>=+-]")
_PUNCT = re.compile(r"""([(\["']*)(.*?)([,;:.)\]"'!?]*)""", re.S)


def walk_decisions(engine: Engine, seed: int, max_turns: int = 150
                   ) -> Iterator[tuple[Any, Decision, Any]]:
    """Each decision of a random game (conformance play: random seats, options, orders),
    with the state it is asked in and the game's `pick`."""
    rnd = random.Random(seed)

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[rnd.randrange(len(items))]

    seats = engine.seat_names(rnd.randint(engine.min_seats, engine.max_seats))
    secret = f"{seed:016x}" * 4
    state = run_setup(engine, seats, random_options(engine, rnd),
                      secret_rng(secret, None)).state
    for number in range(1, max_turns + 1):
        decision = engine.decision(state)
        if decision is None:
            return
        yield state, decision, pick
        orders = {s: engine.parse_orders(state, s, engine.random_orders(state, s, pick))
                  for s in decision.seats}
        state = run_turn(engine, state, orders, secret_rng(secret, number)).state


def order_errors(engine: Engine, state: Any, seat: str, text: str) -> list[OrderError]:
    """[] when `text` is a valid order for `seat` now, else the parser's errors."""
    try:
        engine.parse_orders(state, seat, text)
    except OrdersInvalid as exc:
        return exc.errors or [OrderError(0, "refused")]
    return []


def order_samples(text: str, keywords: set[str]) -> list[str]:
    """The concrete orders written into prose (a prompt's title, help or a form's note):
    runs of capitals, numbers and comparisons that start with an order word (or IF,
    STANDING, CANCEL) and have at least two words. A run followed by `<placeholder>`,
    `[optional]` or `...` is a syntax sample, not an order, and is left out."""
    starts = keywords | {"IF", "STANDING", "CANCEL"}
    samples: list[str] = []
    run: list[str] = []

    def close(after: str) -> None:
        if len(run) >= 2 and not after.startswith(("<", "[", "...", "\u2026")):
            samples.append(" ".join(run))
        run.clear()

    for raw in text.split():
        lead, word, trail = _PUNCT.fullmatch(raw).groups()  # type: ignore[union-attr]
        sample = bool(_SAMPLE_TOKEN.fullmatch(word))
        if lead or not sample or (not run and word not in starts):
            close(raw)
            if sample and word in starts:
                run.append(word)
        else:
            run.append(word)
        if trail:
            close(trail)
    close("")
    return samples


# -- key order: a stored state comes back with its objects' keys in another order --------
#
# PostgreSQL's jsonb keeps object keys by length, then bytewise; SQLite keeps them as
# written; a GM's amendment arrives in whatever order its author wrote. Nothing an engine
# says or does may depend on that order: not the prompts (their choices' order included),
# not a view or its board, not a parse, not a resolution (its draws, events, reports and
# the state it reaches).

def _reordered(value: Any, key: Any, reverse: bool = False) -> Any:
    if isinstance(value, dict):
        return {k: _reordered(value[k], key, reverse)
                for k in sorted(value, key=key, reverse=reverse)}
    if isinstance(value, list):
        return [_reordered(v, key, reverse) for v in value]
    return value


def jsonb_key(key: str) -> tuple[int, bytes]:
    """PostgreSQL jsonb's order of object keys: shorter first, then bytewise."""
    raw = key.encode("utf-8")
    return (len(raw), raw)


KEY_ORDERS: dict[str, Any] = {
    "sorted": lambda v: _reordered(v, None),
    "reverse-sorted": lambda v: _reordered(v, None, reverse=True),
    "jsonb": lambda v: _reordered(v, jsonb_key),
}


def exact(value: Any) -> str:
    """What a value says as JSON: every list's order, no object's key order (JSON gives
    it no meaning, and the prompts, views and events the service stores in jsonb lose it
    anyway); text built from it (a board, a report) is compared as is."""
    return canonical_json(value)


def _outcome(engine: Engine, state: Any, seats: list[str], orders_text: dict[str, str],
             rng: Any, reorder: Any = clone) -> dict[str, Any]:
    """Everything the service reads from a state: the decision, each reader's view and
    board, each owing seat's parse and default orders, and a resolution of the same order
    texts with the same dice: its draws, events, reports per reader and the new state;
    and the reports again from the events stored and read back (Event.from_json) with
    their keys in `reorder`'s order, as the service renders a setup or a past turn."""
    decision = engine.decision(state)
    views = {str(viewer): engine.view(state, viewer) for viewer in (None, "*", *seats)}
    out: dict[str, Any] = {
        "decision": exact(decision.to_json()) if decision else None,
        "views": exact(views),
        "boards": [engine.board(v) for v in views.values()],
    }
    if decision is None:
        return out
    orders = {seat: engine.parse_orders(state, seat, text) for seat, text in orders_text.items()}
    out["orders"] = exact({s: o.to_json() for s, o in orders.items()})
    out["defaults"] = exact({s: engine.default_orders(state, s).to_json() for s in orders})
    after, events = engine.resolve(state, orders, rng)
    out["draws"] = exact([d.to_json() for d in rng.draws])
    out["events"] = exact([e.to_json() for e in events])
    out["reports"] = [engine.report(events, viewer) for viewer in (None, "*", *seats)]
    stored = [Event.from_json(reorder(e.to_json())) for e in events]
    out["stored reports"] = [engine.report(stored, viewer) for viewer in (None, "*", *seats)]
    out["after"] = state_hash(engine.to_json(after))
    return out


def check_key_order(engine: Engine, state: Any, seats: list[str], orders_text: dict[str, str],
                    secret: str, number: int, *, through_from_json: bool = True) -> None:
    """The state read back with its keys in each of KEY_ORDERS gives the same outcome.

    `through_from_json`: as the service reads a stored state (engine.from_json); False
    hands the reordered JSON to the engine as is, holding the engine's own code to it."""
    stored = engine.to_json(state)
    base = _outcome(engine, engine.from_json(clone(stored)) if through_from_json else
                    clone(stored), seats, orders_text, secret_rng(secret, number))
    for name, reorder in KEY_ORDERS.items():
        loaded = reorder(stored)
        if through_from_json:
            loaded = engine.from_json(loaded)
        got = _outcome(engine, loaded, seats, orders_text, secret_rng(secret, number), reorder)
        for part in base:
            assert got[part] == base[part], \
                f"turn {number}: {part} differs when the state's keys are in {name} order"


def play_checking_key_order(engine: Engine, seed: int, *, through_from_json: bool = True,
                            max_turns: int = MAX_TURNS, revision: int | None = None) -> int:
    """A random game (conformance play, by the current rules or an earlier `revision`)
    with check_key_order at every step; the number of steps checked."""
    rnd = random.Random(seed)

    def pick(seq: Any) -> Any:
        items = list(seq)
        return items[rnd.randrange(len(items))]

    seats = engine.seat_names(rnd.randint(engine.min_seats, engine.max_seats))
    secret = f"{seed:016x}" * 4
    state = run_setup(engine, seats, random_options(engine, rnd, revision),
                      secret_rng(secret, None)).state
    checked = 0
    for number in range(1, max_turns + 1):
        decision = engine.decision(state)
        texts = {s: engine.random_orders(state, s, pick) for s in (decision.seats if decision else [])}
        check_key_order(engine, state, seats, texts, secret, number,
                        through_from_json=through_from_json)
        checked += 1
        if decision is None:
            break
        orders = {s: engine.parse_orders(state, s, text) for s, text in texts.items()}
        state = run_turn(engine, state, orders, secret_rng(secret, number)).state
    return checked
