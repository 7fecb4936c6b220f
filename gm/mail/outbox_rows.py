"""Plain SQL for the outbox statements every resolved turn takes: the batch's INSERT, its
claim, the claimed rows read back with their turns, and each row's SENT mark.

`outbox.enqueue_many` and `outbox.deliver_many` spent more CPU building these queries
with the ORM than sending the mail (bench/README.md, "Fifth session"). Written once per
database vendor here (`gm.play.rows.cached_sql`), with the parameters prepared as the
fields would (`gm.mail.rows.Table`) and the rows turned into instances by Django's own
converters (`gm.play.rows.Columns`); tests/gm/mail/test_outbox_rows.py holds each to
the ORM's result on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gm.play.models import Turn
from gm.play.rows import Columns, cache_related, cached_sql, cursor, db, qn

from .models import Outbox
from .rows import Table

_TABLE = Table(Outbox)
_CREATED = "created"  # auto_now_add: the batch's time, as bulk_create's pre_save sets it
# rows per INSERT: SQLite takes at most 32,766 parameters in a statement
CHUNK = 500


def insert_many(rows: list[Outbox], now: datetime) -> list[int]:
    """INSERT `rows` (unsaved instances), skipping every row whose key (or any unique
    column) exists: ON CONFLICT DO NOTHING, as `bulk_create(ignore_conflicts=True)`.
    Returns the ids of the rows written now, in order: RETURNING gives only the rows
    inserted (PostgreSQL; SQLite 3.35+), so the old rows that share a key are not
    mistaken for new ones, and no second statement looks them up."""
    names = [f.attname for f in _TABLE.fields if f.attname != _CREATED]
    ids: list[int] = []
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start:start + CHUNK]
        params: list[Any] = []
        for row in chunk:
            row.created = now
            values = row.__dict__
            params += _TABLE.params({name: values[name] for name in names}, now)
        with cursor() as cur:
            cur.execute(_insert_sql(len(chunk)), params)
            ids += [pk for (pk,) in cur.fetchall()]
    return sorted(ids)


def _insert_sql(n: int) -> str:
    """The INSERT of `n` rows (built once per database vendor and `n`)."""
    return cached_sql(("outbox insert", n), lambda: _build_insert_sql(n))


def _build_insert_sql(n: int) -> str:
    one = f"({', '.join(['%s'] * len(_TABLE.fields))})"
    return (f"INSERT INTO {qn(Outbox._meta.db_table)} ({_TABLE.columns()}) "
            f"VALUES {', '.join([one] * n)} ON CONFLICT DO NOTHING RETURNING {qn('id')}")


def claim(ids: list[int], now: datetime) -> list[int]:
    """PENDING -> SENDING at `now` for those of `ids` still pending; the ids this call
    claimed, in order (RETURNING), so two workers handed the same batch never both send a
    row. One statement, built once per vendor and batch size."""
    conn = db()
    with cursor() as cur:
        cur.execute(cached_sql(("outbox claim", len(ids)), lambda: _claim_sql(len(ids))),
                    [str(Outbox.Status.SENDING), conn.ops.adapt_datetimefield_value(now),
                     *ids, str(Outbox.Status.PENDING)])
        return sorted(pk for (pk,) in cur.fetchall())


def _claim_sql(n: int) -> str:
    return (f"UPDATE {qn(Outbox._meta.db_table)} SET {qn('status')} = %s, "
            f"{qn('claimed_at')} = %s WHERE {qn('id')} IN ({', '.join(['%s'] * n)}) "
            f"AND {qn('status')} = %s RETURNING {qn('id')}")


# The turn of a row is read for `outbox.obsolete` (its number, status, superseded): its
# decision and the GM's JSON stay in the database (deferred, loaded if ever touched).
_ROW = Columns(Outbox, "o")
_ROW_TURN = Columns(Turn, "t", defer=("decision", "overrides", "amendments"))


def claimed(ids: list[int]) -> list[Outbox]:
    """The rows `ids` by id, each with its turn cached (None when it has none), in one
    statement: `Outbox.objects.select_related("turn").filter(pk__in=ids).order_by("pk")`."""
    if not ids:
        return []
    with cursor() as cur:
        cur.execute(cached_sql(("outbox claimed", len(ids)), lambda: _claimed_sql(len(ids))),
                    list(ids))
        found = cur.fetchall()
    out = []
    n = len(_ROW)
    for values in found:
        row = _ROW.instance(values[:n])
        cache_related(row, "turn", _ROW_TURN.instance(values[n:])
                      if values[n] is not None else None)
        out.append(row)
    return out


def _claimed_sql(n: int) -> str:
    return (f"SELECT {_ROW.sql()}, {_ROW_TURN.sql()} FROM {qn(Outbox._meta.db_table)} o "
            f"LEFT OUTER JOIN {qn(Turn._meta.db_table)} t ON t.{qn('id')} = o.{qn('turn_id')} "
            f"WHERE o.{qn('id')} IN ({', '.join(['%s'] * n)}) ORDER BY o.{qn('id')}")


_SENT_SET = ("status", "sent_at", "attempts", "last_error")


def mark_sent(pk: int, attempts: int, now: datetime) -> int:
    """Row `pk` SENT at `now` after `attempts` attempts, its error cleared: one plain
    UPDATE (what `Outbox.objects.filter(pk=pk).update(...)` sent). Rows changed."""
    conn = db()
    params = [_TABLE.prepare(name, value, conn) for name, value in zip(
        _SENT_SET, (str(Outbox.Status.SENT), now, attempts, ""))]
    with cursor() as cur:
        cur.execute(cached_sql("outbox sent", _sent_sql), [*params, pk])
        return cur.rowcount


def _sent_sql() -> str:
    sets = ", ".join(f"{qn(_TABLE.by_attname[name].column)} = %s" for name in _SENT_SET)
    return f"UPDATE {qn(Outbox._meta.db_table)} SET {sets} WHERE {qn('id')} = %s"
