"""Plain SQL for the statements every order takes, and model instances from its rows.

Web form, API and mail all store orders through `actions.submit_orders`. Building and
compiling those few queries with the ORM cost several times the database's own work
(bench/README.md, issues 13 and 14), so the hot statements are written here once, as SQL:

* `lock_live_turn`: the game's live turn locked, with its game read in the same
  statement (fresh: the game row is locked FOR KEY SHARE, so a GM amendment or a
  resolution that committed while we waited is read at its newest version, as a
  separate SELECT after the lock would read it);
* `insert_version`: a new Submission whose version number is computed by the INSERT
  itself (the turn lock serialises the writers; the unique constraint stays the last
  line of defence);
* `seats_in`: the owing seats whose latest version holds orders, one statement.

`Columns` gives the column list of a model from its `_meta` (so a new field is never
left out) and turns a row slice back into an instance with Django's own converters,
exactly as a queryset would; `gm.mail.routing` uses it for the seat lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Model

from .models import Game, Seat, Submission, Turn


def qn(name: str) -> str:
    return connection.ops.quote_name(name)


class Columns:
    """The concrete columns of `model` (less `defer`) under a table alias."""

    def __init__(self, model: type[Model], alias: str, defer: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        self.fields = [f for f in model._meta.concrete_fields if f.name not in defer]
        self.attnames = [f.attname for f in self.fields]
        self._converters: dict[str, list[tuple[int, Any, list]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def sql(self) -> str:
        return ", ".join(f"{self.alias}.{qn(f.column)}" for f in self.fields)

    def _converters_for(self) -> list[tuple[int, Any, list]]:
        """Django's converters per column (JSON text to objects, SQLite datetimes...),
        as the queryset compiler would apply them; computed once per database vendor."""
        found = self._converters.get(connection.vendor)
        if found is None:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.alias)
                convs = (connection.ops.get_db_converters(col)
                         + col.get_db_converters(connection))
                if convs:
                    found.append((i, col, convs))
            self._converters[connection.vendor] = found
        return found

    def instance(self, values: Sequence[Any]) -> Model:
        """A model instance from this slice of a row (deferred fields load on access)."""
        values = list(values)
        for i, col, convs in self._converters_for():
            for conv in convs:
                values[i] = conv(values[i], col, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


def cache_related(obj: Model, name: str, value: Model | None) -> None:
    """Set `obj.<name>` (a forward relation) without a query, as select_related does."""
    obj._meta.get_field(name).set_cached_value(obj, value)


_TURN = Columns(Turn, "t")
_GAME = Columns(Game, "g", defer=("setup_record",))


def lock_live_turn(game_id: int) -> tuple[Turn, Game] | None:
    """The game's live turn (highest number, not superseded), locked, with its game
    (setup record deferred), or None when it has none. One statement."""
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = " FOR UPDATE OF t FOR KEY SHARE OF g"
    elif connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    sql = (f"SELECT {_TURN.sql()}, {_GAME.sql()} FROM {qn(Turn._meta.db_table)} t "
           f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = t.{qn('game_id')} "
           f"WHERE t.{qn('game_id')} = %s AND t.{qn('superseded')} = %s "
           f"ORDER BY t.{qn('number')} DESC LIMIT 1{lock}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, False])
        row = cursor.fetchone()
    if row is None:
        return None
    turn = _TURN.instance(row[:len(_TURN)])
    game = _GAME.instance(row[len(_TURN):])
    cache_related(turn, "game", game)
    return turn, game


_INSERT_FIELDS = ("turn", "seat", "text", "orders", "receipt", "source", "author", "created")


def insert_version(turn: Turn, seat: Seat, text: str, orders: dict | None, receipt: str,
                   source: str, author, now: datetime) -> Submission:
    """Store the next version of `seat`'s orders for `turn` in one INSERT (the version
    number computed by its subquery); the caller holds the turn's lock."""
    meta = Submission._meta
    fields = [meta.get_field(name) for name in _INSERT_FIELDS]
    values = {"turn": turn.pk, "seat": seat.pk, "text": text, "orders": orders,
              "receipt": receipt, "source": source,
              "author": getattr(author, "pk", None), "created": now}
    params = [f.get_db_prep_save(values[f.name], connection) for f in fields]
    table = qn(meta.db_table)
    version = (f"(SELECT COALESCE(MAX({qn('version')}), 0) + 1 FROM {table} "
               f"WHERE {qn('turn_id')} = %s AND {qn('seat_id')} = %s)")
    sql = (f"INSERT INTO {table} ({', '.join(qn(f.column) for f in fields)}, "
           f"{qn('version')}) VALUES ({', '.join(['%s'] * len(fields))}, {version}) "
           f"RETURNING {qn('id')}, {qn('version')}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, turn.pk, seat.pk])
        pk, number = cursor.fetchone()
    sub = Submission(pk=pk, turn=turn, seat=seat, version=number, text=text, orders=orders,
                     receipt=receipt, source=source, author=author, created=now)
    sub._state.adding = False
    sub._state.db = connection.alias
    return sub


def seats_in(turn: Turn) -> set[str]:
    """Owing seats whose latest version holds orders (withdrawn ones do not count), and
    seats that play defaults; one statement, whatever the number of seats."""
    owing = turn.owing
    if not owing:
        return set()
    sub_table, seat_table = qn(Submission._meta.db_table), qn(Seat._meta.db_table)
    latest = (f"(SELECT u.{qn('orders')} IS NULL FROM {sub_table} u WHERE "
              f"u.{qn('turn_id')} = %s AND u.{qn('seat_id')} = s.{qn('id')} "
              f"ORDER BY u.{qn('version')} DESC LIMIT 1)")
    sql = (f"SELECT s.{qn('name')}, s.{qn('mode')}, {latest} FROM {seat_table} s "
           f"WHERE s.{qn('game_id')} = %s AND s.{qn('name')} IN "
           f"({', '.join(['%s'] * len(owing))})")
    with connection.cursor() as cursor:
        cursor.execute(sql, [turn.pk, turn.game_id, *owing])
        rows = cursor.fetchall()
    # withdrawn is None without any version
    return {name for name, mode, withdrawn in rows
            if (withdrawn is not None and not withdrawn) or mode != Seat.Mode.ACTIVE}
