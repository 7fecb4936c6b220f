"""Fan-out of one event to its readers, and the plain mails of kinds the mail app does
not compose itself (notable happenings, the digest, the quiet-hours catch-up)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from django.db import transaction

from . import budget, kinds
from .models import Channel

MailKind = "notice"  # Outbox.kind of the notify layer's own mails (no switch of its own)


def plain_row(user, key: str, subject: str, text: str, game_id: int | None = None,
              url: str = ""):
    """An unsaved outbox row of a plain notice mail, or None when the person has no
    confirmed address. `url` (site-relative or absolute): where to act on it."""
    from gm.mail import compose, prefs
    from gm.mail.models import Outbox

    if not user.email or not prefs.confirmed(user):
        return None
    headers = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}
    if game_id:
        headers["X-GM-Game"] = str(game_id)
    manage = compose.site_url("/account/notifications/")
    link = (url if url.startswith(("http://", "https://")) else compose.site_url(url)) \
        if url else ""
    body = f"{text}\n\n{link}\n" if link else f"{text}\n"
    body += f"\n-- \nChoose what you receive and when: {manage}\n"
    return Outbox(key=key[:200], kind=MailKind, user=user, to=user.email,
                  subject=compose.header_value(subject, 255), body_text=compose.wrap(body),
                  headers=headers)


def mail_plain(user, key: str, subject: str, text: str, game_id: int | None = None,
               url: str = "") -> bool:
    """Queue one plain mail through the mail outbox (once per key). False: no address,
    or that key was queued before."""
    from gm.mail import outbox

    row = plain_row(user, key, subject, text, game_id, url)
    return row is not None and bool(outbox.enqueue_many([row]))


def consider_and_mail(gate: budget.Gate, user, event: budget.Event,
                      force_mail: bool = False, batch: list | None = None) -> budget.Verdict:
    """Decide for one reader; mail it here when it goes by mail (kinds the mail app
    composes are mailed by the mail app instead). `batch`: collect the row instead of
    writing it (fan_out writes all of them in one statement)."""
    verdict = gate.consider(user, event)
    by_mail = verdict.state == budget.SENT and Channel.MAIL in verdict.channels
    if (by_mail or force_mail) and event.kind not in kinds.MAILED_BY_MAIL_APP:
        key, subject = f"notify:{event.key}:{user.pk}", event.text[:120]
        if batch is None:
            mail_plain(user, key, subject, event.text, event.game_id, event.url)
        elif (row := plain_row(user, key, subject, event.text, event.game_id,
                               event.url)) is not None:
            batch.append(row)
    return verdict


def fan_out(user_ids: Iterable[int], make: Callable[[int], budget.Event | None],
            now: datetime | None = None) -> budget.Gate:
    """One event to many readers: their settings in one read, the notifications in one
    INSERT, then the mails of the readers whose verdict is mail (bench/fanout.py)."""
    from gm.mail import outbox

    gate = budget.Gate(budget.readers(user_ids), now)
    rows: list = []
    with transaction.atomic():
        for pk, reader in gate.known.items():
            event = make(pk)
            if event is not None:
                consider_and_mail(gate, reader.user, event, batch=rows)
        gate.flush()
        outbox.enqueue_many(rows)  # one INSERT, one delivery task for all of them
    return gate
