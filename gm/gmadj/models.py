"""A draft adjudication per turn, its saved versions and its rolls.

The GM's published adjudication is also in the turn's record (the pseudo seat's
orders), which is what export and verify read; the draft keeps the work before that:
the text as saved (every save a version) and the rolls made into it, which the desk
never deletes, so a reroll is always a second roll on the record.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from gm.play.models import Game, Turn


class Draft(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="gmadj_drafts")
    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="gmadj_draft")
    text = models.TextField(blank=True, default="")
    rolls = models.JSONField(default=list, blank=True,
                             help_text="Append-only: each roll or draw made into the draft, "
                                       "in order (label, what, secret).")
    updated = models.DateTimeField(auto_now=True)
    published = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    orders = models.JSONField(null=True, blank=True,
                              help_text="The adjudication as published (the GM seat's Orders).")

    def __str__(self) -> str:
        return f"adjudication draft of {self.turn}"


class DraftVersion(models.Model):
    """One save of a draft's text: the GM can see what was written when."""

    draft = models.ForeignKey(Draft, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    text = models.TextField(blank=True, default="")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["draft", "number"]
        constraints = [models.UniqueConstraint(fields=["draft", "number"],
                                               name="gmadj_draft_version_unique")]
