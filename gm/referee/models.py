"""Disputes: a player's challenge of a resolved turn, the GM's ruling, a second opinion.

A dispute points at the TurnRecord that was live when it was filed. Records are never
deleted (a rerun only marks them superseded), so the GM always rules beside the frozen
record the player complained about, even after the game moved on.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from gm.play.models import Game, Seat, TurnRecord


class Dispute(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "awaiting the GM's ruling"
        UPHELD = "upheld", "upheld"
        REJECTED = "rejected", "rejected"

    class Opinion(models.TextChoices):
        NONE = "", "not requested"
        REQUESTED = "requested", "second opinion requested"
        GIVEN = "given", "second opinion given"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    record = models.ForeignKey(TurnRecord, on_delete=models.RESTRICT, related_name="disputes",
                               help_text="The turn's record as it stood when filed.")
    turn_number = models.PositiveIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="disputes")
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                 on_delete=models.SET_NULL, related_name="disputes_filed")
    text = models.TextField(help_text="The player's complaint (GM and filer only).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    ruling = models.TextField(blank=True, help_text="The GM's reasons (public).")
    ruled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="disputes_ruled")
    ruled_at = models.DateTimeField(null=True, blank=True)
    correction = models.JSONField(default=dict, blank=True,
                                  help_text="What an upheld ruling changed (GM only).")
    opinion_status = models.CharField(max_length=10, choices=Opinion.choices, blank=True,
                                      default=Opinion.NONE)
    opinion_requested_at = models.DateTimeField(null=True, blank=True)
    opinion_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="opinions_given")
    opinion_text = models.TextField(blank=True)
    opinion_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["opinion_status"], name="dispute_opinion_idx")]

    def __str__(self) -> str:
        return f"dispute #{self.pk} on turn {self.turn_number} of game {self.game_id}"

    @property
    def ruled(self) -> bool:
        return self.status != self.Status.OPEN
