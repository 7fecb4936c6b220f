"""Set-based deadline claims: one statement claims a batch of due turns.

`actions.sweep_deadlines` used to claim each due turn in its own transaction and publish
each resolve task on its own broker connection: 1,000 due turns took 35-50 s. Here one
`UPDATE ... WHERE id IN (SELECT ... FOR UPDATE) RETURNING id` claims up to `BATCH` turns
(PostgreSQL; SQLite runs the same statement without the lock clause, its writers being
serialised by BEGIN IMMEDIATE), and the tasks go out over one producer connection, in
pipelined batches on Redis (`publish_resolves`).

Why the lock clause waits instead of skipping (SKIP LOCKED): a turn the GM is setting
aside is locked by the rollback; the sweep must wait for that decision and then re-check
(PostgreSQL re-evaluates the WHERE clause on the row's newest version), so a set-aside
turn is never claimed and a turn the GM reopened is not skipped for a whole interval.
Rows are locked in id order, so two sweeps never deadlock on each other.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from gm import wakeups

from .models import Turn

log = logging.getLogger(__name__)
BATCH = 1000
MAX_BATCHES = 20  # at most 20,000 claims per sweep; the next sweep takes the rest
PUBLISH_BATCH = 1000  # Redis commands per pipeline when publishing (one LPUSH a message)


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


def _eager() -> bool:
    from gm.celery import app

    return bool(app.conf.task_always_eager)


def _batch(producer: Any) -> AbstractContextManager:
    """kombu's publish batch (kombu 5.7+; older kombu publishes message by message)."""
    batch = getattr(producer, "batch", None)
    return batch(max_size=PUBLISH_BATCH) if batch is not None else nullcontext()


def _reprs(args: tuple) -> dict[str, str]:
    """The message's argsrepr/kwargsrepr headers as Celery's saferepr writes them for
    these short arguments (a number, an ISO date), without its cost per message."""
    return {"argsrepr": repr(args), "kwargsrepr": "{}"}


def publish_resolves(turn_ids: Iterable[int],
                     at_deadline: Iterable[tuple[int, datetime]] = ()) -> None:
    """After commit, over a single producer connection: one resolve task per claimed turn,
    and one `resolve_at_deadline` task per (turn, deadline) with eta = the deadline.

    On Redis the messages go out in batches (kombu's `Producer.batch`: one pipeline, one
    round trip per 1,000 commands instead of one per message); each message is built by
    Celery as before, so workers see the same format. Transports without batches
    (RabbitMQ) publish each message at once, as before.

    A broker that is down loses nothing: due turns are DUE in the database and the next
    sweep re-queues them once their lease is over; an unscheduled deadline is claimed by
    the sweep itself. A batch that fails part-way may have queued some messages: a turn
    queued twice is resolved once (resolve_turn is a compare-and-set).
    """
    ids, timed = list(turn_ids), list(at_deadline)
    if _eager():
        # In-process mode: no worker to hold a timed task; the loop's sweep claims
        # deadlines as they pass.
        timed = []
    if not ids and not timed:
        return

    def send() -> None:
        resolve = wakeups.task("gm.play.tasks.resolve_turn")
        at_deadline = wakeups.task("gm.play.tasks.resolve_at_deadline")
        try:
            if _eager():
                for pk in ids:
                    resolve.delay(pk)
                return
            with resolve.app.producer_or_acquire() as producer, \
                    _batch(producer):
                for pk in ids:
                    resolve.apply_async((pk,), producer=producer, **_reprs((pk,)))
                for pk, deadline in timed:
                    args = (pk, deadline.isoformat())
                    at_deadline.apply_async(args, eta=deadline, producer=producer,
                                            **_reprs(args))
        except Exception:  # noqa: BLE001 - the lease and the sweep bring them back
            log.warning("could not queue %d due turns and %d deadlines; the sweep will",
                        len(ids), len(timed), exc_info=True)

    transaction.on_commit(send)


# --- resolution at the deadline itself -----------------------------------------------
# A worker holds a task with an eta in memory until it is due. Only deadlines at most
# LOOKAHEAD away are queued (when the turn opens, or by the sweep as they come near), so
# few tasks wait in memory and none waits past the broker's visibility timeout.
#
# Each deadline is queued once: the statement that picks the turns to queue also sets
# their `queued_for` to the deadline, and picks only turns whose `queued_for` differs.
# A deadline the GM moves differs again and is queued again when near. A queued message
# that is lost (broker restart, publish failure) leaves the turn OPEN, so the sweep's
# claim takes it once the deadline has passed: at most one interval late, as before.
def lookahead() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "GM_DEADLINE_LOOKAHEAD_SECONDS", 60)))


def timed() -> bool:
    """Timed tasks are on: a worker to hold them, and a lookahead (negative = off)."""
    return not _eager() and lookahead() >= timedelta(0)


def moment(value: datetime | str) -> datetime:
    """A datetime read back by a raw cursor (SQLite returns text for RETURNING)."""
    if isinstance(value, str):
        parsed = parse_datetime(value)
        if parsed is None:
            raise ValueError(f"not a datetime: {value!r}")
        value = parsed
    if settings.USE_TZ and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def mark_queued(now: datetime, turn_id: int | None = None) -> list[tuple[int, datetime]]:
    """Set `queued_for = deadline` on the open turns whose deadline is at most LOOKAHEAD
    away and not yet queued (all of them, or the one turn); their (id, deadline).

    Rows another transaction holds (an order being stored, a GM edit) are skipped
    (SKIP LOCKED), not waited for: the next sweep queues them, and the sweep's claim is
    the backstop either way.
    """
    table = connection.ops.quote_name(Turn._meta.db_table)
    lock = " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked \
        else ""
    where = ("status = %s AND NOT superseded AND deadline IS NOT NULL AND deadline <= %s "
             "AND (queued_for IS NULL OR queued_for <> deadline)")
    params: list = [str(Turn.Status.OPEN), _at(now + lookahead())]
    if turn_id is not None:
        where += " AND id = %s"
        params.append(turn_id)
    sql = (f"UPDATE {table} SET queued_for = deadline WHERE id IN ("
           f"SELECT id FROM {table} WHERE {where}{lock}) AND {where} RETURNING id, deadline")
    with connection.cursor() as cur:
        cur.execute(sql, [*params, *params])
        return sorted((pk, moment(deadline)) for pk, deadline in cur.fetchall())


def schedule_deadline(turn: Turn) -> None:
    """Queue the turn's resolution for its deadline if that is near (see LOOKAHEAD)."""
    if (timed() and turn.deadline is not None
            and turn.deadline - timezone.now() <= lookahead()):
        publish_resolves((), mark_queued(timezone.now(), turn.pk))


def sweep(now: datetime) -> list[int]:
    """Claim every due turn and renew stale claims, then queue them all, with the
    deadlines coming near that are not queued yet (for the second). Returns the claimed
    ids."""
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
    publish_resolves(claimed, mark_queued(now) if timed() else [])
    return claimed
