"""The GM's powers: one function per act, each checked, atomic and written to the log.

Every act needs an author (a GM of the game: its GM, a co-GM or a superuser) and a
reason, and leaves a `LogEntry` whose `public` text is what players may read and whose
`private` JSON holds the details only GMs see. The turn machinery is gm.play's: turns are
opened, resolved and published by `gm.play.actions`, and a rerun is nothing but turns
opened again and resolved with the orders of their superseded records.

Timeline rules kept here:
* nothing is deleted: rerun and rollback mark Turns and TurnRecords `superseded`;
* a state amendment is a versioned patch appended to the open turn's `amendments` in the
  exact format `games.core.replay.replay()` applies, so an export shows it;
* a die fix is a `Turn.overrides` entry, only on a turn already resolved (its draws are
  known, so the fix can be checked) and applied by re-resolving that turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.core.canonical import state_hash
from games.core.engine import Engine
from games.core.replay import run_setup, secret_rng
from games.core.types import Orders, OrdersInvalid
from gm.play import actions as play
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, LogEntry, Post, Seat, Submission, Turn, TurnRecord, new_token
from gm.play.rendering import render_markdown

from . import patching, signals

REASON_MAX = 2000
# The furthest a GM may move a deadline (or the time left while paused): further is a typo,
# and a date near datetime's limit would break every page that shows it.
DEADLINE_MAX_AHEAD = timedelta(days=366)


# --- checks and the log ------------------------------------------------------------------
def require_gm(game: Game, user) -> None:
    """The one permission rule of every power: the game's GM, a co-GM or a superuser."""
    if not game.is_gm(user):
        raise NotAllowed("only this game's GM, a co-GM or a site admin can do that")


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ActionError("give a reason: every GM act is shown in the game's log with it")
    if len(reason) > REASON_MAX:
        raise ActionError(f"a reason can be at most {REASON_MAX} characters")
    return reason


def log_act(game: Game, action: str, public: str, *, actor, reason: str,
            private: dict[str, Any] | None = None, turn_number: int | None = None) -> LogEntry:
    """Record a GM act (via gm.play's record_log) and announce it after commit."""
    entry = play.record_log(game, action, public, actor=actor, reason=reason,
                            private=private, turn_number=turn_number)
    transaction.on_commit(lambda: signals.gm_act.send(sender=Game, entry=entry))
    return entry


def _send(signal, **kwargs) -> None:
    transaction.on_commit(lambda: signal.send(sender=Game, **kwargs))


