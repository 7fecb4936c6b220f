"""Outbound mail through an outbox: one row per (event, recipient), sent after commit.

`enqueue` writes the row inside the caller's transaction under a unique key and queues
delivery on commit; a second enqueue with the same key is a no-op, so duplicate signals
and reruns never mail twice. `deliver` claims the row (PENDING -> SENDING) before
sending and marks it SENT after; transport errors put it back to PENDING and the task
retries with backoff. The Message-ID is fixed when the row is written, so in the one
window where a crash can resend (after the SMTP hand-off, before the mark) the
recipient's client sees the same message.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from email.utils import make_msgid
from typing import Any

from django.conf import settings
from django.core.mail import BadHeaderError, EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import Outbox

log = logging.getLogger(__name__)


def _domain() -> str:
    return getattr(settings, "GM_MAIL_DOMAIN", "localhost")


def new_message_id() -> str:
    return make_msgid(domain=_domain())


def enqueue(*, key: str, kind: str, to: str, subject: str, text: str, html: str = "",
            user=None, reply_to: str = "", headers: dict[str, str] | None = None,
            inbound=None, message_id: str | None = None, turn=None,
            key_is_locked: bool = False) -> Outbox | None:
    """Write one outbound mail unless its key exists; deliver it after commit.

    Returns the new row, or None when this (event, recipient) was already queued.
    `key_is_locked`: the caller holds a lock under which the key cannot exist yet (the
    inbound pipeline's reply, written after its row's claim), so no savepoint is spent.
    """
    try:
        with transaction.atomic(savepoint=not key_is_locked):
            row = Outbox.objects.create(
                key=key[:200], kind=kind, user=user, to=to, subject=subject[:255],
                body_text=text, body_html=html, headers=headers or {}, reply_to=reply_to,
                message_id=message_id or new_message_id(), inbound=inbound, turn=turn)
            transaction.on_commit(lambda: _queue(row.pk))
    except IntegrityError:  # this (event, recipient) was queued before
        return None
    return row


def _queue(pk: int) -> None:
    from . import tasks

    tasks.deliver.delay(pk)


def build(row: Outbox) -> EmailMultiAlternatives:
    headers: dict[str, Any] = {"Message-ID": row.message_id, **row.headers}
    mail = EmailMultiAlternatives(
        subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to], reply_to=[row.reply_to] if row.reply_to else None, headers=headers)
    if row.body_html:
        mail.attach_alternative(row.body_html, "text/html")
    return mail


class TransientSendError(OSError):
    """Sending failed in a way worth retrying."""


def deliver(pk: int) -> bool:
    """Send one outbox row if it is still pending. True when it was sent now."""
    now = timezone.now()
    if not Outbox.objects.filter(pk=pk, status=Outbox.Status.PENDING).update(
            status=Outbox.Status.SENDING, claimed_at=now):
        return False
    row = Outbox.objects.get(pk=pk)
    try:
        message = build(row)
        message.message()  # a header that cannot be written fails here, and for good
    except BadHeaderError as exc:
        Outbox.objects.filter(pk=pk).update(status=Outbox.Status.FAILED,
                                            attempts=row.attempts + 1,
                                            last_error=f"not retried: {exc}"[:2000])
        log.error("mail %s to %s cannot be built, given up: %s", row.key, row.to, exc)
        return False
    try:
        message.send(fail_silently=False)
    except Exception as exc:
        Outbox.objects.filter(pk=pk).update(status=Outbox.Status.PENDING,
                                            attempts=row.attempts + 1,
                                            last_error=f"{type(exc).__name__}: {exc}"[:2000])
        log.warning("mail %s to %s failed (attempt %s): %s", row.key, row.to,
                    row.attempts + 1, exc)
        raise TransientSendError(str(exc)) from exc
    Outbox.objects.filter(pk=pk).update(status=Outbox.Status.SENT, sent_at=timezone.now(),
                                        attempts=row.attempts + 1, last_error="")
    return True


def give_up(pk: int) -> None:
    Outbox.objects.filter(pk=pk, status=Outbox.Status.PENDING).update(
        status=Outbox.Status.FAILED)


def backoff_seconds(attempts: int) -> float:
    """Wait before the next attempt after `attempts` failed ones: 30 s doubling, max 1 h."""
    return float(min(3600, 30 * 2 ** max(0, attempts - 1)))


def requeue_stale(now=None, *, pending_after: float = 120.0,
                  sending_lease: float = 600.0, max_attempts: int = 9) -> list[int]:
    """Re-queue rows whose task was lost: pending too long (respecting the backoff after
    failed attempts), or claimed and never finished. Rows out of attempts are FAILED."""
    now = now or timezone.now()
    Outbox.objects.filter(status=Outbox.Status.PENDING, attempts__gte=max_attempts).update(
        status=Outbox.Status.FAILED)
    pending = Outbox.objects.filter(status=Outbox.Status.PENDING,
                                    created__lt=now - timedelta(seconds=pending_after))
    ids = [pk for pk, attempts, claimed in
           pending.values_list("pk", "attempts", "claimed_at")[:500]
           if claimed is None or claimed <= now - timedelta(seconds=backoff_seconds(attempts))]
    stale = Outbox.objects.filter(status=Outbox.Status.SENDING,
                                  claimed_at__lt=now - timedelta(seconds=sending_lease))
    stale_ids = list(stale.values_list("pk", flat=True)[:500])
    Outbox.objects.filter(pk__in=stale_ids, status=Outbox.Status.SENDING).update(
        status=Outbox.Status.PENDING)
    ids += stale_ids
    for pk in dict.fromkeys(ids):
        _queue(pk)
    return ids
