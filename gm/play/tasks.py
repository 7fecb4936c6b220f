"""Thin Celery wrappers around actions. Idempotent: safe to deliver twice."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from gm import wakeups

from . import actions

# A database outage is ridden out over minutes: 15 s doubling to 10 min between tries,
# about an hour in all; after that (or if the retry cannot be queued) the sweep
# re-queues the claim once its lease is over. Retrying is safe: resolution is idempotent.
RESOLVE_RETRY = {"autoretry_for": (OSError, OperationalError, InterfaceError),
                 "retry_backoff": 15, "retry_backoff_max": 600, "retry_jitter": False,
                 "max_retries": 10}


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, **RESOLVE_RETRY)
def resolve_turn(turn_id: int) -> bool:
    return actions.resolve_turn(turn_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, **RESOLVE_RETRY)
def resolve_at_deadline(turn_id: int, deadline: str | None = None) -> bool:
    """Queued with eta = the turn's deadline (gm.play.sweep): claim and resolve on time.
    `deadline` (ISO 8601) is the one it was queued for; messages queued without it work."""
    return actions.resolve_at_deadline(turn_id, deadline)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    return len(actions.sweep_deadlines())


wakeups.register(resolve_turn, resolve_at_deadline, sweep_deadlines)
