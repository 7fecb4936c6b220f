"""Thin Celery wrappers: deliver outbox rows (one, or a batch over one connection,
retried with backoff), compose service events' notices (a resolution's events in one
task), reminders, and the periodic catch-up from the database."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from gm import wakeups

from . import notices, outbox


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             max_retries=8)
def deliver(self, outbox_ids: int | list[int]) -> bool | int:
    """Send one outbox row (True when sent now), or a batch of them (a list of ids: one
    task per batch; returns how many were sent now).

    Only what failed is retried, with backoff: the batch's rows that were sent are not
    handed to the retry, so a refused address neither holds back nor repeats the others."""
    single = isinstance(outbox_ids, int)
    sent, failed, error = _send(outbox_ids)
    if failed and self.request.retries >= self.max_retries:
        outbox.give_up(failed)
    elif failed and not self.request.is_eager:
        # (In-process, embedded mode there is no broker to wait on: the periodic sweep,
        # deliver_pending, retries the rows later.)
        countdown = outbox.backoff_seconds(self.request.retries + 1)
        raise self.retry(args=(failed[0] if single else failed,), exc=error,
                         countdown=countdown) from error
    return bool(sent) if single else sent


def _send(outbox_ids: int | list[int]) -> tuple[int, list[int], Exception | None]:
    """(sent now, ids to retry, the error to retry on) for one row or a batch."""
    ids = [outbox_ids] if isinstance(outbox_ids, int) else list(outbox_ids)
    try:
        if isinstance(outbox_ids, int):
            return int(outbox.deliver(outbox_ids)), [], None
        sent, errors = outbox.deliver_many(ids)
    except (outbox.TransientSendError, OperationalError) as exc:
        return 0, ids, exc
    failed = list(errors)
    return sent, failed, outbox.TransientSendError(errors[failed[0]]) if failed else None


@shared_task(acks_late=True, reject_on_worker_lost=True,
             ignore_result=True, autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=5)
def notify(events: str | list[Any], pk: int | None = None) -> None:
    """Compose the notices of service events in one go: a resolution sends its report,
    next-turn and game-over events together, [[kind, object id], ...]. The older form
    notify(kind, object id), one event, is still accepted (messages queued before)."""
    if isinstance(events, str):
        events = [(events, pk)]
    notices.notify_many([(str(kind), int(object_id)) for kind, object_id in events])


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


wakeups.register(deliver, notify)
