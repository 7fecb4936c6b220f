"""Reminders that escalate before a deadline, per person.

Each person picks offsets (default 24 h, 4 h, 1 h before the deadline). At each tick, an
owing seat without orders is in the window of the smallest offset already reached; one
reminder per person, turn and window (`Nudge`'s unique constraint is the claim), none once
orders are in (the seat is no longer waiting), at most `daily_cap` a day across games,
and "you are the last one" when every other owing seat is in. Quiet hours hold a
reminder, except the last-hour one for a person who allows it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from gm.play import actions
from gm.play.models import Seat, Turn

from . import budget, quiet
from .models import Nudge, Settings, default_offsets

LAST_HOUR = 1.0


def offsets_of(s) -> list[float]:
    hours = getattr(s, "reminder_hours", None) or default_offsets()
    return sorted({float(h) for h in hours if float(h) > 0}, reverse=True)


def window_for(offsets: list[float], deadline: datetime, now: datetime) -> float | None:
    """The smallest offset whose moment has come (None: too early for any)."""
    reached = [h for h in offsets if deadline - timedelta(hours=h) <= now]
    return min(reached) if reached else None


def tick(now: datetime | None = None, horizon_hours: float = 72.0) -> int:
    """Send the reminders that are due; returns how many went out (any channel)."""
    from gm.mail import notices

    now = now or timezone.now()
    turns = (Turn.objects.select_related("game")
             .filter(status=Turn.Status.OPEN, superseded=False, deadline__gt=now,
                     deadline__lte=now + timedelta(hours=horizon_hours))
             .order_by("deadline"))
    turns = list(turns[:500])
    due = _due_names(turns, now)  # without a query per turn: who may be due at all
    sent = 0
    for turn in turns:
        if not due.get(turn.pk):
            continue  # every owing player has had this window's reminder, or none is due
        done = actions.seats_in(turn)
        waiting = [name for name in turn.owing if name not in done]
        if not set(waiting) & due[turn.pk]:
            continue
        last_one = len(waiting) == 1 and len(turn.owing) > 1
        mailing = notices.Mailing()
        with transaction.atomic():
            seats = mailing.seats(turn.game, [n for n in waiting if n in due[turn.pk]])
            gate = mailing._gate
            if gate is not None:
                gate.now = now  # the tick's clock decides (tests freeze it)
            for seat in seats:
                reader = gate.reader(seat.user) if gate is not None else None
                s = reader.settings if reader is not None else None
                window = window_for(offsets_of(s), turn.deadline, now)
                if window is None:
                    continue
                urgent = window <= LAST_HOUR
                zone = reader.zone if reader is not None else budget.UTC
                if s is not None and quiet.in_quiet(s.quiet_start, s.quiet_end, now, zone) \
                        and not (urgent and s.urgent_breaks_quiet):
                    continue  # wait: the next tick after the quiet hours sends it
                cap = s.daily_cap if s is not None else 12
                if Nudge.objects.filter(user_id=seat.user_id,
                                        created__gt=now - timedelta(days=1)).count() >= cap:
                    continue
                if not _claim(seat.user_id, turn, window, now):
                    continue
                if notices._remind(mailing, turn, seat, window=f":{window:g}h",
                                   last_one=last_one, urgent=urgent):
                    sent += 1
                elif gate is not None and gate.verdicts and \
                        gate.verdicts[-1][2].state == budget.SENT:
                    sent += 1  # went by webhook only
            mailing.write()
    return sent


def _due_names(turns: list[Turn], now: datetime) -> dict[int, set[str]]:
    """For each turn, the owing seats whose player is in a reminder window they have not
    had yet: three reads for all the turns (their seats, their players' settings, the
    nudges already sent), so a tick over many near turns with nothing new costs no
    statement per turn."""
    if not turns:
        return {}
    seats = list(Seat.objects.filter(game_id__in={t.game_id for t in turns},
                                     user__isnull=False)
                 .values_list("game_id", "name", "user_id"))
    users = {uid for _g, _n, uid in seats}
    prefs = {s.user_id: s for s in Settings.objects.filter(user_id__in=users)}
    had = set(Nudge.objects.filter(turn_id__in=[t.pk for t in turns])
              .values_list("turn_id", "user_id", "window"))
    by_game: dict[int, dict[str, int]] = {}
    for game_id, name, uid in seats:
        by_game.setdefault(game_id, {})[name] = uid
    out: dict[int, set[str]] = {}
    for turn in turns:
        players = by_game.get(turn.game_id, {})
        for name in turn.owing:
            uid = players.get(name)
            if uid is None:
                continue
            window = window_for(offsets_of(prefs.get(uid)), turn.deadline, now)
            if window is not None and (turn.pk, uid, window) not in had:
                out.setdefault(turn.pk, set()).add(name)
    return out


def _claim(user_id: int, turn: Turn, window: float, now: datetime) -> bool:
    try:
        with transaction.atomic():
            Nudge.objects.create(user_id=user_id, game_id=turn.game_id, turn=turn,
                                 window=window, created=now)
    except IntegrityError:
        return False
    return True
