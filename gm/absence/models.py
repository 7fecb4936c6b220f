"""What a game allows when people are away, and what each seat has spent of it.

A game without a `Rules` row has the service's old behaviour: no vacations wait, no
grace, no civil disorder; a missed deadline plays the seat's "if I miss" orders when it
filed some, else the engine's defaults.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from gm.play.models import Seat, Turn


class AwayChoice(models.TextChoices):
    WAIT = "wait", "the deadline waits (up to the game's cap)"
    IF_MISS = "if_miss", "my \"if I miss\" orders"
    BOT = "bot", "a bot plays for me"


class Rules(models.Model):
    """A game's absence settings, chosen at creation and editable by its GM."""

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE,
                                related_name="absence_rules")
    vacations_allowed = models.BooleanField(
        default=True, help_text="Off: tournament style, nobody's vacation changes anything.")
    vacation_cap_days = models.PositiveIntegerField(
        default=7, help_text="Days per seat per year the deadlines may wait for a vacation.")
    grace_count = models.PositiveIntegerField(
        default=0, help_text="Grace extensions per seat for the whole game.")
    grace_hours = models.PositiveIntegerField(default=24,
                                              help_text="How long one grace extension lasts.")
    misses_to_disorder = models.PositiveIntegerField(
        default=0, help_text="Consecutive missed deadlines before civil disorder (0 = never).")
    bot_seats = models.PositiveIntegerField(
        default=0, help_text="Seats filled by bots when the game is created.")

    def __str__(self) -> str:
        return f"absence rules of game {self.game_id}"


class SeatAbsence(models.Model):
    """One seat's absence choices and counters."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="absence")
    away_choice = models.CharField(max_length=8, choices=AwayChoice.choices,
                                   default=AwayChoice.IF_MISS)
    if_miss_text = models.TextField(blank=True)
    if_miss_problem = models.TextField(
        blank=True, help_text="Why the 'if I miss' orders no longer read ('' = they do).")
    misses = models.PositiveIntegerField(default=0, help_text="Consecutive missed deadlines.")
    streak = models.JSONField(default=list, blank=True,
                              help_text="The turn ids of those misses (a rollback takes "
                                        "back the ones on turns it sets aside).")
    disorder = models.BooleanField(default=False, help_text="In civil disorder: a bot plays.")
    disorder_turn = models.ForeignKey(Turn, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+",
                                      help_text="The turn whose miss put the seat there.")

    def __str__(self) -> str:
        return f"absence of {self.seat}"


class Vacation(models.Model):
    """A window a player is away, on their account (every game they play)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="vacations")
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts", "id"]
        indexes = [models.Index(fields=["user", "ends"], name="vacation_user_ends")]


class Extension(models.Model):
    """A deadline moved for a seat: a grace spent or a vacation waited for.

    Counted only while its turn is live: a turn set aside by a rollback or a rerun gives
    what was spent on it back, with no bookkeeping to undo.
    """

    class Kind(models.TextChoices):
        GRACE = "grace", "grace"
        VACATION = "vacation", "vacation wait"

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="extensions")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="extensions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    old_deadline = models.DateTimeField()
    new_deadline = models.DateTimeField()
    seconds = models.PositiveIntegerField(default=0)
    returned = models.BooleanField(default=False,
                                   help_text="Given back (its turn set aside) and logged so.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
