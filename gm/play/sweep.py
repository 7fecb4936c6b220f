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
from django.utils import timezone

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


def _eager() -> bool:
    from gm.celery import app

    return bool(app.conf.task_always_eager)


def publish_resolves(turn_ids: Iterable[int],
                     at_deadline: Iterable[tuple[int, datetime]] = ()) -> None:
    """After commit, over a single producer connection: one resolve task per claimed turn,
    and one `resolve_at_deadline` task per (turn, deadline) with eta = the deadline.

    A broker that is down loses nothing: due turns are DUE in the database and the next
    sweep re-queues them once their lease is over; an unscheduled deadline is claimed by
    the sweep itself.
    """
    ids, timed = list(turn_ids), list(at_deadline)
    if _eager():
        # In-process mode: no worker to hold a timed task; the loop's sweep claims
        # deadlines as they pass.
        timed = []
    if not ids and not timed:
        return

    def send() -> None:
        from . import tasks

        try:
            if _eager():
                for pk in ids:
                    tasks.resolve_turn.delay(pk)
                return
            with tasks.resolve_turn.app.producer_or_acquire() as producer:
                for pk in ids:
                    tasks.resolve_turn.apply_async((pk,), producer=producer)
                for pk, deadline in timed:
                    tasks.resolve_at_deadline.apply_async((pk,), eta=deadline,
                                                          producer=producer)
        except Exception:  # noqa: BLE001 - the lease and the sweep bring them back
            log.warning("could not queue %d due turns and %d deadlines; the sweep will",
                        len(ids), len(timed), exc_info=True)

    transaction.on_commit(send)


# --- resolution at the deadline itself -----------------------------------------------
# A worker holds a task with an eta in memory until it is due. Only deadlines at most
# LOOKAHEAD away are queued (when the turn opens, or by the sweep as they come near), so
# few tasks wait in memory and none waits past the broker's visibility timeout (which
# would deliver it twice: harmless, the claim is a compare-and-set, but wasteful).
def lookahead() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "GM_DEADLINE_LOOKAHEAD_SECONDS", 60)))


def schedule_deadline(turn: Turn) -> None:
    """Queue the turn's resolution for its deadline if that is near (see LOOKAHEAD)."""
    if turn.deadline is not None and turn.deadline - timezone.now() <= lookahead():
        publish_resolves((), [(turn.pk, turn.deadline)])


def upcoming(now: datetime) -> list[tuple[int, datetime]]:
    """Open turns whose deadline enters the lookahead window since about two sweeps ago
    (each is queued about twice: a late or skipped sweep still leaves none out)."""
    end = now + lookahead()
    start = end - timedelta(seconds=2 * float(getattr(settings, "GM_SWEEP_SECONDS", 5)))
    return list(Turn.objects.filter(status=Turn.Status.OPEN, superseded=False,
                                    deadline__gt=max(start, now), deadline__lte=end)
                .values_list("pk", "deadline"))


def resolve_at_deadline(turn_id: int) -> bool:
    """Run by the task queued for the deadline: claim (OPEN -> DUE) and resolve at once.

    The claim is the same compare-and-set as the sweep's, so a turn the sweep, the "all
    orders in" check or a GM already claimed is left to them (resolve_turn is exactly
    once either way); a deadline the GM moved later is queued again when it comes near.
    """
    from . import actions

    now = timezone.now()
    if not Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN, superseded=False,
                               deadline__lte=now).update(status=Turn.Status.DUE,
                                                         claimed_at=now):
        row = (Turn.objects.filter(pk=turn_id, superseded=False)
               .values_list("status", "deadline").first())
        if row is None or row[0] != Turn.Status.DUE:  # resolved, set aside, or not due
            if row is not None and row[0] == Turn.Status.OPEN and row[1] is not None \
                    and row[1] - now <= lookahead():
                publish_resolves((), [(turn_id, row[1])])
            return False
        # claimed by someone else and not resolved yet: resolving here is still once only
    return actions.resolve_turn(turn_id)


def sweep(now: datetime) -> list[int]:
    """Claim every due turn and renew stale claims, then queue them all, with the
    deadlines coming near (for the second). Returns the claimed ids."""
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
    publish_resolves(claimed, [] if _eager() else upcoming(now))
    return claimed
