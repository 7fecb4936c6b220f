"""A person's settings that every part of the service reads (pages and mail alike).

Kept apart from `auth.User` so that the user model stays Django's own; created lazily
(`profile_of`) so that users made by `createsuperuser`, fixtures or the admin need nothing:
for them no profile means a confirmed address, and only self-service sign-ups start with
`email_confirmed=False` (see gm.accounts.confirmation).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    time_zone = models.CharField(
        max_length=64, blank=True,
        help_text="IANA name (e.g. Europe/Paris); empty = not chosen yet (UTC in mail, "
                  "the browser's zone on pages).")
    email_confirmed = models.BooleanField(
        default=True, help_text="False from a self-service sign-up until the person opens the "
                                "confirmation link: no mail goes to the address before, and "
                                "no orders are read from it.")

    def __str__(self) -> str:
        return f"profile of {self.user}"


def token_digest(key: str) -> str:
    """What the database keeps of an API token: its SHA-256 (a leaked table lets no one in)."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """One API credential; a user may hold several (one per script or device).

    The key itself is shown once when it is issued and never stored; `prefix` (its first
    characters) lets the owner tell tokens apart on the tokens page.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    label = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["user", "expires"])]

    def __str__(self) -> str:
        return f"API token {self.prefix}… of {self.user}"


class PendingSignup(models.Model):
    """A sign-up waiting for its mailed link (gm.accounts.pending): the link carries only
    a short random token, so the mail's link line stays within 72 columns (issue 28).

    Only the token's SHA-256 is stored (a leaked table opens no pending sign-up). `used`
    marks the link spent: it makes one account at most, and opened again it still says
    so. Rows are pruned some days after `expires` (on each new sign-up, and by
    `manage.py prune_signups`).
    """

    digest = models.CharField(max_length=64, unique=True)
    username = models.CharField(max_length=150)
    email = models.EmailField(max_length=254)
    next_url = models.CharField(max_length=2000, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(db_index=True)
    used = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"pending sign-up of {self.username} ({'used' if self.used else 'open'})"
