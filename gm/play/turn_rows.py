"""Plain SQL for resolving and publishing a turn (`actions.resolve_turn`, `publish`,
`open_turn`): the claim, the orders in force, and the writes.

Building and compiling the ORM's queries cost about ten times the engine's own work per
turn (bench/README.md, issue 14), so these statements are written here once, in the
style of `gm.play.rows`, and on PostgreSQL a resolution takes four: the claim with the
locks and both rows, the orders, all the writes in one statement (`rows.chain`), and the
COMMIT; SQLite runs the same SQL one statement at a time.

* `claim`: the compare-and-set DUE -> RESOLVED, the turn and then its game locked, both
  read; on PostgreSQL one statement (the UPDATE in a CTE, the game locked FOR UPDATE by
  the SELECT joining it, so a GM act that committed while we waited is read at its
  newest version).
* `latest_orders`: the seats' modes and latest orders, in a statement of its own after the
  claim, so that it reads with a snapshot taken after the locks: orders committed by a
  transaction the claim waited for (the "all orders in" that made the turn DUE) count.
* The writes, as `rows.Stmt`s for one `rows.chain`: the record (its state_before copied
  from the game row inside the database, not sent back), the game's new state (on
  PostgreSQL taken from the record's RETURNING, so the state is encoded once and sent
  once), the reports, the thread post, the next turn (its attempt a subquery), the
  notices (ON CONFLICT DO NOTHING: one row per event), the status changes of GM paths.

Each INSERT names every concrete column of its model (`_head` refuses to build one that
misses a field added later), with the values `Model.save()` would write; JSON is encoded
with `json.dumps`, as JSONField does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import Model

from .live_rows import turn_and_game
from .models import Game, LogEntry, Notice, Post, Report, Seat, Submission, Turn, TurnRecord
from .rows import (
    Columns,
    Earlier,
    Ref,
    Stmt,
    cache_related,
    cached_sql,
    cursor,
    db,
    qn,
)

_TURN = Columns(Turn, "t")
_GAME = Columns(Game, "g")


def _at(moment: datetime | None) -> Any:
    return None if moment is None else db().ops.adapt_datetimefield_value(moment)


# --- reading -------------------------------------------------------------------------------
def claim(turn_id: int, status: str, now: datetime) -> tuple[Turn, Game] | None:
    """DUE -> `status` (resolved_at = now) for a live turn, the turn and then its game
    locked, both read (the turn as updated); None when the turn is not DUE or was set
    aside. One statement on PostgreSQL, two elsewhere (SQLite's BEGIN IMMEDIATE already
    serialises writers)."""
    params = [status, _at(now), turn_id, Turn.Status.DUE.value, False]
    with cursor() as cur:
        cur.execute(cached_sql("claim", _claim_sql), params)
        if db().vendor != "postgresql":
            if cur.rowcount != 1:
                return None
            cur.execute(cached_sql("claimed", _claimed_sql), [turn_id])
        row = cur.fetchone()
    if row is None:
        return None
    return turn_and_game(row, _TURN, _GAME)


def _claim_update() -> str:
    return (f"UPDATE {qn(Turn._meta.db_table)} SET {qn('status')} = %s, "
            f"{qn('resolved_at')} = %s WHERE {qn('id')} = %s AND {qn('status')} = %s "
            f"AND {qn('superseded')} = %s")


def _claim_sql() -> str:
    if db().vendor != "postgresql":
        return _claim_update()
    turn_cols = ", ".join(qn(f.column) for f in _TURN.fields)
    return (f"WITH c AS ({_claim_update()} RETURNING {turn_cols}) "
            f"SELECT c.*, {_GAME.sql()} FROM c INNER JOIN {qn(Game._meta.db_table)} g "
            f"ON g.{qn('id')} = c.{qn('game_id')} FOR UPDATE OF g")


def _claimed_sql() -> str:
    return (f"SELECT {_TURN.sql()}, {_GAME.sql()} FROM {qn(Turn._meta.db_table)} t "
            f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = t.{qn('game_id')} "
            f"WHERE t.{qn('id')} = %s")


def latest_orders(turn: Turn) -> dict[str, tuple[str, Any]]:
    """{seat name: (its mode, its latest orders for `turn` as JSON, None when withdrawn
    or never sent)} for every seat of the game; one statement whatever their number."""
    with cursor() as cur:
        cur.execute(cached_sql("latest_orders", _latest_orders_sql), [turn.pk, turn.game_id])
        found = cur.fetchall()
    return {name: (mode, json.loads(orders) if isinstance(orders, str) else orders)
            for name, mode, orders in found}


def _latest_orders_sql() -> str:
    sub_table, seat_table = qn(Submission._meta.db_table), qn(Seat._meta.db_table)
    latest = (f"(SELECT u.{qn('orders')} FROM {sub_table} u WHERE u.{qn('turn_id')} = %s "
              f"AND u.{qn('seat_id')} = s.{qn('id')} ORDER BY u.{qn('version')} DESC "
              "LIMIT 1)")
    return (f"SELECT s.{qn('name')}, s.{qn('mode')}, {latest} FROM {seat_table} s "
            f"WHERE s.{qn('game_id')} = %s")


# --- writing: statements for rows.chain ------------------------------------------------------
def _head(model: type[Model], attnames: Sequence[str]) -> str:
    """`INSERT INTO table (columns)` for `attnames`, which must be every concrete field
    but the automatic key: a field added to the model later fails here, loudly, instead
    of being left to its database default."""
    def build() -> str:
        meta = model._meta
        fields = {f.attname: f for f in meta.concrete_fields if f is not meta.auto_field}
        if set(fields) != set(attnames):
            raise TypeError(f"{model.__name__} insert: columns {sorted(attnames)} are not "
                            f"its fields {sorted(fields)}")
        return (f"INSERT INTO {qn(meta.db_table)} "
                f"({', '.join(qn(fields[a].column) for a in attnames)})")
    return cached_sql(("insert", model, tuple(attnames)), build)


def _json(value: Any) -> str:
    return json.dumps(value)


_RECORD = ("game_id", "turn_id", "number", "orders", "defaulted", "draws", "events",
           "overrides", "amendments", "attempt", "state_before", "state_after",
           "before_hash", "after_hash", "published", "superseded", "created")


def insert_record(record: TurnRecord, now: datetime, state_text: str | None = None) -> Stmt:
    """INSERT `record` (not stored yet); its state_before is the game row's state as the
    claim read it (copied inside the database). Returns `id`; `state_after` for
    `set_game_state`. `state_text`: a JSON text of `record.state_after` the caller holds
    (the canonical text run_turn read the state back from), sent as it is instead of
    encoding the state again: the same JSON value."""
    def sql() -> str:
        values = ["%s"] * len(_RECORD)
        values[_RECORD.index("state_before")] = (
            f"(SELECT {qn('state')} FROM {qn(Game._meta.db_table)} WHERE {qn('id')} = %s)")
        return f"{_head(TurnRecord, _RECORD)} VALUES ({', '.join(values)})"

    def params(earlier: Earlier) -> list[Any]:
        return [record.game_id, record.turn_id, record.number, _json(record.orders),
                _json(record.defaulted), _json(record.draws), _json(record.events),
                _json(record.overrides), _json(record.amendments), record.attempt,
                record.game_id,
                _json(record.state_after) if state_text is None else state_text,
                record.before_hash,
                record.after_hash, record.published, record.superseded, _at(now)]
    return Stmt("rec", "record", sql, params, returning=("id",), inner=("state_after",))


def set_game_state(game_id: int, state: Ref, state_hash: str, *,
                   finished: tuple[datetime, Any] | None = None) -> Stmt:
    """The game's state and its hash (`state`: the record's, `rows.ref("rec",
    "state_after")`); with `finished` (when, result) the game is also over, in the same
    UPDATE (a statement of a chain must not update a row another one updates)."""
    def sql() -> str:
        return (f"UPDATE {qn(Game._meta.db_table)} SET {qn('state')} = {state.sql()}, "
                f"{qn('state_hash')} = %s{', ' + _finish_set() if finished else ''} "
                f"WHERE {qn('id')} = %s")

    def params(earlier: Earlier) -> list[Any]:
        ends = [] if finished is None else _finish_params(*finished)
        return [*state.params(earlier), state_hash, *ends, game_id]
    return Stmt("gst", ("game_state", state.key, finished is not None), sql, params)


def finish_game(game_id: int, finished: datetime, result: Any) -> Stmt:
    """The game is over: its status, end and result (what `save(update_fields=...)` of
    them wrote)."""
    def sql() -> str:
        return (f"UPDATE {qn(Game._meta.db_table)} SET {_finish_set()} "
                f"WHERE {qn('id')} = %s")
    return Stmt("fin", "finish_game", sql,
                lambda earlier: [*_finish_params(finished, result), game_id])


def _finish_set() -> str:
    return f"{qn('status')} = %s, {qn('finished')} = %s, {qn('result')} = %s"


def _finish_params(finished: datetime, result: Any) -> list[Any]:
    return [Game.Status.FINISHED.value, _at(finished), _json(result)]


_LOG = ("game_id", "actor_id", "action", "reason", "public", "private", "turn_number",
        "created")


def insert_log(game_id: int, action: str, public: str, now: datetime) -> Stmt:
    """A line of the game's log by the service (no actor, reason or private details)."""
    def sql() -> str:
        return f"{_head(LogEntry, _LOG)} VALUES (%s, NULL, %s, %s, %s, %s, NULL, %s)"
    return Stmt("log", "log", sql,
                lambda earlier: [game_id, action, "", public, "{}", _at(now)])


