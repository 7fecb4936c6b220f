"""Running setup and turns the one way everyone must: the service, replay and verify.

The RNG stream of setup is "setup" and of turn N is "turn/N"; when the GM sets turn N
aside (rollback, rerun) and it is resolved again, attempt k > 1 draws from "turn/N@k",
so players re-ordering learn nothing from the dice they saw, while verification still
recomputes every draw from the secret and the recorded attempt. A GM's die fix keeps
the attempt of the draws it fixes. A game's public export is a `GameRecord` dict:

    {"format": "tabletop-gm/1", "ruleset", "seats", "options",
     "secret_sha256", "secret" (only once the game is over),
     "setup": {"draws", "state_hash"},
     "turns": [{"number", "attempt" (default 1), "orders": {seat: Orders},
                "overrides": {index: value},
                "amendments": [{"author", "reason", "from_hash", "state", "to_hash"}],
                "draws", "before_hash", "after_hash"}]}

`replay` rebuilds the game from that record and reports the first mismatch precisely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .canonical import sha256_hex, state_hash
from .engine import Engine, State
from .rng import Draw, ReplayDrawMismatch, ReplayRng, Rng, RngBase
from .types import Event, Orders

FORMAT = "tabletop-gm/1"


def turn_stream(number: int, attempt: int = 1) -> str:
    """The label of turn `number`'s dice; attempt 1 keeps the original "turn/N"."""
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1:
        raise ValueError(f"a turn's attempt is a whole number from 1; got {attempt!r}")
    return f"turn/{number}" if attempt == 1 else f"turn/{number}@{attempt}"


SETUP_STREAM = "setup"


@dataclass
class Step:
    """The outcome of setup or of one turn."""

    state: State
    events: list[Event]
    draws: list[Draw]
    before_hash: str | None
    after_hash: str
    # the canonical text `state` was read back from (Engine.canonical), whose SHA-256 is
    # after_hash: the service stores it as the state's JSON without encoding it again
    text: str = field(default="", repr=False, compare=False)


def canonical_state(engine: Engine, state: State) -> State:
    """The state with every object's keys in sorted order.

    Databases do not keep key order (PostgreSQL's jsonb sorts keys its own way), so an
    engine that iterates a dict would draw its dice in a different order after a state
    has been stored and loaded. Every state goes into and comes out of setup and
    resolution in this one order, in the service, in replay and in verification alike.
    """
    return engine.canonical(state)[0]


def run_setup(engine: Engine, seats: list[str], options: dict[str, Any],
              rng: RngBase) -> Step:
    state, events = engine.setup(seats, options, rng)
    state, text = engine.canonical(state)
    return Step(state, events, list(rng.draws), None, sha256_hex(text), text)


def run_turn(engine: Engine, state: State, orders: dict[str, Orders], rng: RngBase, *,
             text: str | None = None) -> Step:
    """Resolve one turn on the canonical form of `state` (see canonical_state).

    Each hash is taken of the canonical text the state was read back from
    (Engine.canonical): the same text `state_hash(engine.to_json(state))` encodes again,
    so the same hash, without encoding the state twice more. `text`: the caller already
    holds the canonical form, `state` and its text as Engine.canonical or Engine.read
    gave them (the service reading a stored state): used as they are."""
    if text is None:
        state, text = engine.canonical(state)
    before = sha256_hex(text)
    new_state, events = engine.resolve(state, orders, rng)
    new_state, text = engine.canonical(new_state)
    return Step(new_state, events, list(rng.draws), before, sha256_hex(text), text)


def secret_rng(secret: str, number: int | None, overrides: dict[Any, Any] | None = None,
               attempt: int = 1) -> Rng:
    stream = SETUP_STREAM if number is None else turn_stream(number, attempt)
    return Rng(secret, stream, overrides)


class Mismatch(AssertionError):
    """Where a record and its replay part ways."""

    def __init__(self, turn: int | None, what: str) -> None:
        self.turn = turn
        self.what = what
        where = "setup" if turn is None else f"turn {turn}"
        super().__init__(f"{where}: {what}")


@dataclass
class Verdict:
    ok: bool
    checked_turns: int
    final_hash: str | None
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    secret_checked: bool = False


def _draws(data: list[dict[str, Any]]) -> list[Draw]:
    return [Draw.from_json(d) for d in data]


def _compare_draws(turn: int | None, recorded: list[Draw], replayed: list[Draw]) -> None:
    for rec, got in zip(recorded, replayed):
        if rec.to_json() != got.to_json():
            raise Mismatch(turn, f"draw {rec.index} ({rec.label}) recorded {rec.result!r}"
                                 f" but the secret gives {got.result!r}")
    if len(recorded) != len(replayed):
        raise Mismatch(turn, f"{len(recorded)} draws recorded, replay made {len(replayed)}")


