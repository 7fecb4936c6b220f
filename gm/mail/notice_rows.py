"""Plain SQL for what a resolution's notices read and mark: the record with its reports,
the opened turn with its game, the game's seats with their players, profiles and mail
switches, and the Notice rows handled.

A notify task is the mail worker's largest cost per turn, and before these statements
most of it was the ORM building and compiling its queries (bench/README.md, "Fifth
session"): each query is written here once per database vendor (`gm.play.rows`), and
its rows become model instances through Django's own converters (`rows.Columns`), so
the instances are what the querysets they replace gave (tests/gm/mail/
test_notice_rows.py holds each to the ORM's result, on SQLite and on PostgreSQL).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model

from gm.accounts.models import Profile
from gm.play.models import Game, Notice, Report, Seat, Turn, TurnRecord
from gm.play.rows import Columns, cache_related, cached_sql, cursor, db, qn

from .models import MailPreference

# A notice reads the game's title, result and secret, a record's number and a turn's
# decision: the stored states (the largest columns, decoded on load) stay in the database.
_GAME = Columns(Game, "g", defer=("state", "setup_record"))
_RECORD = Columns(TurnRecord, "r", defer=("state_before", "state_after", "draws", "events",
                                          "orders"))
_REPORT = Columns(Report, "p")
_TURN = Columns(Turn, "t")


def record_with_reports(pk: int) -> tuple[TurnRecord, list[Report]] | None:
    """The record `pk` with its game (cached on it) and its reports, in one statement
    (what `TurnRecord.objects.select_related("game").defer(...)` and `record.reports.all()`
    read in two); None when there is no such record."""
    with cursor() as cur:
        cur.execute(cached_sql("notice record", _record_sql), [pk])
        found = cur.fetchall()
    if not found:
        return None
    first = found[0]
    record = _RECORD.instance(first[:len(_RECORD)])
    cache_related(record, "game", _GAME.instance(first[len(_RECORD):len(_RECORD) + len(_GAME)]))
    at = len(_RECORD) + len(_GAME)
    reports = []
    for row in found:
        if row[at] is None:  # a record without reports: the LEFT JOIN's empty side
            continue
        report = _REPORT.instance(row[at:])
        cache_related(report, "record", record)  # as the related manager leaves it
        reports.append(report)
    return record, reports


def _record_sql() -> str:
    return (f"SELECT {_RECORD.sql()}, {_GAME.sql()}, {_REPORT.sql()} "
            f"FROM {qn(TurnRecord._meta.db_table)} r "
            f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = r.{qn('game_id')} "
            f"LEFT OUTER JOIN {qn(Report._meta.db_table)} p "
            f"ON p.{qn('record_id')} = r.{qn('id')} "
            f"WHERE r.{qn('id')} = %s ORDER BY p.{qn('id')}")


def turn_with_game(pk: int) -> Turn | None:
    """The turn `pk` with its game (state and setup record deferred) cached on it, in one
    statement; None when there is no such turn."""
    with cursor() as cur:
        cur.execute(cached_sql("notice turn", _turn_sql), [pk])
        row = cur.fetchone()
    if row is None:
        return None
    turn = _TURN.instance(row[:len(_TURN)])
    cache_related(turn, "game", _GAME.instance(row[len(_TURN):]))
    return turn


def _turn_sql() -> str:
    return (f"SELECT {_TURN.sql()}, {_GAME.sql()} FROM {qn(Turn._meta.db_table)} t "
            f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = t.{qn('game_id')} "
            f"WHERE t.{qn('id')} = %s")


Switches = dict[tuple[int, str], bool]


@functools.cache
def _seat_columns() -> tuple[Columns, Columns, Columns]:
    """Seat, user and profile columns (the user model is known once the apps are)."""
    return Columns(Seat, "s"), Columns(get_user_model(), "u"), Columns(Profile, "f")


def active_seats(game: Game) -> tuple[list[Seat], Switches]:
    """The game's active seats with a player, in seat order, each with its user and the
    user's profile cached (None when there is none, as select_related leaves it) and
    `game` as its game; and every one of those players' stored mail switches,
    {(user id, kind): enabled} (`prefs.Switches`). One statement: a player's switches
    come as more rows of their seat (a LEFT JOIN), read once each."""
    seat_cols, user_cols, profile_cols = _seat_columns()
    with cursor() as cur:
        cur.execute(cached_sql("notice seats", _seats_sql),
                    [game.pk, str(Seat.Mode.ACTIVE)])
        found = cur.fetchall()
    seats: list[Seat] = []
    switches: Switches = {}
    seen: set[int] = set()
    n_seat, n_user, n_profile = len(seat_cols), len(user_cols), len(profile_cols)
    at_user, at_profile = n_seat, n_seat + n_user
    at_switch = at_profile + n_profile
    reverse = Profile._meta.get_field("user").remote_field
    for row in found:
        seat_id = row[0]
        if seat_id not in seen:
            seen.add(seat_id)
            seat = seat_cols.instance(row[:n_seat])
            user = user_cols.instance(row[at_user:at_profile])
            profile = profile_cols.instance(row[at_profile:at_switch]) \
                if row[at_profile] is not None else None
            reverse.set_cached_value(user, profile)  # None reads "no profile", as there
            if profile is not None:
                cache_related(profile, "user", user)
            cache_related(seat, "user", user)
            cache_related(seat, "game", game)
            seats.append(seat)
        kind, enabled = row[at_switch], row[at_switch + 1]
        if kind is not None:
            user_id = row[at_user]
            switches[(user_id, kind)] = bool(enabled)  # SQLite gives 0/1, as the ORM not
    return seats, switches


def _seats_sql() -> str:
    seat_cols, user_cols, profile_cols = _seat_columns()
    user_table = qn(get_user_model()._meta.db_table)
    return (f"SELECT {seat_cols.sql()}, {user_cols.sql()}, {profile_cols.sql()}, "
            f"m.{qn('kind')}, m.{qn('enabled')} FROM {qn(Seat._meta.db_table)} s "
            f"INNER JOIN {user_table} u ON u.{qn('id')} = s.{qn('user_id')} "
            f"LEFT OUTER JOIN {qn(Profile._meta.db_table)} f "
            f"ON f.{qn('user_id')} = u.{qn('id')} "
            f"LEFT OUTER JOIN {qn(MailPreference._meta.db_table)} m "
            f"ON m.{qn('user_id')} = u.{qn('id')} "
            f"WHERE s.{qn('game_id')} = %s AND s.{qn('mode')} = %s "
            # Seat's ordering (game, id) within one game: its id
            f"ORDER BY s.{qn('id')}, m.{qn('id')}")


def mark_handled(events: Sequence[tuple[str, int]], now: datetime) -> int:
    """Mark the Notices of `events` handled (those not handled yet), one statement;
    how many were marked."""
    events = list(dict.fromkeys(events))
    if not events:
        return 0
    conn = db()
    field = Notice._meta.get_field("handled")
    params: list[Any] = [field.get_db_prep_save(now, conn)]
    for kind, pk in events:
        params += [str(kind), int(pk)]
    with cursor() as cur:
        cur.execute(cached_sql(("notice handled", len(events)),
                               lambda: _handled_sql(len(events))), params)
        return cur.rowcount


def _handled_sql(n: int) -> str:
    which = " OR ".join([f"({qn('kind')} = %s AND {qn('object_id')} = %s)"] * n)
    return (f"UPDATE {qn(Notice._meta.db_table)} SET {qn('handled')} = %s "
            f"WHERE ({which}) AND {qn('handled')} IS NULL")
