"""Thin Celery wrappers: deliver one outbox row (retried with backoff), compose a
service event's notices, reminders, and the periodic catch-up from the database."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import notices, outbox


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             max_retries=8)
def deliver(self, outbox_id: int) -> bool:
    try:
        return outbox.deliver(outbox_id)
    except (outbox.TransientSendError, OperationalError) as exc:
        if self.request.retries >= self.max_retries:
            outbox.give_up(outbox_id)
            return False
        if self.request.is_eager:
            # In-process (embedded) mode: no broker to wait on; the periodic sweep
            # (deliver_pending) retries the row later.
            return False
        countdown = outbox.backoff_seconds(self.request.retries + 1)
        raise self.retry(exc=exc, countdown=countdown) from exc


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def notify(event: str, pk: int) -> None:
    """Compose the notices of a service event (turn opened/published, game over)."""
    notices.notify(event, pk)


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Periodic (beat): deadline reminders."""
    return notices.send_reminders()


@shared_task(ignore_result=True)
def deliver_pending() -> int:
    """Periodic (beat, `run_deadlines --loop`, `serve`): whatever the broker lost is
    handled from the database: service events' notices, then pending mail."""
    notices.catch_up()
    return outbox.deliver_pending()
