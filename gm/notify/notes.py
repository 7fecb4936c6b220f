"""Fan-out of one event to its readers, and the plain mails of kinds the mail app does
not compose itself (notable happenings, the digest, the quiet-hours catch-up)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from django.db import transaction

from . import budget, kinds
from .models import Channel

MailKind = "notice"  # Outbox.kind of the notify layer's own mails (no switch of its own)


def mail_plain(user, key: str, subject: str, text: str, game_id: int | None = None) -> bool:
    """Queue one plain mail through the mail outbox (once per key). False: no address."""
    from gm.mail import compose, outbox, prefs

    if not user.email or not prefs.confirmed(user):
        return False
    headers = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}
    if game_id:
        headers["X-GM-Game"] = str(game_id)
    manage = compose.site_url("/account/notifications/")
    body = f"{text}\n\n-- \nChoose what you receive and when: {manage}\n"
    return outbox.enqueue(key=key, kind=MailKind, to=user.email, user=user,
                          subject=compose.header_value(subject, 255), text=body,
                          headers=headers) is not None


def consider_and_mail(gate: budget.Gate, user, event: budget.Event,
                      force_mail: bool = False) -> budget.Verdict:
    """Decide for one reader; mail it here when it goes by mail (kinds the mail app
    composes are mailed by the mail app instead)."""
    verdict = gate.consider(user, event)
    by_mail = verdict.state == budget.SENT and Channel.MAIL in verdict.channels
    if (by_mail or force_mail) and event.kind not in kinds.MAILED_BY_MAIL_APP:
        mail_plain(user, f"notify:{event.key}:{user.pk}", event.text[:120], event.text,
                   event.game_id)
    return verdict


def fan_out(user_ids: Iterable[int], make: Callable[[int], budget.Event | None],
            now: datetime | None = None) -> budget.Gate:
    """One event to many readers: their settings in one read, the notifications in one
    INSERT, then the mails of the readers whose verdict is mail (bench/fanout.py)."""
    gate = budget.Gate(budget.readers(user_ids), now)
    with transaction.atomic():
        for pk, reader in gate.known.items():
            event = make(pk)
            if event is not None:
                consider_and_mail(gate, reader.user, event)
        gate.flush()
    return gate
