"""Press (private messages between the seats of a game) and what each reader has seen.

Press is private between its two ends, as on Diplomacy judges, but the game's GM and
co-GMs read all of it: they see everything anyway, and disputes need it. The public
thread stays in gm.play (Post).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

GM_END = "GM"  # the GM's end of a press message (a seat name never equals it)


class Message(models.Model):
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="press")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    sender = models.CharField(max_length=40, help_text="Seat name, or GM.")
    recipient = models.CharField(max_length=40, help_text="Seat name, or GM.")
    markdown = models.TextField()
    html = models.TextField()
    turn_number = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["game", "created"], name="press_game_created")]

    def __str__(self) -> str:
        return f"press {self.sender} -> {self.recipient} in game {self.game_id}"


class LastSeen(models.Model):
    """When a user last opened a game's page: newer reports, posts and press are unread."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="games_seen")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="seen_by")
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"],
                                               name="lastseen_user_game")]
