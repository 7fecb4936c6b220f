"""Outbound mail through an outbox: one row per (event, recipient), sent after commit.

`enqueue` writes the row inside the caller's transaction under a unique key and sends a
wake-up through the broker on commit; a second enqueue with the same key is a no-op, so
duplicate signals and reruns never mail twice. The row is the record: `deliver_pending`
(periodic) sends whatever the broker lost, straight from the database.

`enqueue_many` writes a batch (a turn's notices) in one INSERT ... ON CONFLICT DO NOTHING
on the same key and wakes ONE delivery for all of it; `deliver_many` sends such a batch
over one SMTP connection, each row on its own: one that fails goes back to PENDING alone
(and alone is retried) while the others are sent and marked.

`deliver` claims the row (PENDING -> SENDING), hands the message to the SMTP server and
marks it SENT, retrying that mark through a database blip (GM_MAIL_MARK_RETRY_SECONDS)
before the connection's QUIT, so a slow QUIT or a short outage cannot cause a resend.
Transport errors before the hand-off put the row back to PENDING with a backoff. What
remains (README, "Exactly once"): a worker killed, or the database down for longer than
the mark retry, between the hand-off and the mark leaves the row SENDING and it is sent
again after the lease, with the same Message-ID, so the recipient's client shows one.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC as dt_utc
from datetime import timedelta
from email.utils import format_datetime, make_msgid
from typing import Any

from django.conf import settings
from django.core.mail import BadHeaderError, EmailMultiAlternatives, get_connection
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db import connection as db_connection
from django.utils import timezone

from gm import wakeups
from gm.play import rows

from . import compose, outbox_rows
from .models import Kind, Outbox

log = logging.getLogger(__name__)


def _domain() -> str:
    return getattr(settings, "GM_MAIL_DOMAIN", "localhost")


def new_message_id() -> str:
    return make_msgid(domain=_domain())


def enqueue(*, key: str, kind: str, to: str, subject: str, text: str, html: str = "",
            user=None, reply_to: str = "", headers: dict[str, str] | None = None,
            inbound=None, message_id: str | None = None, turn=None,
            key_is_locked: bool = False, wake: bool = True) -> Outbox | None:
    """Write one outbound mail unless its key exists; deliver it after commit.

    Returns the new row, or None when this (event, recipient) was already queued.
    `key_is_locked`: the caller holds a lock under which the key cannot exist yet (the
    inbound pipeline's reply, written after its row's claim), so no savepoint is spent.
    `wake=False`: no wake-up; the periodic `deliver_pending` sends it (a held press mail).
    """
    try:
        with transaction.atomic(savepoint=not key_is_locked):
            row = rows.insert(Outbox(  # one plain INSERT, no ORM query building
                key=key[:200], kind=kind, user=user, to=to, subject=subject[:255],
                body_text=compose.wrap(text), body_html=html, headers=headers or {},
                reply_to=reply_to,
                message_id=message_id or new_message_id(), inbound=inbound, turn=turn))
            if wake:
                transaction.on_commit(lambda: _queue(row.pk), robust=True)
    except IntegrityError:  # this (event, recipient) was queued before
        return None
    return row


def enqueue_many(rows: list[Outbox]) -> list[int]:
    """Write unsaved rows in one statement, skipping every key that exists; deliver the new
    ones after commit with ONE task. Returns the ids of the rows written now.

    Exactly once as `enqueue`: the unique key decides (INSERT ... ON CONFLICT DO NOTHING),
    and the statement returns the ids of the rows it wrote, never those of older rows
    with the same key (`outbox_rows.insert_many`)."""
    if not rows:
        return []
    for row in rows:
        row.key, row.subject = row.key[:200], row.subject[:255]
        row.message_id = row.message_id or new_message_id()
    ids = outbox_rows.insert_many(rows, timezone.now())
    if ids:
        transaction.on_commit(lambda: _queue(ids), robust=True)
    return ids


def _queue(pk: int | list[int]) -> None:
    """Wake the delivery of one row, or of a batch (one task for all its rows). A
    wake-up sent twice is harmless: the claim sends each row once."""
    try:  # by name: gm.mail.tasks imports this module (gm/wakeups.py)
        wakeups.task("gm.mail.tasks.deliver").delay(pk)
    except Exception:  # broker down: the rows wait in the database for deliver_pending
        log.warning("could not queue mail %s; the periodic job will send it", pk,
                    exc_info=True)


class _BuiltOnce(EmailMultiAlternatives):
    """A mail whose MIME message is built once: `_ready` builds it to find a header that
    cannot be written, and the backend's send (SMTP: `message()` again, then its bytes)
    takes that same message instead of building it a second time."""

    _built = None

    def message(self):
        if self._built is None:
            self._built = super().message()
        return self._built


def build(row: Outbox, connection=None) -> EmailMultiAlternatives:
    # Date in UTC as "+0000": Django's default (email.utils.formatdate) writes "-0000",
    # which RFC 5322 reads as "the zone is unknown" (issue 28).
    headers: dict[str, Any] = {"Message-ID": row.message_id,
                               "Date": format_datetime(timezone.now().astimezone(dt_utc)),
                               **row.headers}
    mail = _BuiltOnce(
        subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to], reply_to=[row.reply_to] if row.reply_to else None, headers=headers,
        connection=connection)
    if row.body_html:
        mail.attach_alternative(row.body_html, "text/html")
    return mail


class TransientSendError(OSError):
    """Sending failed in a way worth retrying."""


def deliver(pk: int) -> bool:
    """Send one outbox row if it is still pending. True when it was sent now; raises
    TransientSendError when the send failed and the row is PENDING again."""
    sent, failed = deliver_many([pk])
    if failed:
        raise TransientSendError(failed[pk])
    return bool(sent)


def _claim(ids: list[int], now) -> list[int]:
    """PENDING -> SENDING for those of `ids` still pending, in one statement; returns the
    ids this call claimed (RETURNING: PostgreSQL, SQLite 3.35+), so two workers handed
    the same batch never both send a row (`outbox_rows.claim`)."""
    return outbox_rows.claim(ids, now)


def _ready(rows: list[Outbox], now) -> list[tuple[Outbox, EmailMultiAlternatives]]:
    """The claimed rows still worth sending, each with its message; the others are
    settled here: obsolete (FAILED), in the ledger (SENT), or unbuildable (FAILED)."""
    ready = []
    handed_off = ledger_seen([row.message_id for row in rows])  # one round trip
    for row in rows:
        stale = obsolete(row, now)
        if stale:
            Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.FAILED,
                                                    last_error=stale)
            log.info("mail %s to %s not sent: %s", row.key, row.to, stale)
            continue
        if row.message_id in handed_off:  # handed off before; this database forgot (restore)
            Outbox.objects.filter(pk=row.pk).update(
                status=Outbox.Status.SENT, sent_at=timezone.now(),
                last_error="not sent again: the mail ledger shows it handed off before")
            log.warning("mail %s to %s was handed off before (ledger); not sent again",
                        row.key, row.to)
            continue
        try:
            message = build(row)
            message.message()  # a header that cannot be written fails here, and for good
        except BadHeaderError as exc:
            Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.FAILED,
                                                    attempts=row.attempts + 1,
                                                    last_error=f"not retried: {exc}"[:2000])
            log.error("mail %s to %s cannot be built, given up: %s", row.key, row.to, exc)
            continue
        ready.append((row, message))
    return ready


def deliver_many(ids: list[int]) -> tuple[int, dict[int, str]]:
    """Send those of `ids` still pending, over one mail connection. Returns (how many
    were sent now, {id: error} of those that failed and are PENDING again).

    Each row is claimed, handed off and marked on its own terms: a row that fails (a
    refused address, a dropped connection) goes back to PENDING with one more attempt
    while the rows after it are still sent, over a new connection when the old one
    broke; a connection that cannot be opened at all fails the rest of the batch at once
    (one timeout, not one per row)."""
    now = timezone.now()
    claimed = _claim(list(dict.fromkeys(ids)), now) if ids else []
    if not claimed:
        return 0, {}
    rows = outbox_rows.claimed(claimed)
    ready = _ready(rows, now)
    connection = get_connection(fail_silently=False) if ready else None
    is_open = False
    sent, failed = 0, {}
    for index, (row, message) in enumerate(ready):
        message.connection = connection
        if not is_open:
            try:
                connection.open()
                is_open = True
            except Exception as exc:  # the mail server is unreachable: none can go now
                for rest, _message in ready[index:]:
                    failed[rest.pk] = _failed(rest, exc)
                break
        try:
            message.send(fail_silently=False)
        except Exception as exc:
            _close(connection)  # a broken session is not reused; the next row reconnects
            is_open = False
            failed[row.pk] = _failed(row, exc)
            continue
        # Handed off: note and mark it before anything else can fail (QUIT comes after).
        ledger_note(row.message_id)
        _mark_sent(row)
        sent += 1
    if is_open:
        _close(connection)
    return sent, failed


def _failed(row: Outbox, exc: Exception) -> str:
    """Put a row whose send failed back to PENDING with one more attempt (retried later)."""
    error = f"{type(exc).__name__}: {exc}"
    Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.PENDING,
                                            attempts=row.attempts + 1,
                                            last_error=error[:2000])
    log.warning("mail %s to %s failed (attempt %s): %s", row.key, row.to,
                row.attempts + 1, exc)
    return error


def _close(connection) -> None:
    try:
        connection.close()
    except Exception as exc:  # the message is handed off or failed already; QUIT is moot
        log.info("closing the mail connection failed: %s", exc)


def _mark_sent(row: Outbox) -> bool:
    """Mark a handed-off row SENT, reconnecting through a database blip for a while."""
    end = time.monotonic() + float(settings.GM_MAIL_MARK_RETRY_SECONDS)
    delay = 0.2
    while True:
        try:
            outbox_rows.mark_sent(row.pk, row.attempts + 1, timezone.now())
            return True
        except (OperationalError, InterfaceError) as exc:
            if db_connection.in_atomic_block or time.monotonic() + delay > end:
                log.error("mail %s was handed to the mail server but could not be marked "
                          "sent (%s); it stays claimed and is sent again after the lease",
                          row.key, exc)
                return False
            db_connection.close()  # the next query reconnects
            time.sleep(delay)
            delay = min(delay * 2, 5.0)


_ledgers: dict[str, Any] = {}


def _ledger():
    """The mail ledger: Message-IDs handed to the mail server, kept outside the database
    (GM_MAIL_LEDGER_URL, by default the Redis broker) so that a database restored from
    a backup, or one that missed the SENT mark, does not send them again. Best effort."""
    url = getattr(settings, "GM_MAIL_LEDGER_URL", "")
    if not url.startswith(("redis://", "rediss://")):
        return None
    if url not in _ledgers:
        import redis

        _ledgers[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return _ledgers[url]


def _ledger_key(message_id: str) -> str:
    return f"gm:mail:sent:{message_id}"


def ledger_seen(message_ids: list[str]) -> set[str]:
    """Those of `message_ids` the ledger holds: mails handed off before, which a restored
    database may have forgotten. One MGET for a batch (not a round trip per mail); empty
    when the ledger is off or down (the database alone decides then)."""
    client = _ledger()
    if client is None or not message_ids:
        return set()
    try:
        found = client.mget([_ledger_key(m) for m in message_ids])
    except Exception as exc:  # the ledger is down: the database alone decides
        log.warning("mail ledger unreadable (%s)", exc)
        return set()
    return {m for m, value in zip(message_ids, found) if value is not None}


def ledger_note(message_id: str) -> None:
    client = _ledger()
    if client is None:
        return
    try:
        client.set(_ledger_key(message_id), "1",
                   ex=int(settings.GM_MAIL_LEDGER_DAYS * 86400))
    except Exception as exc:
        log.warning("mail ledger not written for %s (%s)", message_id, exc)


def obsolete(row: Outbox, now) -> str:
    """Why a row should no longer be sent, or "": a turn notice for a turn that is no
    longer open, or anything older than GM_MAIL_MAX_AGE_HOURS (a restored backup, a
    long outage) - asking for orders that can no longer be given only confuses."""
    if row.kind in (Kind.TURN_OPENED, Kind.REMINDER):
        turn = row.turn
        if turn is not None and (turn.superseded or turn.status not in ("open", "paused")):
            return f"obsolete: turn {turn.number} is no longer open for orders"
    if row.kind != Kind.RECEIPT and row.created < now - timedelta(
            hours=float(settings.GM_MAIL_MAX_AGE_HOURS)):
        return f"obsolete: queued more than {settings.GM_MAIL_MAX_AGE_HOURS:g} hours ago"
    return ""


def give_up(pk: int | list[int]) -> None:
    """Rows out of retries (one, or a batch's failed ones) that are still PENDING: FAILED."""
    ids = pk if isinstance(pk, list) else [pk]
    Outbox.objects.filter(pk__in=ids, status=Outbox.Status.PENDING).update(
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


def deliver_pending(now=None, *, limit: int = 100, budget_seconds: float = 45.0,
                    sending_lease: float = 600.0, max_attempts: int = 9) -> int:
    """Periodic: send, from the database, every row the broker did not deliver.

    Pending rows (after their backoff) and claims older than the lease are sent here,
    in-process, so mail survives a broker that lost its queue. Returns how many were sent.
    """
    now = now or timezone.now()
    Outbox.objects.filter(status=Outbox.Status.PENDING, attempts__gte=max_attempts).update(
        status=Outbox.Status.FAILED)
    Outbox.objects.filter(status=Outbox.Status.SENDING,
                          claimed_at__lt=now - timedelta(seconds=sending_lease)).update(
        status=Outbox.Status.PENDING)
    rows = Outbox.objects.filter(status=Outbox.Status.PENDING).order_by("created")
    due = [pk for pk, attempts, claimed in rows.values_list("pk", "attempts",
                                                            "claimed_at")[:limit * 5]
           if claimed is None or claimed <= now - timedelta(seconds=backoff_seconds(attempts))]
    sent = failures = 0
    end = time.monotonic() + budget_seconds
    for pk in due[:limit]:
        if time.monotonic() > end or failures >= 3:  # the mail server is down: next run
            break
        try:
            sent += deliver(pk)
            failures = 0
        except TransientSendError:
            failures += 1
    return sent
