"""Rerun and rollback, and the acts that re-resolve a turn: replacing a seat's orders on a
past turn, fixing a die. Nothing is deleted: turns and records set aside are marked
superseded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core.canonical import state_hash
from games.core.engine import Engine
from games.core.replay import run_setup, secret_rng
from games.core.types import Orders, OrdersInvalid
from gm.play import actions as play
from gm.play.errors import ActionError, Conflict
from gm.play.models import Game, Post, Seat, Submission, Turn, TurnRecord
from gm.play.rendering import render_markdown

from .amendments import _amend_turn, _fresh_deadline
from .common import _lock, _reason, _running, _seat, log_act, require_gm


def replace_orders(game: Game, actor, reason: str, seat_name: str, text: str, *,
                   turn_number: int | None = None, now: datetime | None = None):
    """Put orders in a seat's name: on the open turn a GM version; on a past turn, a rerun.

    Raises OrdersInvalid (with line numbers) when the text does not parse.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    current = game.current_turn()
    if turn_number is not None and current is not None and turn_number != current.number:
        return rerun_from(game, actor, reason, turn_number, orders={seat_name: text}, now=now)
    engine = play.engine_for(game)
    with transaction.atomic():
        game, turn = _lock(game)
        _running(game)
        if turn is None or turn.status not in (Turn.Status.OPEN, Turn.Status.PAUSED):
            raise Conflict("the current turn is not open for orders")
        seat = _seat(game, seat_name)
        if seat.name not in turn.owing:
            raise Conflict(f"seat {seat.name} owes no orders on turn {turn.number}")
        orders = engine.parse_orders(engine.from_json(game.state), seat.name, text)
        sub = play.new_version(turn, seat, text, orders.to_json(), orders.receipt,
                                Submission.Source.GM, actor)
        log_act(game, "orders-replaced", f"{actor.username} set the orders of seat "
                f"{seat.name} for turn {turn.number}.", actor=actor, reason=reason,
                turn_number=turn.number,
                private={"seat": seat.name, "text": orders.text, "receipt": orders.receipt,
                         "version": sub.version})
        if turn.status == Turn.Status.OPEN:
            play.maybe_due_early(game, turn)
    return sub


def check_die_value(draw: dict[str, Any], value: Any) -> None:
    """The same rule the RNG applies to an override, with a message for the GM."""
    kind, n = draw["kind"], draw["args"][0]
    ok = True
    if kind == "die":
        ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= n
        hint = f"a d{n} result, 1 to {n}"
    elif kind in ("int", "choice"):
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n
        hint = f"a number from 0 to {n - 1}"
    else:
        ok = isinstance(value, list) and sorted(value) == list(range(n))
        hint = f"a permutation of 0..{n - 1}"
    if not ok:
        raise ActionError(f"draw {draw['i']} ({draw['label']}) needs {hint}; got {value!r}")


def fix_die(game: Game, actor, reason: str, turn_number: int, index: int, value: Any, *,
            now: datetime | None = None) -> RerunResult:
    """Set (or with value None, remove) a draw's result on a resolved turn and rerun it."""
    require_gm(game, actor)
    reason = _reason(reason)
    record = game.records.filter(superseded=False, number=turn_number).first()
    if record is None:
        raise Conflict(f"turn {turn_number} has not been resolved: its dice are not known "
                       "yet (hold turns for review to fix dice before reports go out)")
    if not record.draws:
        raise ActionError(f"turn {turn_number} drew no dice: there is nothing to fix")
    if not isinstance(index, int) or not 0 <= index < len(record.draws):
        raise ActionError(f"turn {turn_number} has draws 0 to {len(record.draws) - 1}; "
                          f"there is no draw {index!r}")
    overrides = {str(k): v for k, v in record.turn.overrides.items()}
    if value is None:
        if str(index) not in overrides:
            raise ActionError(f"draw {index} of turn {turn_number} has no GM fix to remove")
        del overrides[str(index)]
    else:
        check_die_value(record.draws[index], value)
        overrides[str(index)] = value
    return rerun_from(game, actor, reason, turn_number, overrides=overrides, now=now,
                      _detail={"die": {"index": index, "value": value,
                                       "label": record.draws[index]["label"]}})


