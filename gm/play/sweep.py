"""Set-based deadline claims: one statement claims a batch of due turns.

`actions.sweep_deadlines` used to claim each due turn in its own transaction and publish
each resolve task on its own broker connection: 1,000 due turns took 35-50 s. Here one
`UPDATE ... WHERE id IN (SELECT ... FOR UPDATE) RETURNING id` claims up to `BATCH` turns
(PostgreSQL; SQLite runs the same statement without the lock clause, its writers being
serialised by BEGIN IMMEDIATE), and the tasks go out over one producer connection.

Why the lock clause waits instead of skipping (SKIP LOCKED): a turn the GM is setting
aside is locked by the rollback; the sweep must wait for that decision and then re-check
(PostgreSQL re-evaluates the WHERE clause on the row's newest version), so a set-aside
turn is never claimed and a turn the GM reopened is not skipped for a whole interval.
Rows are locked in id order, so two sweeps never deadlock on each other.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction

from .models import Turn

log = logging.getLogger(__name__)
BATCH = 1000
MAX_BATCHES = 20  # at most 20,000 claims per sweep; the next sweep takes the rest


def _set_claim(where: str, params: list, set_status: str | None, now: datetime,
               limit: int) -> list[int]:
    """UPDATE the turns matching `where` (at most `limit`, in id order); their ids."""
    table = connection.ops.quote_name(Turn._meta.db_table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    at = connection.ops.adapt_datetimefield_value(now)
    assignments = "claimed_at = %s"
    values: list = [at]
    if set_status is not None:
        assignments = "status = %s, " + assignments
        values = [set_status, at]
    sql = (f"UPDATE {table} SET {assignments} WHERE id IN ("
           f"SELECT id FROM {table} WHERE {where} ORDER BY id LIMIT %s{lock}) "
           f"AND {where} RETURNING id")
    with connection.cursor() as cur:
        cur.execute(sql, [*values, *params, limit, *params])
        return sorted(row[0] for row in cur.fetchall())


def _at(moment: datetime):
    return connection.ops.adapt_datetimefield_value(moment)


def claim_due(now: datetime, limit: int = BATCH) -> list[int]:
    """OPEN -> DUE for live turns past their deadline, in one statement."""
    return _set_claim("status = %s AND deadline <= %s AND NOT superseded",
                      [str(Turn.Status.OPEN), _at(now)], str(Turn.Status.DUE), now, limit)


def reclaim_stale(now: datetime, limit: int = BATCH) -> list[int]:
    """Renew the lease of DUE turns whose worker vanished (claimed before the lease)."""
    before = now - timedelta(seconds=settings.GM_RESOLVE_LEASE_SECONDS)
    return _set_claim("status = %s AND claimed_at < %s AND NOT superseded",
                      [str(Turn.Status.DUE), _at(before)], None, now, limit)


def publish_resolves(turn_ids: Iterable[int]) -> None:
    """Queue one resolve task per turn over a single producer connection, after commit.

    A broker that is down loses nothing: the turns are DUE in the database and the next
    sweep re-queues them once their lease is over.
    """
    ids = list(turn_ids)
    if not ids:
        return

    def send() -> None:
        from . import tasks

        try:
            if tasks.resolve_turn.app.conf.task_always_eager:
                for pk in ids:
                    tasks.resolve_turn.delay(pk)
                return
            with tasks.resolve_turn.app.producer_or_acquire() as producer:
                for pk in ids:
                    tasks.resolve_turn.apply_async((pk,), producer=producer)
        except Exception:  # noqa: BLE001 - the lease brings them back
            log.warning("could not queue %d due turns; the sweep re-queues them after the "
                        "lease", len(ids), exc_info=True)

    transaction.on_commit(send)


def sweep(now: datetime) -> list[int]:
    """Claim every due turn and renew stale claims, then queue them all. Returns the ids."""
    claimed: list[int] = []
    for claim in (claim_due, reclaim_stale):
        for _ in range(MAX_BATCHES):
            batch = claim(now)
            claimed += batch
            if claim is reclaim_stale and batch:
                log.warning("turn ids %s were claimed but not resolved: re-queued", batch)
            if len(batch) < BATCH:
                break
    if claimed:
        log.info("%d turns are due (deadline)", len(claimed))
    publish_resolves(claimed)
    return claimed
