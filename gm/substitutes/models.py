"""Volunteers, seat offers, the line of a seat's players, and each game's policy."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Volunteer(models.Model):
    """A player willing to take over seats of one ruleset ("*" = any ruleset)."""

    ANY = "*"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="substitute_for")
    ruleset = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ruleset", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "ruleset"],
                                               name="volunteer_unique")]


class GamePolicy(models.Model):
    """How a game fills seats: who approves a substitute, the newcomer's time, and the
    record a player needs to join. A game without a row has the defaults."""

    class Approval(models.TextChoices):
        GM = "gm", "the GM approves each substitute"
        AUTO = "auto", "the first volunteer to accept takes the seat at once"

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE,
                                related_name="seat_policy")
    approval = models.CharField(max_length=8, choices=Approval.choices, default=Approval.GM)
    free_turns = models.PositiveIntegerField(
        default=1, help_text="Full turn lengths a newcomer has before a deadline counts.")
    min_finished = models.PositiveIntegerField(
        default=0, help_text="Games a player must have finished to join.")
    min_met_percent = models.PositiveIntegerField(
        default=0, help_text="Share of deadlines a player must have met to join (0-100).")


class SeatOffer(models.Model):
    """A seat offered to volunteers: open, then claimed by the first to accept, then
    filled (or withdrawn). At most one offer per seat is live at a time."""

    class Reason(models.TextChoices):
        CIVIL_DISORDER = "civil_disorder", "in civil disorder"
        LEAVING = "leaving", "its player is leaving"
        GM = "gm", "offered by the GM"

    class Status(models.TextChoices):
        OPEN = "open", "open"
        CLAIMED = "claimed", "accepted, waiting for the GM"
        FILLED = "filled", "filled"
        WITHDRAWN = "withdrawn", "withdrawn"

    LIVE = (Status.OPEN, Status.CLAIMED)

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="seat_offers")
    seat = models.ForeignKey("play.Seat", on_delete=models.CASCADE, related_name="offers")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    holder = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+",
                               help_text="Who held the seat when it was offered.")
    taker = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    claimed = models.DateTimeField(null=True, blank=True)
    closed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [models.UniqueConstraint(
            fields=["seat"], condition=Q(status__in=["open", "claimed"]),
            name="offer_one_live_per_seat")]


class SeatHolding(models.Model):
    """One player's time in a seat: the seat history is the line of these."""

    class How(models.TextChoices):
        JOINED = "joined", "joined"
        SUBSTITUTE = "substitute", "took over as a substitute"
        GM = "gm", "placed by the GM"

    seat = models.ForeignKey("play.Seat", on_delete=models.CASCADE, related_name="holdings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seat_holdings")
    username = models.CharField(max_length=150)
    how = models.CharField(max_length=12, choices=How.choices)
    started = models.DateTimeField()
    ended = models.DateTimeField(null=True, blank=True)
    from_turn = models.PositiveIntegerField(null=True, blank=True)
    left_why = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["seat", "started", "id"]
