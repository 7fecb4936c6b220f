"""Plain SQL for the rows every inbound message writes: its record, its claim, its reply.

`gm.play.rows` holds the order path's statements; these are the mail side's, with the
parameters prepared here without a model instance: None and a str for a text column go
as they are (what the field would give), anything else through the field's own
`get_db_prep_save`, as `Model.save()` would. Columns come from the models' `_meta`, so a new field is never
left out (its default is written, as `save()` would).

On PostgreSQL the claim and the reply are one statement: a data-modifying CTE claims the
record (`UPDATE ... WHERE outcome = 'received' RETURNING id`) and the reply's row is
inserted only for the row it returns, so a claim that finds the message already done
writes no reply and returns nothing. SQLite has no UPDATE inside a WITH: there they stay
two statements.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from gm.play.rows import cached_sql, cursor, db, prep_save, qn

from .models import InboundMessage, Outbox, Outcome

_TEXT_TYPES = {"CharField", "TextField", "EmailField", "SlugField"}


class Table:
    """The concrete columns of `model` (less its automatic key) and their parameters."""

    def __init__(self, model: type[models.Model]) -> None:
        meta = model._meta
        self.model = model
        self.fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
        self.by_attname = {f.attname: f for f in self.fields}
        self._text = {f.attname: f.get_internal_type() in _TEXT_TYPES for f in self.fields}
        self._now = {f.attname for f in self.fields
                     if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)}
        # defaults that are one value (not a callable such as list or dict): prepared
        # once per database vendor
        self._fixed = [f for f in self.fields if f.attname not in self._now
                       and not (f.has_default() and callable(f.default))]
        self._fixed_prepared: dict[str, dict[str, Any]] = {}

    def columns(self) -> str:
        return ", ".join(qn(f.column) for f in self.fields)

    def prepare(self, attname: str, value: Any, conn) -> Any:
        """`value` for column `attname` as `get_db_prep_save` would give it (which gives
        back None, and any str for a text column, choices included, as they are; the
        other usual values: `gm.play.rows.prep_save`)."""
        if value is None or (self._text[attname] and isinstance(value, str)):
            return value
        return prep_save(self.by_attname[attname], value, conn)

    def params(self, values: dict[str, Any], now=None) -> list[Any]:
        """Every column's parameter for a new row: `values` by attname, the field's
        default for the others (auto_now/auto_now_add fields: `now`)."""
        conn, out = db(), []
        fixed = self._fixed_prepared.get(conn.vendor)
        if fixed is None:
            fixed = self._fixed_prepared[conn.vendor] = {
                f.attname: self.prepare(f.attname, f.get_default(), conn) for f in self._fixed}
        for f in self.fields:
            name = f.attname
            if name in values:
                out.append(self.prepare(name, values[name], conn))
            elif name in fixed:
                out.append(fixed[name])
            elif name in self._now:
                out.append(self.prepare(name, now or timezone.now(), conn))
            else:
                out.append(self.prepare(name, f.get_default(), conn))
        return out


_INBOUND = Table(InboundMessage)
_OUTBOX = Table(Outbox)


@dataclass
class Recorded:
    """The record of a message just written (what the pipeline reads of it)."""

    pk: int
    outcome: str = Outcome.RECEIVED
    attempts: int = 1

    @property
    def done(self) -> bool:
        return self.outcome != Outcome.RECEIVED


def record(values: dict[str, Any]) -> Recorded | None:
    """INSERT the record of a message unless its Message-ID is there (None then).

    Autocommitted on PostgreSQL, with an asynchronous commit: see `inbound._record`."""
    conn = db()
    asynchronous = not conn.in_atomic_block and conn.vendor == "postgresql"
    sql = cached_sql(("inbound record", asynchronous), lambda: _record_sql(asynchronous))
    with cursor() as cur:
        cur.execute(sql, _INBOUND.params(values))
        found = cur.fetchone()
    return Recorded(found[0]) if found is not None else None


def _record_sql(asynchronous: bool) -> str:
    # Autocommitted (outside any transaction of a caller), the statement is its own
    # transaction, and set_config(..., true), which is SET LOCAL, evaluated for the row
    # it inserts, makes only that commit asynchronous: one round trip in all. (A
    # redelivery inserts no row and commits synchronously: nothing was written.)
    also = ", set_config('synchronous_commit', 'off', true)" if asynchronous else ""
    return (f"INSERT INTO {qn(InboundMessage._meta.db_table)} ({_INBOUND.columns()}) "
            f"VALUES ({', '.join(['%s'] * len(_INBOUND.fields))}) "
            f"ON CONFLICT ({qn('message_id')}) DO NOTHING RETURNING {qn('id')}{also}")


_CLAIM_SET = ("outcome", "detail", "seat_id", "submission_id", "reply_suppressed", "processed",
              "body_digest")


def _claim_params(pk: int, outcome: dict[str, Any], conn) -> list[Any]:
    # body_digest may be left out (no digest: "")
    params = [_INBOUND.prepare(name, outcome[name] if name != "body_digest"
                               else outcome.get(name, ""), conn) for name in _CLAIM_SET]
    return [*params, pk, str(Outcome.RECEIVED)]


def _claim_sql() -> str:
    sets = ", ".join(f"{qn(_INBOUND.by_attname[n].column)} = %s" for n in _CLAIM_SET)
    return (f"UPDATE {qn(InboundMessage._meta.db_table)} SET {sets} "
            f"WHERE {qn('id')} = %s AND {qn('outcome')} = %s")


def claim(pk: int, outcome: dict[str, Any]) -> bool:
    """The compare-and-set "received" -> outcome of record `pk` (attnames of
    `_CLAIM_SET`); False when another delivery took it first."""
    conn = db()
    with cursor() as cur:
        cur.execute(cached_sql("inbound claim", _claim_sql), _claim_params(pk, outcome, conn))
        return cur.rowcount == 1


def claim_and_reply(pk: int, outcome: dict[str, Any], reply: dict[str, Any],
                    wake: Callable[[int], None]) -> int | None:
    """The claim of record `pk` and, when it succeeds, the reply's outbox row (attnames
    of Outbox; created, status and the rest take their defaults), with `wake(id)` run
    after commit. The id of the reply, or None when the claim failed (no row written).
    Under the claim's row lock no other delivery can write this reply, so the unique
    key needs no savepoint."""
    conn = db()
    now = timezone.now()
    params = _OUTBOX.params(reply, now)
    if conn.vendor == "postgresql":
        with cursor() as cur:
            cur.execute(cached_sql("inbound claim and reply", _claim_and_reply_sql),
                        [*_claim_params(pk, outcome, conn), *params])
            found = cur.fetchone()
        if found is None:
            return None
        reply_id = found[0]
    else:
        if not claim(pk, outcome):
            return None
        with cursor() as cur:
            cur.execute(cached_sql("inbound reply", _reply_sql), params)
            reply_id = cur.fetchone()[0]
    transaction.on_commit(lambda: wake(reply_id), robust=True)
    return reply_id


def _reply_sql() -> str:
    return (f"INSERT INTO {qn(Outbox._meta.db_table)} ({_OUTBOX.columns()}) "
            f"VALUES ({', '.join(['%s'] * len(_OUTBOX.fields))}) RETURNING {qn('id')}")


def _claim_and_reply_sql() -> str:
    conn = db()
    # The reply's values go through a SELECT, where PostgreSQL cannot infer a type from
    # the column: each is cast to its column's type (text columns to varchar without a
    # length: an explicit cast would cut a long value where the INSERT refuses it).
    values = ", ".join(f"CAST(%s AS {_cast_type(f, conn)})" for f in _OUTBOX.fields)
    return (f"WITH claim AS ({_claim_sql()} RETURNING {qn('id')}) "
            f"INSERT INTO {qn(Outbox._meta.db_table)} ({_OUTBOX.columns()}) "
            f"SELECT {values} FROM claim RETURNING {qn('id')}")


def _cast_type(field: models.Field, conn) -> str:
    if field.get_internal_type() == "CharField":
        return conn.ops.cast_char_field_without_max_length
    return field.cast_db_type(conn)
