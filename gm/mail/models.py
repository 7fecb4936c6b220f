"""Mail records: every inbound message, every outbound mail, and who wants which notices.

* `InboundMessage` is written before anything else happens to a message, under a unique
  Message-ID, so a redelivered message (IMAP crash, MTA retry, webhook retry) is
  processed once; its outcome is committed in the same transaction as the orders.
* `Outbox` holds one row per (event, recipient) under a unique key, so a signal
  delivered twice, a retried task or a rerun sweep never mails the same thing twice.
* `MailPreference` is a per-user switch per notice kind (default: on).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Outcome(models.TextChoices):
    RECEIVED = "received", "received, not processed yet"
    ACCEPTED = "accepted", "orders accepted"
    INVALID = "invalid", "orders with errors, nothing kept"
    LATE = "late", "turn closed, nothing kept"
    FINISHED = "finished", "game over"
    REFUSED = "refused", "no orders owed or game paused"
    UNKNOWN_ADDRESS = "unknown_address", "missing or forged reply address"
    UNKNOWN_GAME = "unknown_game", "no such game"
    WRONG_SENDER = "wrong_sender", "sender not registered for the seat"
    EMPTY = "empty", "no orders in the message"
    NO_TEXT = "no_text", "no readable text (attachments only)"
    TOO_LARGE = "too_large", "over the size limit"
    UNDECODABLE = "undecodable", "charset could not be decoded"
    LOOP = "loop", "automatic or list mail, ignored"
    ERROR = "error", "failed every attempt; kept for the operator"
    PRESS = "press", "reply to press, posted as a private message"
    DUPLICATE = "duplicate", "same sender and text as a mail read this turn, not read again"


class InboundMessage(models.Model):
    message_id = models.CharField(max_length=255, unique=True)
    sha256 = models.CharField(max_length=64)
    transport = models.CharField(max_length=16, default="pipe")
    sender = models.CharField(max_length=254, blank=True)
    recipients = models.JSONField(default=list, blank=True)
    subject = models.CharField(max_length=255, blank=True)
    size = models.PositiveIntegerField(default=0)
    raw = models.BinaryField(help_text="The message as received (cut at the size cap).")
    outcome = models.CharField(max_length=16, choices=Outcome.choices,
                               default=Outcome.RECEIVED)
    detail = models.TextField(blank=True)
    seat = models.ForeignKey("play.Seat", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="inbound_mail")
    submission = models.ForeignKey("play.Submission", null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="inbound_mail")
    attempts = models.PositiveIntegerField(default=1, help_text="Deliveries seen.")
    reply_suppressed = models.CharField(max_length=40, blank=True,
                                        help_text="Why no reply was sent, if none was.")
    received = models.DateTimeField(auto_now_add=True)
    processed = models.DateTimeField(null=True, blank=True)
    body_digest = models.CharField(
        max_length=64, blank=True, db_index=True,
        help_text="SHA-256 of sender and text of a mail that took effect (gm.mail.replay).")

    class Meta:
        ordering = ["-received", "-id"]

    def __str__(self) -> str:
        return f"{self.message_id} ({self.outcome})"

    @property
    def done(self) -> bool:
        return self.outcome != Outcome.RECEIVED


class Kind(models.TextChoices):
    """Kinds of outbound mail; each is switchable per user (MailPreference)."""

    RECEIPT = "receipt", "replies to your orders"
    TURN_OPENED = "turn_opened", "a new turn is open"
    REMINDER = "reminder", "deadline reminders"
    REPORT = "report", "turn reports"
    GAME_OVER = "game_over", "game over"
    PRESS = "press", "private messages (press) from other seats or the GM"


class Outbox(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENDING = "sending", "being sent"
        SENT = "sent", "sent"
        FAILED = "failed", "failed after retries"

    key = models.CharField(max_length=200, unique=True,
                           help_text="(event, recipient): one mail per key, ever.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    to = models.CharField(max_length=254)
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    reply_to = models.CharField(max_length=254, blank=True)
    message_id = models.CharField(max_length=255, db_index=True)
    turn = models.ForeignKey("play.Turn", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", help_text="The turn a notice asks orders for.")
    inbound = models.ForeignKey(InboundMessage, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="replies")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["to", "kind", "created"], name="outbox_rate_idx"),
                   models.Index(fields=["status", "created"], name="outbox_status_idx")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to} ({self.status})"


class MailPreference(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="mail_preferences")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    enabled = models.BooleanField(default=True)
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"],
                                               name="mail_pref_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}={'on' if self.enabled else 'off'}"