@dataclass
class RerunResult:
    """What a rerun did: resolved turns, where it stopped and why, what it dropped."""

    start: int
    resolved: list[int] = field(default_factory=list)
    open_turn: int | None = None
    reorder: list[str] = field(default_factory=list)
    held: int | None = None
    finished: bool = False
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "resolved": self.resolved, "open_turn": self.open_turn,
                "reorder": self.reorder, "held": self.held, "finished": self.finished,
                "notes": self.notes}


def state_before(game: Game, engine: Engine, number: int) -> Any:
    """The state turn `number` started from, before its own amendments."""
    if number == 1:
        setup = game.setup_record or {}
        step = run_setup(engine, list(setup.get("seats", [])), dict(game.options),
                         secret_rng(game.secret, None))
        if step.after_hash != setup.get("state_hash"):
            raise Conflict("the game's setup no longer replays to its recorded hash")
        return engine.to_json(step.state)
    prev = game.records.filter(superseded=False, number=number - 1).first()
    if prev is None:
        raise Conflict(f"turn {number - 1} has no live record")
    return prev.state_after


def _timeline(game: Game, number: int) -> tuple[dict[int, Turn], dict[int, TurnRecord]]:
    """Live turns and records from `number` on, checked to be at rest."""
    turns = {t.number: t for t in game.turns.filter(superseded=False, number__gte=number)}
    records = {r.number: r for r in game.records.filter(superseded=False, number__gte=number)}
    busy = [t.number for t in turns.values()
            if t.status in (Turn.Status.DUE, Turn.Status.RESOLVING)]
    if busy:
        raise Conflict(f"turn {busy[0]} is being resolved right now; try again in a moment")
    if number not in records:
        raise Conflict(f"turn {number} has not been resolved; amend the state or replace "
                       "orders on the open turn instead")
    return turns, records


def _rewind(game: Game, number: int, doing: str
            ) -> tuple[Game, dict[int, Turn], dict[int, TurnRecord]]:
    """Lock a running game for a rerun or rollback from `number`; its live timeline."""
    if number == 0:
        raise Conflict("turn 0 is the game's setup, which cannot be rerun or rolled back: "
                       "roll back to turn 1 to reopen the first turn from the same setup "
                       "(or rerun from turn 1 to resolve it again); a new setup, with a new "
                       "secret and new draws, takes a new game")
    if number < 0:
        raise Conflict(f"there is no turn {number}: turns are numbered from 1 (turn 0 is "
                       "the setup)")
    game, _turn = _lock(game)
    _running(game)
    if game.status == Game.Status.PAUSED:
        raise Conflict(f"resume the game before {doing}")
    old_turns, old_records = _timeline(game, number)
    return game, old_turns, old_records


def _set_aside(game: Game, number: int, state: Any, hash_: str) -> None:
    """Supersede turns `number`.. (kept for history) and put the game back at `state`."""
    _supersede(game, number)
    game.state = state
    game.state_hash = hash_
    game.save(update_fields=["state", "state_hash"])


def _supersede(game: Game, number: int) -> None:
    """Set turns `number`.. aside for good: superseded, and any not resolved SET_ASIDE, so
    no sweep, task or claim can take them (each compare-and-set also checks the flag)."""
    live = Turn.objects.filter(game=game, superseded=False, number__gte=number)
    live.exclude(status=Turn.Status.RESOLVED).update(status=Turn.Status.SET_ASIDE,
                                                     superseded=True)
    live.update(superseded=True)
    TurnRecord.objects.filter(game=game, superseded=False, number__gte=number).update(
        superseded=True)