def set_turn_status(turn_id: int, status: str) -> Stmt:
    def sql() -> str:
        return (f"UPDATE {qn(Turn._meta.db_table)} SET {qn('status')} = %s "
                f"WHERE {qn('id')} = %s")
    return Stmt("tst", "turn_status", sql, lambda earlier: [status, turn_id])


def mark_published(record_id: int) -> Stmt:
    def sql() -> str:
        return (f"UPDATE {qn(TurnRecord._meta.db_table)} SET {qn('published')} = %s "
                f"WHERE {qn('id')} = %s")
    return Stmt("pub", "published", sql, lambda earlier: [True, record_id])


_REPORT = ("markdown", "rendered", "record_id", "audience")


def insert_reports(record: Ref, texts: Sequence[tuple[str, str]]) -> Stmt:
    """One row per (audience, markdown), HTML left to the first reader
    (RenderedMarkdown)."""
    def sql() -> str:
        row = f"(%s, NULL, {record.sql()}, %s)"
        return f"{_head(Report, _REPORT)} VALUES {', '.join([row] * len(texts))}"

    def params(earlier: Earlier) -> list[Any]:
        rec, out = record.params(earlier), []
        for audience, markdown in texts:
            out += [markdown, *rec, audience]
        return out
    return Stmt("rep", ("reports", len(texts), record.key), sql, params)


