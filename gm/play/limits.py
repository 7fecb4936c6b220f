"""Limits every path shares (web form, API, mail): one place, one message each.

* Orders: at most GM_ORDERS_MAX_CHARS characters of order text and no NUL character,
  checked in `actions.submit_orders` before anything is parsed or stored, so the web form,
  `POST /api/games/<id>/orders/` and a mailed order all get the same clear refusal.
* Games: a user creates at most GM_GAMES_PER_DAY games in 24 hours and holds at most
  GM_OPEN_GAMES_PER_USER games that have not started yet (site staff are exempt).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .errors import ActionError


class TooLarge(ActionError):
    """Input over a size limit: a 400 with the limit in the message."""


class RateLimited(ActionError):
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def max_order_chars() -> int:
    return settings.GM_ORDERS_MAX_CHARS


def check_order_text(text: str) -> None:
    limit = max_order_chars()
    if len(text) > limit:
        raise TooLarge(f"orders can be at most {limit} characters; these are {len(text)}. "
                       "Nothing was stored: send shorter orders (comments included).")
    if "\x00" in text:
        raise ActionError("the orders contain a NUL character; remove it and send again")


def check_game_quota(user) -> None:
    """Refuse a new game beyond the per-day and not-yet-started caps."""
    if getattr(user, "is_staff", False):
        return
    from .models import Game

    now = timezone.now()
    day = settings.GM_GAMES_PER_DAY
    recent = list(Game.objects.filter(gm=user, created__gte=now - timedelta(days=1))
                  .order_by("created").values_list("created", flat=True)[:day])
    if len(recent) >= day:
        wait = int((recent[0] + timedelta(days=1) - now).total_seconds()) + 1
        raise RateLimited(f"you created {day} games in the last 24 hours, the most allowed; "
                          f"you can create another in {max(1, round(wait / 60))} minutes",
                          retry_after=max(1, wait))
    waiting = settings.GM_OPEN_GAMES_PER_USER
    if Game.objects.filter(gm=user, status=Game.Status.OPEN).count() >= waiting:
        raise RateLimited(f"you already have {waiting} games waiting for players; start or "
                          "finish one before creating another", retry_after=3600)