def rerun_from(game: Game, actor, reason: str, number: int, *,
               changes: list[dict[str, Any]] | None = None,
               overrides: dict[str, Any] | None = None, orders: dict[str, str] | None = None,
               now: datetime | None = None, _detail: dict[str, Any] | None = None
               ) -> RerunResult:
    """Resolve turns `number`.. again from the state before `number`.

    `changes` (a state patch), `overrides` (turn `number`'s die fixes, replacing its
    current ones) and `orders` ({seat: text}) apply to turn `number`. Later turns keep
    their recorded orders where they still parse against the new state, their die fixes
    and their amendments (when made on the same state). The rerun stops at the first turn
    where an owing seat has no usable orders: that turn stays open with a new deadline,
    the still-legal orders already entered. Superseded turns and records are kept.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    engine = play.engine_for(game)
    with transaction.atomic():
        game, old_turns, old_records = _rewind(game, number, "rerunning turns")
        base = state_before(game, engine, number)
        _set_aside(game, number, base, state_hash(engine.to_json(engine.from_json(base))))
        result = RerunResult(start=number)
        # A die fix alone re-resolves the same draws (the fix applies to known dice);
        # anything else draws from a fresh stream, so nobody re-orders knowing the dice.
        die_fix_only = overrides is not None and not changes and not orders
        keep = old_turns[number].attempt if die_fix_only and number in old_turns else None
        turn = play.open_turn(game, engine, engine.from_json(base), number, now,
                              attempt=keep)
        k = number
        while turn is not None:
            first = k == number
            old_turn, old_rec = old_turns.get(k), old_records.get(k)
            _carry_amendments(game, engine, turn, old_turn, result)
            if first and changes:
                amendment, patch = _amend_turn(game, engine, turn, actor, reason, changes)
                result.notes.append(f"turn {k}: state amended ({len(patch)} "
                                    f"value{'s' if len(patch) != 1 else ''})")
            if old_rec is None:
                # The turn that was open: keep its orders where they still parse.
                _carry_open_orders(game, engine, turn, old_turn, actor, result, now)
                result.open_turn = k
                break
            missing = _carry_record_orders(game, engine, turn, old_rec, actor,
                                           orders if first else None)
            fixes = overrides if first and overrides is not None else dict(
                old_turn.overrides if old_turn else {})
            if missing:
                result.open_turn, result.reorder = k, missing
                if fixes:
                    result.notes.append(f"turn {k}: die fixes dropped (the turn will be "
                                        "resolved with new orders)")
                _fresh_deadline(game, turn, missing, now)
                break
            turn.overrides = fixes
            turn.save(update_fields=["overrides"])
            Turn.objects.filter(pk=turn.pk, status__in=[Turn.Status.OPEN, Turn.Status.DUE]
                                ).update(status=Turn.Status.DUE)
            # newcomer (issue 28): in review mode only the rerun's last turn is held; the
            # turns before it are published by the rerun itself (the GM's act), and the
            # log no longer says they were held for a review they never waited for
            last = (k + 1) not in old_records and (k + 1) not in old_turns
            try:
                done = play.resolve_turn(turn.pk, hold=None if last else False)
            except ValueError as exc:
                raise ActionError(f"turn {k} cannot be resolved again: {exc}") from None
            if not done:
                raise Conflict(f"turn {k} could not be resolved again; nothing was changed")
            result.resolved.append(k)
            game.refresh_from_db()
            turn.refresh_from_db()
            if turn.status == Turn.Status.HELD:
                if (k + 1) not in old_records and (k + 1) not in old_turns:
                    result.held = k
                    break
                play.publish(TurnRecord.objects.select_related("game").get(turn=turn))
                game.refresh_from_db()
            k += 1
            turn = game.turns.filter(superseded=False, number=k).first()
        game.refresh_from_db()
        result.finished = game.status == Game.Status.FINISHED
        public = f"{actor.username} reran the game from turn {number}"
        if result.resolved:
            public += f"; turns {', '.join(map(str, result.resolved))} were resolved again"
        if result.held:  # newcomer: said once, by the act that holds it
            public += f"; turn {result.held} is held for the GM's review before its report"
        public += "."
        if result.reorder:
            public += (f" Turn {result.open_turn} is open again: new orders needed from "
                       f"{', '.join(result.reorder)}.")
        log_act(game, "rerun", public, actor=actor, reason=reason, turn_number=number,
                private={**result.to_json(), **(_detail or {}), "changes": changes or [],
                         "overrides": overrides, "orders": orders})
        Post.objects.create(
            game=game, author=actor, kind=Post.Kind.GM, turn_number=number,
            markdown=f"**GM:** {public}\n\nReason: {reason}",
            html=render_markdown(f"**GM:** {public}\n\nReason: {reason}"))
    return result


def _carry_amendments(game: Game, engine: Engine, turn: Turn, old_turn: Turn | None,
                      result: RerunResult) -> None:
    """Re-apply the old turn's amendments if they were made on the state we reached."""
    amendments = list(old_turn.amendments) if old_turn else []
    if not amendments:
        return
    current = state_hash(engine.to_json(engine.from_json(game.state)))
    if amendments[0]["from_hash"] != current:
        result.notes.append(f"turn {turn.number}: {len(amendments)} earlier amendment(s) "
                            "dropped: they were made on a state this rerun no longer reaches")
        return
    decision = engine.decision(engine.from_json(amendments[-1]["state"]))
    turn.amendments = amendments
    turn.decision = decision.to_json() if decision else turn.decision
    turn.save(update_fields=["amendments", "decision"])
    game.state = amendments[-1]["state"]
    game.state_hash = amendments[-1]["to_hash"]
    game.save(update_fields=["state", "state_hash"])


