"""What every act of the GM shares: the author's check, the reason, the log entry, the
game's lock and the seat looked up.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction

from gm.play import actions as play
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, LogEntry, Seat, Turn

from .. import signals

REASON_MAX = 2000
# The furthest a GM may move a deadline (or the time left while paused): further is a typo,
# and a date near datetime's limit would break every page that shows it.
DEADLINE_MAX_AHEAD = timedelta(days=366)


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
