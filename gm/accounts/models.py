"""A person's settings that every part of the service reads (pages and mail alike).

Kept apart from `auth.User` so that the user model stays Django's own; created lazily
(`profile_of`) so that users made by `createsuperuser`, fixtures or the admin need nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    time_zone = models.CharField(
        max_length=64, blank=True,
        help_text="IANA name (e.g. Europe/Paris); empty = not chosen yet (UTC in mail, "
                  "the browser's zone on pages).")

    def __str__(self) -> str:
        return f"profile of {self.user}"
