"""Pending sign-ups kept on the server, so that the mailed link is short (issue 28).

The former link carried the whole sign-up (username, address, page to come back to)
signed, some 150 characters on a line of its own in a mail whose lines keep to 72
columns. Now the mail carries `/signup/c/<token>/`: 22 URL-safe random characters (128
bits), about 55 characters with a site address like https://gm.example.org.

- Only the token's SHA-256 is stored (as for API tokens): the table gives no link away.
- A link lasts GM_CONFIRM_DAYS, as the signed one did, and makes one account at most:
  `spend` marks its row used in the transaction that creates the account, so two tabs
  posting the same link cannot make two. A used link opened again still answers what the
  signed link answered (its account is taken to the page it was going to; anyone else
  is told the address has an account), and one whose account is gone says it was used.
- Rows stay KEEP_AFTER_EXPIRY past their expiry, so a late click hears "expired" (with
  its "sign up again" for the same page) rather than "not valid"; then `prune` drops
  them. It runs on every new sign-up (cheap: an indexed delete) and from
  `manage.py prune_signups` (cron, for a site that sees no sign-ups for weeks).
  Their number is bounded by the sign-up limits (per client address and per mailed
  address, gm.accounts.signup).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from .models import PendingSignup

TOKEN_BYTES = 16  # 22 characters of base64url
NEXT_MAX = 2000  # PendingSignup.next_url; a longer "page to come back to" is dropped
KEEP_AFTER_EXPIRY = timedelta(days=7)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class PendingError(ValueError):
    """A short sign-up link that does not work: unknown, expired or used (`kind`), with
    the page to come back to when the row says it (for "sign up again")."""

    def __init__(self, kind: str, next_url: str = ""):
        super().__init__(kind)
        self.kind = kind
        self.next = next_url


@dataclass(frozen=True)
class Pending:
    pk: int
    username: str
    email: str
    next: str
    used: bool


def create(username: str, email: str, next_url: str = "",
           now: datetime | None = None) -> str:
    """Store a pending sign-up; its token (shown once, in the mail). Prunes old rows."""
    now = now or timezone.now()
    prune(now)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    PendingSignup.objects.create(
        digest=digest(token), username=username, email=email,
        next_url=next_url if len(next_url) <= NEXT_MAX else "",
        expires=now + timedelta(days=settings.GM_CONFIRM_DAYS))
    return token


def forget(token: str) -> None:
    """Drop a pending sign-up whose mail could not be sent (nobody holds its link)."""
    PendingSignup.objects.filter(digest=digest(token)).delete()


def read(token: str, now: datetime | None = None) -> Pending:
    """The pending sign-up of a link (used ones too: the caller says what became of
    them); PendingError("unknown") or ("expired") if it does not work."""
    now = now or timezone.now()
    if not token or len(token) > 64:
        raise PendingError("unknown")
    row = PendingSignup.objects.filter(digest=digest(token)).first()
    if row is None:
        raise PendingError("unknown")
    if row.expires <= now and row.used is None:
        raise PendingError("expired", row.next_url)
    return Pending(row.pk, row.username, row.email, row.next_url, row.used is not None)


def spend(pending: Pending, now: datetime | None = None) -> bool:
    """Mark the link used; False if it was used (or expired) meanwhile. Call it inside the
    transaction that creates the account, so that a failed creation leaves it unused."""
    now = now or timezone.now()
    return PendingSignup.objects.filter(pk=pending.pk, used__isnull=True,
                                        expires__gt=now).update(used=now) == 1


def prune(now: datetime | None = None) -> int:
    """Delete pending sign-ups expired more than KEEP_AFTER_EXPIRY ago; how many."""
    cutoff = (now or timezone.now()) - KEEP_AFTER_EXPIRY
    return PendingSignup.objects.filter(expires__lt=cutoff).delete()[0]
