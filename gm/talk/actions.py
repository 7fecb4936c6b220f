"""Press and unread markers: the rules, so that views stay thin.

Who may read a message: its sender, its recipient (the seat's player, or the GM end's
GM and co-GMs) and every GM of the game. Who may send: a seated player (to another seat
or to the GM) and a GM (to a seat). Nothing here reveals game state.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, OuterRef, Q, Subquery
from django.utils import timezone

from gm.play.errors import ActionError, NotAllowed
from gm.play.limits import RateLimited
from gm.play.models import Game, Post, Seat
from gm.play.rendering import render_markdown

from . import signals
from .models import GM_END, LastSeen, Message

log = logging.getLogger(__name__)
MAX_CHARS = 20000  # the default of GM_PRESS_MAX_CHARS


def limits() -> tuple[int, int, int]:
    """(characters per message, messages per window, window seconds) per sending end."""
    return (int(getattr(settings, "GM_PRESS_MAX_CHARS", MAX_CHARS)),
            int(getattr(settings, "GM_PRESS_LIMIT", 10)),
            int(getattr(settings, "GM_PRESS_WINDOW", 300)))


def check_rate(game: Game, mine: str) -> None:
    """At most GM_PRESS_LIMIT messages from one end (a seat, or the GM) of a game per
    GM_PRESS_WINDOW seconds, counted in the database (every process and path alike: web
    form and mail); a 429 with the wait, like the other limits (gm.play.limits)."""
    _chars, limit, window = limits()
    now = timezone.now()
    recent = list(Message.objects.filter(game=game, sender=mine,
                                         created__gte=now - timedelta(seconds=window))
                  .order_by("-created").values_list("created", flat=True)[:limit])
    if len(recent) >= limit:
        wait = max(1, int((recent[-1] + timedelta(seconds=window) - now).total_seconds()) + 1)
        raise RateLimited(f"you sent {limit} private messages in this game within "
                          f"{max(1, window // 60)} minutes, the most allowed; wait "
                          f"{wait} seconds and send again (or put it all in one message)",
                          retry_after=wait)


def my_end(game: Game, user) -> str | None:
    """The reader's end of press in this game: a seat name, "GM", or None."""
    seat = game.seat_of(user)
    if seat is not None:
        return seat.name
    if game.is_gm(user):
        return GM_END
    return None


def recipients_for(game: Game, user) -> list[str]:
    """Whom this reader may write to (never themselves)."""
    mine = my_end(game, user)
    if mine is None:
        return []
    seats = [s.name for s in game.all_seats()]
    ends = [s for s in seats if s != mine]
    if mine != GM_END:
        ends.append(GM_END)
    return ends


def visible(game: Game, user):
    """The press this reader may read, oldest first."""
    qs = Message.objects.filter(game=game).select_related("author")
    if game.is_gm(user):
        return qs
    mine = my_end(game, user)
    if mine is None:
        return qs.none()
    return qs.filter(Q(sender=mine) | Q(recipient=mine))


def send(game: Game, user, recipient: str, text: str) -> Message:
    mine = my_end(game, user)
    if mine is None:
        raise NotAllowed("only the game's players and GM can send press")
    return post(game, user, mine, recipient, text, recipients_for(game, user))


def send_from_seat(seat: Seat, recipient: str, text: str) -> Message:
    """Press written by a seat without a web session: a reply by mail to press mail,
    routed to the seat by its token and checked like orders (gm.mail.press)."""
    game = seat.game
    allowed = [s for s in game.seats.order_by("id").values_list("name", flat=True)
               if s != seat.name] + [GM_END]
    return post(game, seat.user, seat.name, recipient, text, allowed)


def post(game: Game, author, mine: str, recipient: str, text: str,
         allowed: list[str]) -> Message:
    """The one place press is checked, stored and mailed (web and mail alike)."""
    if not text.strip():
        raise ActionError("a message cannot be empty")
    max_chars = limits()[0]
    if len(text) > max_chars:
        raise ActionError(f"a message can be at most {max_chars} characters")
    if recipient not in allowed:
        raise ActionError(f"you cannot write to {recipient!r}; choose one of: "
                          f"{', '.join(allowed) or 'nobody'}")
    check_rate(game, mine)
    turn = game.current_turn()
    message = Message.objects.create(
        game=game, author=author, sender=mine, recipient=recipient, markdown=text,
        html=render_markdown(text), turn_number=turn.number if turn else None)
    # mailed by gm.mail (gm.mail.press_out), under each reader's notification budget
    signals.press_posted.send(sender=Message, game=game, message=message)
    return message


def press_key(message_pk: int, user_pk: int) -> str:
    """The outbox key of a press mail; gm.mail.press.message_of_key reads it back."""
    return f"press/{message_pk}/{user_pk}"


# --- unread markers --------------------------------------------------------------------
def last_seen(game: Game, user) -> datetime | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return LastSeen.objects.filter(user=user, game=game).values_list("at", flat=True).first()


def mark_seen(game: Game, user, when: datetime | None = None) -> None:
    """Record the visit: one UPDATE on every visit but the first (update_or_create took a
    savepoint, a SELECT, the UPDATE and a release on every game page); the first inserts,
    and a visit racing it in another request updates the row that one inserted."""
    if not getattr(user, "is_authenticated", False):
        return
    at = when or timezone.now()
    if LastSeen.objects.filter(user=user, game=game).update(at=at):
        return
    try:
        with transaction.atomic():
            LastSeen.objects.create(user=user, game=game, at=at)
    except IntegrityError:  # the other request inserted it first
        LastSeen.objects.filter(user=user, game=game).update(at=at)


def unread(games: list[Game], user) -> dict[int, dict[str, int]]:
    """Per game: how many reports, posts and press messages arrived since the last visit.

    A game never opened counts everything as unread; the reader's own posts and messages
    never count. The database counts (two grouped queries for any number of games).
    """
    ids = [g.pk for g in games]
    out: dict[int, dict[str, int]] = {pk: {"reports": 0, "posts": 0, "press": 0} for pk in ids}
    seen = Subquery(LastSeen.objects.filter(user=user, game_id=OuterRef("game_id"))
                    .values("at")[:1])
    news = Q(seen__isnull=True) | Q(created__gt=F("seen"))
    posts = (Post.objects.filter(game_id__in=ids).exclude(author_id=user.pk)
             .annotate(seen=seen).filter(news)
             .values("game_id", "kind").annotate(n=Count("id")))
    for row in posts:
        key = "reports" if row["kind"] == Post.Kind.REPORT else "posts"
        out[row["game_id"]][key] += row["n"]
    gm_of = [g.pk for g in games if g.is_gm(user)]
    ends = Q(game_id__in=gm_of)
    for g in games:
        seat = g.seat_of(user)
        if seat is not None:
            ends |= Q(game_id=g.pk) & (Q(sender=seat.name) | Q(recipient=seat.name))
    press = (Message.objects.filter(game_id__in=ids).filter(ends).exclude(author_id=user.pk)
             .annotate(seen=seen).filter(news).values("game_id").annotate(n=Count("id")))
    for row in press:
        out[row["game_id"]]["press"] += row["n"]
    return out


def latest_marks(game: Game, user) -> dict[str, Any]:
    """Small fingerprints of what changed, for the page's live refresh."""
    posts = Post.objects.filter(game=game).aggregate(last=Max("id"))["last"] or 0
    press = visible(game, user).aggregate(last=Max("id"))["last"] or 0
    return {"post": posts, "press": press}
