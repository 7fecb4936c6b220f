"""The statements every order takes, as plain SQL (see gm.play.rows for why): the live
turn locked with its game, a seat with its game, a new orders version numbered by its own
INSERT, the owing seats holding orders."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .models import Game, Seat, Submission, Turn
from .rows import Columns, cache_related, cached_sql, cursor, db, prep_save, qn, saved

_TURN = Columns(Turn, "t")
_GAME = Columns(Game, "g", defer=("setup_record",))


def lock_live_turn(game_id: int) -> tuple[Turn, Game] | None:
    """The game's live turn (highest number, not superseded), locked, with its game
    (setup record deferred), or None when it has none. One statement."""
    with cursor() as cur:
        cur.execute(cached_sql("lock_live_turn", _lock_live_turn_sql), [game_id])
        row = cur.fetchone()
    if row is None:
        return None
    return turn_and_game(row, _TURN, _GAME)


def turn_and_game(row: Sequence[Any], turn_cols: Columns, game_cols: Columns
                  ) -> tuple[Turn, Game]:
    """A turn and its game from one joined row (the turn's columns first), the game
    cached on the turn so that `turn.game` costs no statement."""
    turn = turn_cols.instance(row[:len(turn_cols)])
    game = game_cols.instance(row[len(turn_cols):])
    cache_related(turn, "game", game)
    return turn, game


def _lock_live_turn_sql() -> str:
    features = db().features
    lock = ""
    if features.has_select_for_update_of:
        lock = " FOR UPDATE OF t FOR KEY SHARE OF g"
    elif features.has_select_for_update:
        lock = " FOR UPDATE"
    # NOT superseded written out, not a parameter: it is the predicate of the partial
    # index turn_live_unique (game, number), which a prepared statement's generic plan
    # can use only when it is in the text; with a parameter PostgreSQL planned the
    # statement again at every execution (a custom plan each time).
    return (f"SELECT {_TURN.sql()}, {_GAME.sql()} FROM {qn(Turn._meta.db_table)} t "
            f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = t.{qn('game_id')} "
            f"WHERE t.{qn('game_id')} = %s AND NOT t.{qn('superseded')} "
            f"ORDER BY t.{qn('number')} DESC LIMIT 1{lock}")


_SEAT = Columns(Seat, "s")
_SUBMISSION = Columns(Submission, "u")
_SEAT_GAME = Columns(Game, "g", defer=("state", "setup_record"))


def seat_with_game(game_id: int, user_id: int) -> Seat | None:
    """`user_id`'s seat in game `game_id` with its game, in one statement, or None (no
    such game, or no seat in it). The game's state and setup record are left out: the
    order path reads the state fresh under the turn lock (`lock_live_turn`)."""
    low, high = db().ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= game_id <= high:  # a URL's id the database cannot hold: no such game
        return None
    with cursor() as cur:
        cur.execute(cached_sql("seat_with_game", _seat_with_game_sql), [game_id, user_id])
        row = cur.fetchone()
    if row is None:
        return None
    seat = _SEAT.instance(row[:len(_SEAT)])
    cache_related(seat, "game", _SEAT_GAME.instance(row[len(_SEAT):]))
    return seat


def _seat_with_game_sql() -> str:
    return (f"SELECT {_SEAT.sql()}, {_SEAT_GAME.sql()} FROM {qn(Seat._meta.db_table)} s "
            f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = s.{qn('game_id')} "
            f"WHERE s.{qn('game_id')} = %s AND s.{qn('user_id')} = %s")


_INSERT_FIELDS = ("turn", "seat", "text", "orders", "receipt", "source", "author", "ready",
                  "created")


def insert_version(turn: Turn, seat: Seat, text: str, orders: dict | None, receipt: str,
                   source: str, author, now: datetime, *, ready: bool = True) -> Submission:
    """Store the next version of `seat`'s orders for `turn` in one INSERT (the version
    number computed by its subquery); the caller holds the turn's lock. `ready` False:
    saved, not ready (issue 28; see Submission.ready)."""
    conn = db()
    fields = _insert_fields()
    values = {"turn": turn.pk, "seat": seat.pk, "text": text, "orders": orders,
              "receipt": receipt, "source": source,
              "author": getattr(author, "pk", None), "ready": ready, "created": now}
    params = [prep_save(f, values[f.name], conn) for f in fields]
    with cursor() as cur:
        cur.execute(cached_sql("insert_version", _insert_version_sql),
                       [*params, turn.pk, seat.pk])
        pk, number = cur.fetchone()
    sub = _SUBMISSION.new({"id": pk, "turn_id": turn.pk, "seat_id": seat.pk,
                           "version": number, "text": text, "orders": orders,
                           "receipt": receipt, "source": source,
                           "author_id": values["author"], "ready": ready, "created": now},
                          conn)
    if sub is None:  # the model is not plain (see _plain_init): as before
        sub = saved(Submission(turn=turn, seat=seat, version=number, text=text,
                               orders=orders, receipt=receipt, source=source,
                               author=author, ready=ready, created=now), pk)
    # what Submission(turn=turn, seat=seat, author=author) caches
    for name, related in (("turn", turn), ("seat", seat), ("author", author)):
        cache_related(sub, name, related)
    return sub


def _insert_fields() -> list:
    return [Submission._meta.get_field(name) for name in _INSERT_FIELDS]


def _insert_version_sql() -> str:
    table = qn(Submission._meta.db_table)
    version = (f"(SELECT COALESCE(MAX({qn('version')}), 0) + 1 FROM {table} "
               f"WHERE {qn('turn_id')} = %s AND {qn('seat_id')} = %s)")
    fields = _insert_fields()
    return (f"INSERT INTO {table} ({', '.join(qn(f.column) for f in fields)}, "
            f"{qn('version')}) VALUES ({', '.join(['%s'] * len(fields))}, {version}) "
            f"RETURNING {qn('id')}, {qn('version')}")


# What a seat's latest version says (`_seats_in_sql`): no version is NULL.
_WITHDRAWN, _SAVED, _READY = 0, 1, 2


def seats_in(turn: Turn) -> set[str]:
    """Owing seats whose latest version holds orders (withdrawn ones do not count; saved,
    not ready ones do: they stand at the deadline), and seats that play defaults; one
    statement, whatever the number of seats."""
    return {name for name, standing in _standing(turn) if standing in (_SAVED, _READY)}


def seats_ready(turn: Turn) -> set[str]:
    """As `seats_in`, less the seats whose latest version is saved, not ready (issue 28):
    the seats that let the turn close early. The same one statement."""
    return {name for name, standing in _standing(turn) if standing == _READY}


def _standing(turn: Turn) -> list[tuple[str, int | None]]:
    """(seat, what its latest version says) for the owing seats; a seat that plays
    defaults counts as ready whatever it has."""
    owing = turn.owing
    if not owing:
        return []
    with cursor() as cur:
        cur.execute(cached_sql(("seats_in", len(owing)), lambda: _seats_in_sql(len(owing))),
                       [turn.pk, turn.game_id, *owing])
        rows = cur.fetchall()
    return [(name, _READY if mode != Seat.Mode.ACTIVE else standing)
            for name, mode, standing in rows]


def _seats_in_sql(n: int) -> str:
    sub_table, seat_table = qn(Submission._meta.db_table), qn(Seat._meta.db_table)
    latest = (f"(SELECT CASE WHEN u.{qn('orders')} IS NULL THEN {_WITHDRAWN} "
              f"WHEN u.{qn('ready')} THEN {_READY} ELSE {_SAVED} END FROM {sub_table} u "
              f"WHERE u.{qn('turn_id')} = %s AND u.{qn('seat_id')} = s.{qn('id')} "
              f"ORDER BY u.{qn('version')} DESC LIMIT 1)")
    return (f"SELECT s.{qn('name')}, s.{qn('mode')}, {latest} FROM {seat_table} s "
            f"WHERE s.{qn('game_id')} = %s AND s.{qn('name')} IN ({', '.join(['%s'] * n)})")
