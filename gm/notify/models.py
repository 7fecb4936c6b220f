"""Notification records, per-person settings, nudges, webhooks and game schedules.

* `Settings`: a person's channels, mode, digest hour, quiet hours, reminder offsets and
  daily cap. No row means the defaults, which are today's behaviour (every event mailed).
* `Notification`: one event for one reader (unique key), what the budget decided for it
  and when it went out; it is also the in-page feed.
* `Nudge`: one reminder per person, turn and window (the unique constraint is the claim).
* `Webhook` / `WebhookDelivery`: an HTTPS endpoint of a game (public view) or of a
  person (that person's view) and its outbox, retried with backoff.
* `Schedule`: a game's deadlines fixed at a local hour, with excluded weekdays.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def default_offsets() -> list[float]:
    return [24.0, 4.0, 1.0]


def new_secret() -> str:
    return secrets.token_hex(32)


class Mode(models.TextChoices):
    EACH = "each", "each event"
    DIGEST = "digest", "one daily digest"
    NEEDS = "needs", "only what needs me"


class Channel(models.TextChoices):
    MAIL = "mail", "mail"
    WEBHOOK = "webhook", "my webhook"
    PAGE = "page", "on the site only"


class Settings(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notify_settings")
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.EACH)
    channel = models.CharField(
        max_length=8, choices=Channel.choices, default=Channel.MAIL,
        help_text="Where notices go; every notice is also listed on the site.")
    every_channel = models.BooleanField(
        default=False, help_text="Also send to the other channel (mail and webhook both).")
    digest_hour = models.PositiveSmallIntegerField(default=8, help_text="Local hour, 0-23.")
    quiet_start = models.PositiveSmallIntegerField(null=True, blank=True,
                                                   help_text="Local hour quiet hours begin.")
    quiet_end = models.PositiveSmallIntegerField(null=True, blank=True,
                                                 help_text="Local hour quiet hours end.")
    urgent_breaks_quiet = models.BooleanField(
        default=False, help_text="The last-hour reminder may come during quiet hours.")
    reminder_hours = models.JSONField(default=default_offsets,
                                      help_text="Hours before a deadline to remind.")
    daily_cap = models.PositiveSmallIntegerField(
        default=12, help_text="At most this many nudges a day across all games.")
    last_digest = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"


class Notification(models.Model):
    class State(models.TextChoices):
        SENT = "sent", "sent"
        DIGEST = "digest", "waiting for the digest"
        HELD = "held", "held for the end of quiet hours"
        PAGE = "page", "on the site only"
        DIGESTED = "digested", "sent in a digest"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    game = models.ForeignKey("play.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    key = models.CharField(max_length=200)
    kind = models.CharField(max_length=24)
    text = models.CharField(max_length=500)
    url = models.CharField(max_length=300, blank=True)
    needs_action = models.BooleanField(default=False)
    urgent = models.BooleanField(default=False)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PAGE)
    channels = models.CharField(max_length=40, blank=True,
                                help_text="Channels it went out on, comma separated.")
    due = models.DateTimeField(null=True, blank=True, help_text="When a held notice goes.")
    created = models.DateTimeField()
    sent = models.DateTimeField(null=True, blank=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"],
                                               name="notification_user_key")]
        indexes = [models.Index(fields=["state", "due"], name="notification_state_due"),
                   models.Index(fields=["user", "created"], name="notification_user_created")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.text[:40]}"


class Nudge(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    turn = models.ForeignKey("play.Turn", on_delete=models.CASCADE, related_name="+")
    window = models.FloatField(help_text="The offset in hours this nudge is for.")
    created = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "turn", "window"],
                                               name="nudge_once_per_window")]
        indexes = [models.Index(fields=["user", "created"], name="nudge_user_created")]


class Webhook(models.Model):
    class Format(models.TextChoices):
        GENERIC = "generic", "generic JSON"
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="webhooks")
    game = models.ForeignKey("play.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+", help_text="Set: the game's public webhook.")
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.GENERIC)
    secret = models.CharField(max_length=64, default=new_secret)
    enabled = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(default=0, help_text="Consecutive failures.")
    disabled_reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"webhook {self.pk} ({'game ' + str(self.game_id) if self.game_id else 'personal'})"


class WebhookDelivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(max_length=200)
    body = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_try = models.DateTimeField()
    last_error = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["webhook", "key"],
                                               name="webhook_delivery_once")]
        indexes = [models.Index(fields=["status", "next_try"], name="webhook_due")]


class Schedule(models.Model):
    class Move(models.TextChoices):
        LATER = "later", "to the next allowed day"
        EARLIER = "earlier", "to the previous allowed day"

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE,
                                related_name="notify_schedule")
    hour = models.PositiveSmallIntegerField()
    minute = models.PositiveSmallIntegerField(default=0)
    time_zone = models.CharField(max_length=64, default="UTC")
    excluded_days = models.JSONField(default=list, help_text="Weekdays, 0 = Monday.")
    move = models.CharField(max_length=8, choices=Move.choices, default=Move.LATER)

    def __str__(self) -> str:
        return f"deadlines of game {self.game_id} at {self.hour:02d}:{self.minute:02d}"
