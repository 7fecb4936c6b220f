"""Thin Celery wrappers around actions. Idempotent: safe to deliver twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import actions


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OSError, OperationalError), retry_backoff=True, max_retries=5)
def resolve_turn(turn_id: int) -> bool:
    return actions.resolve_turn(turn_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    return len(actions.sweep_deadlines())