def replay(engine: Engine, record: dict[str, Any]) -> tuple[State, Verdict]:
    """Rebuild a game from its record, checking hashes, draws and the secret.

    With the secret (a finished game) every draw is recomputed from it; without it the
    recorded draws are served back and only consistency is checked. Raises Mismatch.
    """
    notes: list[str] = []
    secret = record.get("secret")
    if secret is not None and sha256_hex(secret) != record["secret_sha256"]:
        raise Mismatch(None, "the revealed secret does not match the published SHA-256")

    def rng_for(number: int | None, rec: dict[str, Any]) -> RngBase:
        if secret is None:
            return ReplayRng(_draws(rec["draws"]))
        if number is None:
            return secret_rng(secret, None, rec.get("overrides"))
        try:
            return secret_rng(secret, number, rec.get("overrides"), rec.get("attempt", 1))
        except ValueError as exc:
            raise Mismatch(number, str(exc)) from None

    setup = record["setup"]
    try:
        step = run_setup(engine, list(record["seats"]), dict(record["options"]),
                         rng_for(None, setup))
    except ReplayDrawMismatch as exc:
        raise Mismatch(None, str(exc)) from None
    _compare_draws(None, _draws(setup["draws"]), step.draws)
    if step.after_hash != setup["state_hash"]:
        raise Mismatch(None, "state after setup does not match its hash")
    state = step.state
    count = 0
    for turn in record["turns"]:
        number = turn["number"]
        for amend in turn.get("amendments", []):
            current = state_hash(engine.to_json(state))
            if current != amend["from_hash"]:
                raise Mismatch(number, "an amendment was made to a state the replay never reached")
            state = engine.from_json(amend["state"])
            if state_hash(engine.to_json(state)) != amend["to_hash"]:
                raise Mismatch(number, "an amended state does not match its hash")
            problems = engine.invariants(state)
            if problems:
                raise Mismatch(number, "amended state breaks invariants: " + "; ".join(problems))
            notes.append(f"turn {number}: state amended by {amend.get('author', 'the GM')}"
                         f" ({amend.get('reason', 'no reason given')})")
        if turn.get("attempt", 1) != 1:
            notes.append(f"turn {number}: resolved again after the GM set it aside "
                         f"(dice stream attempt {turn['attempt']})")
        for index, value in (turn.get("overrides") or {}).items():
            notes.append(f"turn {number}: draw {index} set to {value!r} by the GM")
        orders = {seat: Orders.from_json(o) for seat, o in turn["orders"].items()}
        try:
            step = run_turn(engine, state, orders, rng_for(number, turn))
        except ReplayDrawMismatch as exc:
            raise Mismatch(number, str(exc)) from None
        if step.before_hash != turn["before_hash"]:
            raise Mismatch(number, "state before the turn does not match its hash")
        _compare_draws(number, _draws(turn["draws"]), step.draws)
        if step.after_hash != turn["after_hash"]:
            raise Mismatch(number, "state after the turn does not match its hash "
                                   "(orders or draws were changed)")
        problems = engine.invariants(step.state)
        if problems:
            raise Mismatch(number, "invariants broken: " + "; ".join(problems))
        state = step.state
        count += 1
    final = state_hash(engine.to_json(state))
    if record.get("final_hash") and record["final_hash"] != final:
        raise Mismatch(None, "final state does not match the published final hash")
    return state, Verdict(True, count, final, notes, secret_checked=secret is not None)


def build_record(engine: Engine, seats: list[str], options: dict[str, Any], secret: str,
                 setup: Step, turns: list[dict[str, Any]], *, reveal: bool) -> dict[str, Any]:
    """Assemble an export from setup and turn entries (see the module docstring)."""
    record: dict[str, Any] = {
        "format": FORMAT, "ruleset": engine.name, "seats": list(seats), "options": options,
        "secret_sha256": sha256_hex(secret),
        "setup": {"draws": [d.to_json() for d in setup.draws], "state_hash": setup.after_hash},
        "turns": turns,
    }
    if reveal:
        record["secret"] = secret
    if turns:
        record["final_hash"] = turns[-1]["after_hash"]
    return record


def turn_entry(number: int, orders: dict[str, Orders], step: Step,
               overrides: dict[Any, Any] | None = None,
               amendments: list[dict[str, Any]] | None = None, attempt: int = 1
               ) -> dict[str, Any]:
    return {
        "number": number,
        "attempt": attempt,
        "orders": {seat: o.to_json() for seat, o in sorted(orders.items())},
        "overrides": {str(k): v for k, v in (overrides or {}).items()},
        "amendments": amendments or [],
        "draws": [d.to_json() for d in step.draws],
        "before_hash": step.before_hash,
        "after_hash": step.after_hash,
    }
