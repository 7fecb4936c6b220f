"""Helpers every behaviour of a game shares: its engine, turn lengths, the public log, work
queued for after the commit (notices, signals, the resolve task).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.core import registry
from games.core.engine import Engine
from gm import wakeups

from .. import rows, turn_rows
from ..models import (
    Game,
    LogEntry,
)

log = logging.getLogger(__name__)
GM_VIEWER = "*"


def engine_for(game: Game) -> Engine:
    return registry.get(game.ruleset)


def turn_length(game: Game) -> timedelta:
    return timedelta(hours=game.turn_hours, minutes=game.turn_minutes)


def reaction_length(game: Game) -> timedelta:
    """The deadline of an out-of-turn reaction window (a Decision with reaction=True).

    The game's `reaction_minutes` option where its engine declares one, else the
    GM_REACTION_MINUTES setting; never longer than a whole turn.
    """
    minutes = settings.GM_REACTION_MINUTES
    if "reaction_minutes" in engine_for(game).options:
        minutes = game.options.get("reaction_minutes", minutes)
    return min(timedelta(minutes=minutes), turn_length(game))


def record_log(game: Game, action: str, public: str, *, actor=None, reason: str = "",
               private: dict[str, Any] | None = None, turn_number: int | None = None
               ) -> LogEntry:
    return LogEntry.objects.create(game=game, actor=actor, action=action, public=public,
                                   reason=reason, private=private or {},
                                   turn_number=turn_number)


def _on_commit(func, *args, **kwargs) -> None:
    # robust: the transaction has committed; a broker that is down must not turn the
    # player's receipt into a 500. What the callback would have woken up is recorded in
    # the database (a DUE turn, a Notice) and the periodic sweep picks it up.
    transaction.on_commit(lambda: func(*args, **kwargs), robust=True)


def _notice(game: Game, kind: str, object_id: int) -> None:
    """Record an event that must reach people, in the caller's transaction (see Notice)."""
    _notices(game, [(kind, object_id)])


def _notices(game: Game, events: list[tuple[str, int]]) -> None:
    """Record events in the caller's transaction (see Notice), in the order given.

    One INSERT ... ON CONFLICT DO NOTHING for all of them (a row is unique per event), not
    get_or_create's SELECT, SAVEPOINT, INSERT, RELEASE for each."""
    rows.chain([turn_rows.insert_notices(
        game.pk, [(kind, rows.value(pk)) for kind, pk in events], timezone.now())])


def _send(signal, **kwargs) -> None:
    _on_commit(signal.send, sender=Game, **kwargs)


def _enqueue_resolve(turn_id: int) -> None:
    # by name: gm.play.tasks imports this module (gm/wakeups.py)
    _on_commit(wakeups.task("gm.play.tasks.resolve_turn").delay, turn_id)