_POST = ("markdown", "rendered", "game_id", "author_id", "kind", "turn_number", "created")


def insert_post(game_id: int, kind: str, turn_number: int | None, markdown: str,
                now: datetime) -> Stmt:
    """A thread post by nobody (a turn's report), HTML left to the first reader."""
    def sql() -> str:
        return f"{_head(Post, _POST)} VALUES (%s, NULL, %s, NULL, %s, %s, %s)"
    return Stmt("post", "post", sql,
                lambda earlier: [markdown, game_id, kind, turn_number, _at(now)])


_TURN_INSERT = ("game_id", "number", "status", "decision", "opened", "deadline",
                "claimed_at", "resolved_at", "overrides", "amendments", "superseded",
                "attempt", "reminded", "queued_for")


def insert_turn(game_id: int, number: int, decision: dict[str, Any],
                deadline: datetime | None, attempt: int | None, now: datetime) -> Stmt:
    """A new OPEN turn. `attempt` None: one more than any earlier turn of that number
    (set aside by a rerun or rollback), 1 for the first, computed by the INSERT itself.
    Returns `id`, `attempt`."""
    def sql() -> str:
        table = qn(Turn._meta.db_table)
        attempt_sql = "%s" if attempt is not None else (
            f"COALESCE((SELECT {qn('attempt')} FROM {table} WHERE {qn('game_id')} = %s "
            f"AND {qn('number')} = %s ORDER BY {qn('attempt')} DESC LIMIT 1), 0) + 1")
        return (f"{_head(Turn, _TURN_INSERT)} VALUES (%s, %s, %s, %s, %s, %s, NULL, NULL, "
                f"%s, %s, %s, {attempt_sql}, %s, NULL)")

    def params(earlier: Earlier) -> list[Any]:
        return [game_id, number, Turn.Status.OPEN.value, _json(decision), _at(now),
                _at(deadline), "{}", "[]", False,
                *([game_id, number] if attempt is None else [attempt]), False]
    return Stmt("nxt", ("turn", attempt is None), sql, params, returning=("id", "attempt"))


def new_turn(game: Game, number: int, decision: dict[str, Any], deadline: datetime | None,
             attempt: int, now: datetime, pk: int) -> Turn:
    """The Turn instance of the row `insert_turn` wrote (its game attached)."""
    values = {"id": pk, "game_id": game.pk, "number": number,
              "status": Turn.Status.OPEN.value, "decision": decision, "opened": now,
              "deadline": deadline, "claimed_at": None, "resolved_at": None,
              "overrides": {}, "amendments": [], "superseded": False, "attempt": attempt,
              "reminded": False, "queued_for": None}
    turn = Turn.from_db(db().alias, _TURN.attnames, [values[a] for a in _TURN.attnames])
    cache_related(turn, "game", game)
    return turn


def insert_notices(game_id: int, events: Sequence[tuple[str, Ref]], now: datetime) -> Stmt:
    """Notice rows for `events` (kind, object id) in that order, each written once
    (ON CONFLICT DO NOTHING on the unique event), in the caller's transaction."""
    def sql() -> str:
        head = _head(Notice, ("game_id", "kind", "object_id", "created", "handled"))
        rows = ", ".join(f"(%s, %s, {object_id.sql()}, %s, NULL)" for _k, object_id in events)
        return f"{head} VALUES {rows} ON CONFLICT DO NOTHING"

    def params(earlier: Earlier) -> list[Any]:
        at, out = _at(now), []
        for kind, object_id in events:
            out += [game_id, kind, *object_id.params(earlier), at]
        return out
    return Stmt("ntc", ("notices", tuple(object_id.key for _k, object_id in events)), sql,
                params)