def _carry_record_orders(game: Game, engine: Engine, turn: Turn, old: TurnRecord, actor,
                         replaced: dict[str, str] | None) -> list[str]:
    """Enter the record's orders as GM versions; return owing seats left without orders."""
    state = engine.from_json(game.state)
    seats = {s.name: s for s in game.seats.all()}
    replaced = dict(replaced or {})
    for name in replaced:
        if name not in turn.owing:
            raise Conflict(f"seat {name} owes no orders on turn {turn.number}")
    missing = []
    for name in turn.owing:
        seat = seats.get(name)
        if seat is None and name in engine.pseudo_seats:
            # the GM's own seat (gm_adjudicated's adjudication, issue 27): a rerun stops
            # here and reopens it, since the dice of the turns before it are new
            missing.append(name)
            continue
        if seat is None or seat.mode != Seat.Mode.ACTIVE:
            continue  # plays default orders, as resolve_turn decides
        if name in replaced:
            orders = engine.parse_orders(state, name, replaced[name])  # OrdersInvalid aborts
            text = replaced[name]
        elif name in old.orders and name not in old.defaulted:
            text = Orders.from_json(old.orders[name]).text
            try:
                orders = engine.parse_orders(state, name, text)
            except OrdersInvalid:
                missing.append(name)
                continue
        elif name in old.defaulted:
            continue  # missed the deadline then: defaults again
        else:
            missing.append(name)
            continue
        play.new_version(turn, seat, text, orders.to_json(), orders.receipt,
                          Submission.Source.GM, actor)
    return missing


def _carry_open_orders(game: Game, engine: Engine, turn: Turn, old_turn: Turn | None, actor,
                       result: RerunResult, now: datetime) -> None:
    if old_turn is None:
        return
    state = engine.from_json(game.state)
    lost = []
    for seat in game.seats.filter(name__in=turn.owing):
        sub = play.latest_submission(old_turn, seat)
        if sub is None or sub.withdrawn:
            continue
        text = Orders.from_json(sub.orders).text
        try:
            orders = engine.parse_orders(state, seat.name, text)
        except OrdersInvalid:
            lost.append(seat.name)
            continue
        play.new_version(turn, seat, text, orders.to_json(), orders.receipt,
                          Submission.Source.GM, actor)
    if lost:
        result.reorder = lost
        _fresh_deadline(game, turn, lost, now)
    play.maybe_due_early(game, turn)


def rollback_to(game: Game, actor, reason: str, number: int, *,
                now: datetime | None = None, announce: str | None = None) -> Turn:
    """Reopen turn `number` for orders with a new deadline; later turns are superseded.

    `announce`: the thread's words instead of "send your orders for it again" (a
    GM-adjudicated game reopens only the GM's adjudication: the players' orders stand).

    The reopened turn keeps its state amendments (they are part of the state it starts
    from) but not its die fixes (new orders make new draws).
    """
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    engine = play.engine_for(game)
    with transaction.atomic():
        game, old_turns, old_records = _rewind(game, number, "rolling it back")
        record = old_records[number]
        _set_aside(game, number, record.state_before, record.before_hash)
        turn = play.open_turn(game, engine, engine.from_json(record.state_before), number, now)
        amendments = list(old_turns[number].amendments) if number in old_turns else []
        if turn is not None and amendments:
            turn.amendments = amendments
            turn.save(update_fields=["amendments"])
        dropped = sorted(set(old_records) | set(old_turns))
        log_act(game, "rollback", f"{actor.username} rolled the game back to turn {number}: "
                f"turns {dropped[0]}-{dropped[-1]} are set aside (kept in the history) and "
                f"turn {number} is open for orders again.", actor=actor, reason=reason,
                turn_number=number, private={"superseded_turns": dropped,
                                             "state_hash": record.before_hash})
        text = ("**GM:** " + (announce or f"the game is rolled back to turn {number}; send "
                                           "your orders for it again.")
                + f"\n\nReason: {reason}")
        Post.objects.create(game=game, author=actor, kind=Post.Kind.GM,
                                 turn_number=number, markdown=text,
                                 html=render_markdown(text))
    return turn