def _fmt(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _lock(game: Game) -> tuple[Game, Turn | None]:
    """Lock the live turns then the game (the order resolve_turn uses: no deadlock)."""
    turns = list(Turn.objects.select_for_update().filter(game=game, superseded=False)
                 .order_by("-number"))
    game = Game.objects.select_for_update().get(pk=game.pk)
    return game, (turns[0] if turns else None)


def _seat(game: Game, name: str) -> Seat:
    seat = game.seats.filter(name=name).first()
    if seat is None:
        names = ", ".join(game.seats.order_by("id").values_list("name", flat=True))
        raise ActionError(f"this game has no seat {name!r} (seats: {names})")
    return seat


def _running(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise Conflict("this game has not started yet")
    if game.status == Game.Status.FINISHED:
        raise Conflict("this game is over and its dice secret is public: its course can "
                       "no longer be changed")


# --- pause, resume, deadlines ------------------------------------------------------------
def pause(game: Game, actor, reason: str, *, now: datetime | None = None) -> Game:
    """Stop the clock: the open turn's remaining time is kept in Game.paused_remaining."""
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        game, turn = _lock(game)
        if game.status != Game.Status.RUNNING:
            raise Conflict(f"only a running game can be paused; this one is {game.status}")
        remaining = None
        if turn is not None and turn.status == Turn.Status.OPEN:
            remaining = max(turn.deadline - now, timedelta(0)) if turn.deadline else None
            turn.status = Turn.Status.PAUSED
            turn.save(update_fields=["status"])
        game.status = Game.Status.PAUSED
        game.paused_remaining = remaining
        game.save(update_fields=["status", "paused_remaining"])
        left = f" with {_fmt(remaining)} left on turn {turn.number}" if remaining is not None \
            and turn is not None else ""
        log_act(game, "paused", f"{actor.username} paused the game{left}.", actor=actor,
                reason=reason, turn_number=turn.number if turn else None,
                private={"remaining_seconds": remaining.total_seconds() if remaining else None})
    return game


def resume(game: Game, actor, reason: str, *, now: datetime | None = None) -> Game:
    """Restart the clock: deadline = now + the time that was left when paused."""
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        game, turn = _lock(game)
        if game.status != Game.Status.PAUSED:
            raise Conflict("this game is not paused")
        remaining = game.paused_remaining
        game.status = Game.Status.RUNNING
        game.paused_remaining = None
        game.save(update_fields=["status", "paused_remaining"])
        public = f"{actor.username} resumed the game."
        if turn is not None and turn.status == Turn.Status.PAUSED:
            turn.status = Turn.Status.OPEN
            turn.deadline = now + (remaining if remaining is not None
                                   else play.turn_length(game))
            turn.save(update_fields=["status", "deadline"])
            public += f" Turn {turn.number} is due at {turn.deadline:%Y-%m-%d %H:%M} UTC."
            play.maybe_due_early(game, turn)
        elif turn is not None and turn.status == Turn.Status.RESOLVED:
            # Published while paused: publish() did not open the next turn; do it now.
            record = turn.record
            engine = play.engine_for(game)
            opened = play.open_turn(game, engine, engine.from_json(record.state_after),
                                     turn.number + 1, now)
            if opened is not None:
                public += f" Turn {opened.number} is open."
        log_act(game, "resumed", public, actor=actor, reason=reason,
                turn_number=turn.number if turn else None)
    return game


def extend_deadline(game: Game, actor, reason: str, *, hours: int = 0, minutes: int = 0,
                    until: datetime | None = None, now: datetime | None = None) -> Turn:
    """Move the open turn's deadline: by hours/minutes, or to `until`.

    While paused, a delta is added to the time that will be left on resume.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    too_far = ActionError("a deadline can be moved at most a year ahead")
    try:
        delta = timedelta(hours=hours, minutes=minutes)
    except OverflowError:
        raise too_far from None
    if delta > DEADLINE_MAX_AHEAD or (until is not None and until > now + DEADLINE_MAX_AHEAD):
        raise too_far
    if until is None and delta <= timedelta(0):
        raise ActionError("extend by a positive number of hours or minutes, or give a new "
                          "deadline")
    with transaction.atomic():
        game, turn = _lock(game)
        _running(game)
        if turn is None:
            raise Conflict("there is no turn to extend")
        if turn.status == Turn.Status.PAUSED:
            if until is not None:
                raise Conflict("the game is paused: extend by hours/minutes (added to the "
                               "time left on resume), or resume it first")
            if (game.paused_remaining or timedelta(0)) + delta > DEADLINE_MAX_AHEAD:
                raise too_far
            game.paused_remaining = (game.paused_remaining or timedelta(0)) + delta
            game.save(update_fields=["paused_remaining"])
            public = (f"{actor.username} added {_fmt(delta)} to turn {turn.number} "
                      f"({_fmt(game.paused_remaining)} left when the game resumes).")
        elif turn.status == Turn.Status.OPEN:
            new = until if until is not None else (turn.deadline or now) + delta
            if new > now + DEADLINE_MAX_AHEAD:
                raise too_far
            if new <= now:
                raise ActionError(f"the new deadline {new:%Y-%m-%d %H:%M} UTC is not in the "
                                  "future")
            turn.deadline = new
            turn.reminded = False
            turn.save(update_fields=["deadline", "reminded"])
            public = (f"{actor.username} moved the deadline of turn {turn.number} to "
                      f"{new:%Y-%m-%d %H:%M} UTC.")
        else:
            raise Conflict(f"turn {turn.number} is {turn.get_status_display()}: it has no "
                           "deadline to move")
        log_act(game, "deadline", public, actor=actor, reason=reason, turn_number=turn.number)
    return turn


def force_resolution(game: Game, actor, reason: str) -> Turn:
    """Resolve the open turn now; seats without orders get their default orders."""
    require_gm(game, actor)
    reason = _reason(reason)
    with transaction.atomic():
        game, turn = _lock(game)
        _running(game)
        if turn is None or turn.status != Turn.Status.OPEN:
            state = turn.get_status_display() if turn else "missing"
            raise Conflict(f"only an open turn can be forced (the current turn is {state})")
        missing = [s for s in turn.owing if s not in play.seats_in(turn)]
        log_act(game, "forced", f"{actor.username} closed turn {turn.number} early for "
                f"resolution." + (f" Default orders for: {', '.join(missing)}." if missing
                                  else ""), actor=actor, reason=reason,
                turn_number=turn.number)
        play.mark_due(turn, reason=f"forced by {actor.username}")
    return turn


# --- hold for review -------------------------------------------------------------------
def set_hold(game: Game, actor, reason: str, hold: bool) -> Game:
    """Turn review mode on or off: held turns wait for `release` before their report."""
    require_gm(game, actor)
    reason = _reason(reason)
    with transaction.atomic():
        game, _turn = _lock(game)
        game.hold_for_review = bool(hold)
        game.save(update_fields=["hold_for_review"])
        log_act(game, "review-mode", f"{actor.username} turned GM review of each turn "
                f"{'on' if hold else 'off'}.", actor=actor, reason=reason)
    return game


def release(game: Game, actor, reason: str) -> TurnRecord:
    """Publish the held turn's reports as they are (and open the next turn)."""
    require_gm(game, actor)
    reason = _reason(reason)
    with transaction.atomic():
        game, turn = _lock(game)
        if turn is None or not Turn.objects.filter(pk=turn.pk, status=Turn.Status.HELD).update(
                status=Turn.Status.RESOLVING):
            raise Conflict("no turn is held for review")
        record = TurnRecord.objects.select_related("game").get(turn=turn)
        log_act(game, "released", f"{actor.username} released turn {turn.number}'s report.",
                actor=actor, reason=reason, turn_number=turn.number)
        play.publish(record)
    return record


# --- amendments -------------------------------------------------------------------------
def make_amendment(engine: Engine, actor, reason: str, from_json: Any, new_json: Any
                   ) -> dict[str, Any]:
    """The replay-format amendment from one state to another, checked by the invariants."""
    try:
        state = engine.from_json(new_json)
        problems = engine.invariants(state)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise patching.PatchError(f"the engine cannot read the amended state: {exc}") from None
    if problems:
        raise patching.PatchError("the amended state breaks the rules: " + "; ".join(problems))
    canon = engine.to_json(state)
    return {"author": actor.username, "reason": reason,
            "from_hash": state_hash(engine.to_json(engine.from_json(from_json))),
            "state": canon, "to_hash": state_hash(canon)}


def _amend_turn(game: Game, engine: Engine, turn: Turn, actor, reason: str,
                changes: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply a patch to game.state and append it to `turn.amendments` (both saved)."""
    new_json, patch = patching.apply(game.state, changes)
    patching.check_readable(engine, new_json, (game.setup_record or {}).get("seats", []))
    amendment = make_amendment(engine, actor, reason, game.state, new_json)
    decision = engine.decision(engine.from_json(amendment["state"]))
    if decision is None:
        raise patching.PatchError("the amended state would end the game; amend it so the game "
                                  "goes on, the rules decide when it ends")
    turn.amendments = [*turn.amendments, amendment]
    turn.decision = decision.to_json()
    turn.save(update_fields=["amendments", "decision"])
    game.state = amendment["state"]
    game.state_hash = amendment["to_hash"]
    game.save(update_fields=["state", "state_hash"])
    return amendment, patch


def amend_state(game: Game, actor, reason: str, changes: list[dict[str, Any]], *,
                now: datetime | None = None) -> dict[str, Any]:
    """Patch the state before the open turn resolves (a versioned amendment, see replay).

    Orders already in that no longer parse against the new state are withdrawn (a GM
    version) and their seats get a fresh deadline; the turn's decision is recomputed.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    engine = play.engine_for(game)
    with transaction.atomic():
        game, turn = _lock(game)
        _running(game)
        if turn is None or turn.status not in (Turn.Status.OPEN, Turn.Status.PAUSED):
            raise Conflict("the state can be amended while a turn is open for orders; to "
                           "change a resolved turn, rerun it with the amendment")
        amendment, patch = _amend_turn(game, engine, turn, actor, reason, changes)
        version = len(turn.amendments)
        log_act(game, "amended", f"{actor.username} amended the game state before turn "
                f"{turn.number} (amendment {version}, {len(patch)} value"
                f"{'s' if len(patch) != 1 else ''} changed).", actor=actor, reason=reason,
                turn_number=turn.number,
                private={"version": version, "patch": patch,
                         "from_hash": amendment["from_hash"], "to_hash": amendment["to_hash"]})
        invalid = _recheck_open_orders(game, engine, turn, actor, now)
        if turn.status == Turn.Status.OPEN and not invalid:
            play.maybe_due_early(game, turn)
    return {"version": version, "patch": patch, **amendment}


def _recheck_open_orders(game: Game, engine: Engine, turn: Turn, actor,
                         now: datetime) -> list[str]:
    """Withdraw open-turn orders the new state no longer accepts; give those seats time."""
    state = engine.from_json(game.state)
    invalid = []
    for seat in game.seats.all():
        sub = play.latest_submission(turn, seat)
        if sub is None or sub.withdrawn:
            continue
        if seat.name not in turn.owing:
            invalid.append(seat.name)
        else:
            try:
                engine.parse_orders(state, seat.name, Orders.from_json(sub.orders).text)
                continue
            except OrdersInvalid:
                invalid.append(seat.name)
        play.new_version(turn, seat, "", None, "", Submission.Source.GM, actor)
    if invalid:
        _fresh_deadline(game, turn, invalid, now)
    return invalid


def _fresh_deadline(game: Game, turn: Turn, seats: list[str], now: datetime) -> None:
    fresh = now + play.turn_length(game)
    if turn.status == Turn.Status.PAUSED:
        game.paused_remaining = max(game.paused_remaining or timedelta(0),
                                    play.turn_length(game))
        game.save(update_fields=["paused_remaining"])
    elif turn.deadline is None or turn.deadline < fresh:
        turn.deadline = fresh
        turn.save(update_fields=["deadline"])
    play.record_log(game, "orders-invalidated", f"Orders from {', '.join(seats)} no longer fit "
                    f"the game after the GM's change; {'they' if len(seats) > 1 else 'it'} "
                    f"must send new orders for turn {turn.number}.", turn_number=turn.number)
    _send(signals.orders_invalidated, turn=turn, seats=list(seats))


# --- orders -----------------------------------------------------------------------------
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


# --- dice -------------------------------------------------------------------------------
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


# --- rerun and rollback ----------------------------------------------------------------
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
                result.notes.append(f"turn {k}: state amended ({len(patch)} values)")
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
            try:
                done = play.resolve_turn(turn.pk)
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
                now: datetime | None = None) -> Turn:
    """Reopen turn `number` for orders with a new deadline; later turns are superseded.

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
        text = (f"**GM:** the game is rolled back to turn {number}; send your orders for it "
                f"again.\n\nReason: {reason}")
        Post.objects.create(game=game, author=actor, kind=Post.Kind.GM,
                                 turn_number=number, markdown=text,
                                 html=render_markdown(text))
    return turn


# --- seats and co-GMs ------------------------------------------------------------------
def replace_player(game: Game, actor, reason: str, seat_name: str, new_user) -> Seat:
    """Give a seat to another user: reports are per seat, so its history goes along.

    The seat's mail token is renewed and its extra sender addresses cleared, so the
    previous player's reply address stops working.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    with transaction.atomic():
        game, _turn = _lock(game)
        seat = _seat(game, seat_name)
        if new_user is None or not new_user.is_active:
            raise ActionError("choose an active user to take the seat")
        if game.seats.filter(user=new_user).exists():
            raise Conflict(f"{new_user.username} already has a seat in this game")
        # The rule of joining (gm.play.actions.seat_barred), with its reason: where the
        # ruleset hides anything, nobody who sees everything (GM, co-GM, site admin) plays.
        barred = play.seat_barred(game, new_user, named=True)
        if barred:
            raise Conflict(f"{barred}: choose another player for seat {seat.name}")
        old = seat.player_name()
        seat.user = new_user
        seat.mail_token = new_token()
        seat.emails = []
        seat.allow_any_sender = False
        seat.mode = Seat.Mode.ACTIVE
        seat.save()
        log_act(game, "player-replaced", f"Seat {seat.name} is now played by "
                f"{new_user.username} (was {old}).", actor=actor, reason=reason,
                private={"seat": seat.name, "old": old, "new": new_user.username})
    return seat


def set_seat_mode(game: Game, actor, reason: str, seat_name: str, mode: str) -> Seat:
    """Active, default orders, or abandoned: the last two play the engine's defaults."""
    require_gm(game, actor)
    reason = _reason(reason)
    if mode not in Seat.Mode.values:
        raise ActionError(f"unknown seat mode {mode!r}; choose one of: "
                          f"{', '.join(Seat.Mode.values)}")
    with transaction.atomic():
        game, turn = _lock(game)
        seat = _seat(game, seat_name)
        seat.mode = mode
        seat.save(update_fields=["mode"])
        log_act(game, "seat-mode", f"Seat {seat.name} is now {seat.get_mode_display()}.",
                actor=actor, reason=reason, private={"seat": seat.name, "mode": mode})
        if turn is not None and turn.status == Turn.Status.OPEN:
            play.maybe_due_early(game, turn)
    return seat


def _require_main_gm(game: Game, user) -> None:
    if not (getattr(user, "is_authenticated", False)
            and (user.pk == game.gm_id or user.is_superuser)):
        raise NotAllowed("only the game's own GM or a site admin can change its co-GMs")


def set_co_gm(game: Game, actor, reason: str, username: str, add: bool) -> list[str]:
    """Add or remove a co-GM (who then has every power here, and sees everything)."""
    _require_main_gm(game, actor)
    reason = _reason(reason)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ActionError(f"there is no user {username!r}")
    with transaction.atomic():
        game, _turn = _lock(game)
        if add:
            if user.pk == game.gm_id:
                raise Conflict(f"{username} is already this game's GM")
            if game.seats.filter(user=user).exists():
                raise Conflict(f"{username} plays in this game and cannot be its co-GM "
                               "(a co-GM sees every hidden card and die)")
            game.co_gms.add(user)
        else:
            if not game.co_gms.filter(pk=user.pk).exists():
                raise Conflict(f"{username} is not a co-GM of this game")
            game.co_gms.remove(user)
        log_act(game, "co-gm", f"{username} is {'now' if add else 'no longer'} a co-GM.",
                actor=actor, reason=reason, private={"user": username, "add": add})
        return sorted(game.co_gms.values_list("username", flat=True))
