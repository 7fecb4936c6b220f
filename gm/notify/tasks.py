"""Thin Celery wrappers around the tick and the webhook sender."""

from __future__ import annotations

from celery import shared_task

from gm import wakeups

from . import tick as ticking
from . import webhooks


@shared_task(ignore_result=True)
def tick() -> dict[str, int]:
    """Periodic (beat): reminders, held notices, digests, webhooks."""
    return ticking.run()


@shared_task(ignore_result=True)
def send_webhooks() -> int:
    """Woken after a delivery is written; the tick is the backstop."""
    return webhooks.send_due()


wakeups.register(tick, send_webhooks)
