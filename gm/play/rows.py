"""Plain SQL helpers, and model instances from rows: the tools of the hot paths.

Web form, API and mail all store orders through `actions.submit_orders`. Building and
compiling those few queries with the ORM cost several times the database's own work
(bench/README.md, issues 13 and 14), so the hot statements are written once, as SQL, in
`gm.play.live_rows` (this module knows no model of its own, so the models may use it):

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
exactly as a queryset would; `gm.mail.routing` uses it for the seat lookup. `chain`
runs statements that use what earlier ones returned as one statement on PostgreSQL (the
writes of a turn's resolution, `gm.play.turn_rows`).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init


def db():
    """The default connection itself: one lookup per call here, not one per attribute
    through the `django.db.connection` proxy (a thread-local lookup each time)."""
    return connections[DEFAULT_DB_ALIAS]


def qn(name: str) -> str:
    return db().ops.quote_name(name)


def cursor():
    """A cursor for the hot statements here. On PostgreSQL a statement is prepared on
    its second run on a connection and then only bound and executed (server-side
    binding): the server parses and plans it once instead of for every message or order
    (planning was half the server's time on these statements), and parameters such as
    a raw message go as binary. Django's own cursor wrapper is kept around it, so execute
    wrappers, query logging and error translation see these statements like any other.
    Elsewhere (SQLite), Django's ordinary cursor.

    On PostgreSQL the psycopg cursor underneath is kept on the connection and used again
    by the next call (closing the wrapper only frees its results): a new psycopg cursor
    copies the connection's adapters and builds its loaders each time, a fifth of the
    client's CPU for a small statement. A call made while the kept cursor is still open
    gets a cursor of its own, as before."""
    conn = db()
    if conn.vendor != "postgresql":
        return conn.cursor()
    conn.close_if_health_check_failed()
    conn.ensure_connection()
    with conn.wrap_database_errors:
        return conn._prepare_cursor(_postgresql().cursor(conn))


@functools.cache
def _postgresql():
    """The psycopg 3 pieces (imported only when PostgreSQL is in use)."""
    from types import SimpleNamespace

    import psycopg
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg._tz import get_tzinfo
    from psycopg.pq import Format

    # psycopg's own loader of timestamptz text (its C one when psycopg[binary] or [c] is
    # installed), which gives datetimes in the session's time zone
    native_tz_loader = psycopg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)

    class PreparedCursor(ServerBindingCursor):
        """Keeps the statement of a prepared execution as the last query, as psycopg
        does for the others, so Django's query log (debug, assertNumQueries, the
        benches) shows its SQL instead of None. A kept cursor (`kept`) is not closed
        by `close()`: it frees its results and can be used again."""

        kept = False
        in_use = False

        def _send_query_prepared(self, name, pgq, *, binary=None):
            super()._send_query_prepared(name, pgq, binary=binary)
            self._query = pgq

        def close(self) -> None:
            if self.kept:
                self._reset()
                self.in_use = False
            else:
                super().close()

    def new(conn, pg) -> PreparedCursor:
        if pg.prepare_threshold is None:
            # Django turns preparing off (its cursors bind on the client, and those
            # never prepare): for these cursors, a statement run a second time on
            # this connection is prepared, so a connection used once pays nothing.
            pg.prepare_threshold = 1
        raw = PreparedCursor(pg)
        if conn.timezone is not None and conn.timezone == get_tzinfo(pg.pgconn):
            # Django loads timestamptz with a Python subclass of psycopg's loader, to
            # put them in its own zone; when the session's zone is that zone (Django
            # sets it so on connecting: UTC by default), psycopg's own loader gives the
            # same datetimes, in C, at a fraction of the cost
            raw.adapters.register_loader(TIMESTAMPTZ_OID, native_tz_loader)
        else:  # as Django's create_cursor does: the connection's zone if it disagrees
            loader = pg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
            if conn.timezone != loader.timezone:
                register_tzloader(conn.timezone, raw)
        return raw

    def cursor(conn) -> PreparedCursor:
        pg = conn.connection
        kept = getattr(conn, "_gm_kept_cursor", None)
        if kept is not None and kept.connection is pg and not kept.in_use:
            kept.in_use = True
            return kept
        raw = new(conn, pg)
        if kept is None or kept.connection is not pg:
            raw.kept = True
            conn._gm_kept_cursor = raw
        raw.in_use = True
        return raw

    return SimpleNamespace(cursor=cursor)


_SQL: dict[tuple[str, Any], str] = {}


def cached_sql(key: Any, build) -> str:
    """SQL text built once per database vendor and `key` (it depends on nothing else)."""
    full = (db().vendor, key)
    sql = _SQL.get(full)
    if sql is None:
        sql = _SQL[full] = build()
    return sql


class Columns:
    """The concrete columns of `model` (less `defer`) under a table alias."""

    def __init__(self, model: type[Model], alias: str, defer: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        self.fields = [f for f in model._meta.concrete_fields if f.name not in defer]
        self.attnames = [f.attname for f in self.fields]
        self._converters: dict[str, list[tuple[int, Any, list]]] = {}
        self._plain: bool | None = None  # _plain_init, once the apps are loaded

    def __len__(self) -> int:
        return len(self.fields)

    def sql(self) -> str:
        return cached_sql(("columns", self.model, self.alias, tuple(self.attnames)), lambda: (
            ", ".join(f"{self.alias}.{qn(f.column)}" for f in self.fields)))

    def _converters_for(self, conn) -> list[tuple[int, Any, list]]:
        """Django's converters per column (JSON text to objects, SQLite datetimes...),
        as the queryset compiler would apply them; computed once per database vendor."""
        found = self._converters.get(conn.vendor)
        if found is None:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.alias)
                convs = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
                if convs:
                    found.append((i, col, convs))
            self._converters[conn.vendor] = found
        return found

    def instance(self, values: Sequence[Any]) -> Model:
        """A model instance from this slice of a row (deferred fields load on access)."""
        values = list(values)
        conn = db()
        for i, col, convs in self._converters_for(conn):
            for conv in convs:
                values[i] = conv(values[i], col, conn)
        obj = self.new(dict(zip(self.attnames, values)), conn)
        return obj if obj is not None else \
            self.model.from_db(conn.alias, self.attnames, values)

    def new(self, values: dict[str, Any], conn) -> Model | None:
        """The instance `from_db` gives for `values` (by attname, already converted),
        built directly; None when the model is not plain (`_plain_init`) or something
        listens to its init signals, and `from_db` must build it."""
        if self._plain is None:
            self._plain = _plain_init(self.model, self.attnames)
        if not self._plain or pre_init.has_listeners(self.model) or \
                post_init.has_listeners(self.model):
            return None
        # what from_db and Model.__init__ leave behind for these values, without the
        # per-field setattr through the class's descriptors (see _plain_init)
        obj = self.model.__new__(self.model)
        state = obj._state = ModelState()
        state.adding, state.db = False, conn.alias
        obj.__dict__.update(values)
        return obj


def _plain_init(model: type[Model], attnames: Sequence[str]) -> bool:
    """Whether `Model.from_db(alias, attnames, values)` only stores each value under its
    attname in the instance's __dict__ (besides its state and the init signals, checked
    at each call): the model keeps Django's own __init__ and from_db, and no column has
    a descriptor that does more than that on assignment (a field's DeferredAttribute has
    no __set__; a foreign key's __set__ only drops a cached related object, which a new
    instance has none of)."""
    if model.__init__ is not Model.__init__ or model.from_db.__func__ is not \
            Model.from_db.__func__:
        return False
    for name in attnames:
        attr = inspect.getattr_static(model, name, None)
        if attr is not None and type(attr) not in (DeferredAttribute,
                                                    ForeignKeyDeferredAttribute):
            return False
    return True


_AUTOS = (models.AutoField, models.BigAutoField, models.SmallAutoField)
_INTEGERS = (models.IntegerField, models.BigIntegerField, models.SmallIntegerField,
             models.PositiveIntegerField, models.PositiveBigIntegerField,
             models.PositiveSmallIntegerField)
_TEXTS = (models.CharField, models.TextField, models.EmailField, models.SlugField)
_PREP_KIND: dict[Any, tuple[str, str]] = {}


def _prep_kind(field) -> tuple[str, str]:
    """Which values `prep_save` may prepare without the field's methods, and how: "text"
    (a str, as it is), "auto" (an int for an automatic key or a foreign key to one:
    the backend's validate_autopk_value), "int" (an int for an integer column or a
    foreign key to one: the backend's adapt_integerfield_value with the column's
    internal type, the second item), "datetime" (an aware datetime: the backend's
    adapt_datetimefield_value), "" (none). Only Django's own field classes, whose
    get_db_prep_save does exactly that for those values."""
    kind = _PREP_KIND.get(field)
    if kind is None:
        target = field.target_field if type(field) is models.ForeignKey else field
        kind = (("text", "") if type(field) in _TEXTS else
                ("auto", "") if type(target) in _AUTOS else
                ("int", target.get_internal_type()) if type(target) in _INTEGERS else
                ("datetime", "") if type(field) is models.DateTimeField else ("", ""))
        _PREP_KIND[field] = kind
    return kind


def prep_save(field, value: Any, conn) -> Any:
    """`field.get_db_prep_save(value, conn)`, with the usual values (None, a str for a
    text column, an int for an integer or a foreign key, an aware datetime) prepared
    without the field's method chain (a tenth of the order path's own CPU)."""
    if value is None:
        return None
    kind, internal = _prep_kind(field)
    t = type(value)
    if t is str and kind == "text":
        return value
    if t is int:
        if kind == "auto":
            return conn.ops.validate_autopk_value(value)
        if kind == "int":
            return conn.ops.adapt_integerfield_value(value, internal)
    if t is datetime and kind == "datetime" and value.tzinfo is not None:
        return conn.ops.adapt_datetimefield_value(value)
    return field.get_db_prep_save(value, conn)


def cache_related(obj: Model, name: str, value: Model | None) -> None:
    """Set `obj.<name>` (a forward relation) without a query, as select_related does."""
    obj._meta.get_field(name).set_cached_value(obj, value)


def insert_parts(obj: Model) -> tuple[str, list[Any]]:
    """(table and column list, parameters) of the INSERT that `obj.save()` would send for
    a new row: every concrete field but the automatic primary key, with its default and
    `pre_save` (auto_now_add) applied, prepared for this database."""
    meta, conn = obj._meta, db()
    fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
    params = [f.get_db_prep_save(f.pre_save(obj, True), conn) for f in fields]
    head = cached_sql(("insert", type(obj)), lambda: (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)})"))
    return head, params


def saved(obj: Model, pk: int) -> Model:
    """Mark `obj` as the stored row `pk` (what save() leaves behind)."""
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS
    return obj


def insert(obj: Model) -> Model:
    """`obj.save()` for a new row as one plain INSERT ... RETURNING id: no query
    compilation, and no model signals (none are connected to the models it serves)."""
    head, params = insert_parts(obj)
    sql = (f"{head} VALUES ({', '.join(['%s'] * len(params))}) "
           f"RETURNING {qn(obj._meta.pk.column)}")
    with cursor() as cur:
        cur.execute(sql, params)
        return saved(obj, cur.fetchone()[0])


def update(model: type[Model], values: dict[str, Any], where: dict[str, Any]) -> int:
    """UPDATE `model` SET values WHERE every `where` column equals its value (field names
    or attnames, e.g. "seat_id"): one plain statement; the number of rows changed."""
    meta, conn = model._meta, db()
    sets = [(meta.get_field(name), value) for name, value in values.items()]
    conds = [(meta.get_field(name), value) for name, value in where.items()]
    sql = cached_sql(("update", model, tuple(values), tuple(where)), lambda: (
        f"UPDATE {qn(meta.db_table)} SET "
        + ", ".join(f"{qn(f.column)} = %s" for f, _v in sets) + " WHERE "
        + " AND ".join(f"{qn(f.column)} = %s" for f, _v in conds)))
    params = [f.get_db_prep_save(v, conn) for f, v in sets]
    params += [f.get_db_prep_value(v, conn) for f, v in conds]
    with cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


# --- statements that use what earlier ones returned ------------------------------------
# what the statements of a chain returned so far, by statement name then column; None
# inside one PostgreSQL statement, where a later statement reads the CTE itself
Earlier = dict[str, dict[str, Any] | None] | None


@dataclasses.dataclass(frozen=True, eq=False)
class Ref:
    """A value a statement of a `chain` takes: a plain parameter (`value`), or column
    `column` of the row the earlier statement `name` returned (`ref`): inside one
    PostgreSQL statement a scalar subquery on that CTE, elsewhere a parameter holding
    what it returned (it has run)."""

    name: str | None = None
    column: str = "id"
    param: Any = None

    @property
    def key(self) -> tuple[str, str] | None:
        """What the SQL of this reference depends on (besides the database vendor)."""
        return None if self.name is None else (self.name, self.column)

    def sql(self) -> str:
        if self.name is not None and db().vendor == "postgresql":
            return f"(SELECT {qn(self.column)} FROM {self.name})"
        return "%s"

    def params(self, earlier: Earlier) -> list[Any]:
        if self.name is None:
            return [self.param]
        if earlier is None:
            return []
        row = earlier[self.name]
        return [None if row is None else row[self.column]]


def ref(name: str, column: str = "id") -> Ref:
    """Column `column` of the row chain statement `name` returned."""
    return Ref(name, column)


def value(param: Any) -> Ref:
    """A plain parameter where a chain statement takes a Ref."""
    return Ref(param=param)


@dataclasses.dataclass(frozen=True, eq=False)
class Stmt:
    """One statement of a `chain`. `sql()` gives its text without RETURNING, built once
    per database vendor and `key` (it must depend on nothing else: the references' keys
    belong in it); `params(earlier)` its parameters. `returning`: the columns the caller
    reads, of at most one row, the first never NULL; `inner`: more columns only later
    statements read (on PostgreSQL they never travel back to the client)."""

    name: str
    key: Any
    sql: Callable[[], str]
    params: Callable[[Earlier], list[Any]]
    returning: tuple[str, ...] = ()
    inner: tuple[str, ...] = ()

    def text(self) -> str:
        return cached_sql(("stmt", self.name, self.key), lambda: self.sql() + _returning(self))


def chain(stmts: Sequence[Stmt]) -> dict[str, dict[str, Any] | None]:
    """Run `stmts` in order, each using what the earlier ones returned (Ref): on
    PostgreSQL as ONE statement, each a data-modifying CTE (they share one snapshot, so
    none reads another's rows except through RETURNING, which is all they use);
    elsewhere one statement each. A constraint violation in any of them fails the call
    (and dooms the caller's transaction). Returns each statement's `returning` row by
    column name, None when it returned no row."""
    out: dict[str, dict[str, Any] | None] = {}
    if db().vendor == "postgresql":
        sql = cached_sql(("chain", tuple((s.name, s.key) for s in stmts)), lambda: (
            "WITH " + ", ".join(f"{s.name} AS ({s.text()})" for s in stmts) + " SELECT "
            + (", ".join(f"(SELECT {qn(c)} FROM {s.name})" for s in stmts
                         for c in s.returning) or "1")))
        params: list[Any] = []
        for stmt in stmts:
            params += stmt.params(None)
        with cursor() as cur:
            cur.execute(sql, params)
            row = list(cur.fetchone())
        for stmt in stmts:
            n = len(stmt.returning)
            got, row = row[:n], row[n:]
            # a CTE that returned no row reads as NULL (its first column never is)
            out[stmt.name] = dict(zip(stmt.returning, got)) if n and got[0] is not None \
                else None
        return out
    with cursor() as cur:
        for stmt in stmts:
            cur.execute(stmt.text(), stmt.params(out))
            found = cur.fetchone() if stmt.returning or stmt.inner else None
            out[stmt.name] = None if found is None else dict(
                zip(stmt.returning + stmt.inner, found))
    return out


def _returning(stmt: Stmt) -> str:
    cols = stmt.returning + stmt.inner
    return f" RETURNING {', '.join(qn(c) for c in cols)}" if cols else ""
