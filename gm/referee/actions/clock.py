"""The GM's time controls: pause and resume, extending or moving a deadline, forcing a
resolution, holding resolutions for review and releasing them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from gm.play import actions as play
from gm.play.errors import ActionError, Conflict
from gm.play.models import Game, Turn, TurnRecord

from .common import DEADLINE_MAX_AHEAD, _fmt, _lock, _reason, _running, log_act, require_gm


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
