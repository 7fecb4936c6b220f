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
    _notify(game, message)
    return message


def press_key(message_pk: int, user_pk: int) -> str:
    """The outbox key of a press mail; gm.mail.press.message_of_key reads it back."""
    return f"press/{message_pk}/{user_pk}"


def _notify(game: Game, message: Message) -> None:
    """Mail the recipient (the seat's player, or the GM) through the mail outbox.

    A seat's mail carries the seat's reply address as Reply-To: replying to it posts
    press back to the sender (gm.mail.press). Press to the GM end goes to the GM and each
    co-GM, each mail with a reply address of its own for that message and reader:
    replying to it posts the answer as the GM (gm.mail.press.gm_reply)."""
    try:
        from gm.mail import compose, outbox, prefs, press
        from gm.mail.models import Kind
    except ImportError:  # the mail app is optional
        return
    seat = None
    if message.recipient == GM_END:
        users = [game.gm, *game.co_gms.exclude(pk=game.gm_id).order_by("pk")]
    else:
        seat = game.seats.filter(name=message.recipient).select_related("user").first()
        users = [seat.user] if seat and seat.user else []
    link = f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/#press"
    from gm.mail.notices import notify_gate
    gate = notify_gate()  # gm.notify: the reader's budget (digest, quiet hours, channel)
    for user in users:
        if not user.email or not prefs.wants(user, Kind.PRESS):  # confirmed addresses only
            continue
        if gate is not None and not gate.mail_for(
                user, Kind.PRESS, press_key(message.pk, user.pk),
                f"{game.title}: press from {message.sender}", game.pk, "/#press"):
            continue
        headers, unsubscribe = compose.headers_for(Kind.PRESS, user)
        as_gm = " as GM" if seat is None else ""
        how = (f"Reply to this mail to answer {message.sender} privately{as_gm} (write "
               f"above the quote), or answer on the game page: {link}")
        earlier = _recent_press_mail(game, message, user)
        pending = [row for row in earlier if row[1] == outbox_status_pending()]
        if pending and _fold(game, message, pending[0], how, unsubscribe):
            continue
        outbox.enqueue(
            key=press_key(message.pk, user.pk), kind=Kind.PRESS, to=user.email, user=user,
            subject=_press_subject(game, message.sender, 1),
            headers=headers, reply_to=seat.reply_address if seat is not None
            else press.gm_reply_address(message.pk, user.pk),
            text=_press_text(game, [message], how, unsubscribe),
            # A burst: the first mail went out just now; this one waits for the periodic
            # delivery (a minute) and what follows meanwhile is folded into it.
            wake=not earlier)
    if gate is not None:
        gate.flush()


def outbox_status_pending() -> str:
    from gm.mail.models import Outbox

    return Outbox.Status.PENDING


def _press_subject(game: Game, sender: str, count: int) -> str:
    from gm.mail import compose

    title = compose.header_value(game.title, 120)
    what = "press" if count == 1 else f"{count} press messages"
    return compose.header_value(f"[{title}] {what} from {sender}")


def _press_text(game: Game, messages: list[Message], how: str, unsubscribe: str) -> str:
    from gm.mail import compose
    from gm.mail.models import Kind

    first = messages[0]
    head = f"{first.sender} writes to {first.recipient} in {game.title}"
    if len(messages) == 1:
        body = f"{head}:\n\n{first.markdown}"
    else:
        body = f"{head} ({len(messages)} messages, oldest first):" + "".join(
            f"\n\n--- {i} of {len(messages)} ---\n\n{m.markdown}"
            for i, m in enumerate(messages, 1))
    return f"{body}\n\n{how}\n" + compose.footer(Kind.PRESS.label, unsubscribe)


def _recent_press_mail(game: Game, message: Message, user) -> list[tuple[int, str, int]]:
    """(outbox id, status, first message id) of the press mails to `user` of the last
    GM_PRESS_FOLD_SECONDS from the same sender to the same end in this game, newest first."""
    from gm.mail import press
    from gm.mail.models import Kind, Outbox

    since = timezone.now() - timedelta(seconds=int(getattr(settings, "GM_PRESS_FOLD_SECONDS",
                                                           300)))
    rows = list(Outbox.objects.filter(to=user.email, kind=Kind.PRESS, user=user,
                                      created__gte=since)
                .order_by("-created", "-id").values_list("pk", "status", "key")[:50])
    firsts = {pk: press.message_of_key(key) for pk, _status, key in rows}
    same = set(Message.objects.filter(
        pk__in=[m for m in firsts.values() if m is not None], game=game,
        sender=message.sender, recipient=message.recipient).values_list("pk", flat=True))
    return [(pk, status, firsts[pk]) for pk, status, _key in rows if firsts[pk] in same]


def _fold(game: Game, message: Message, row: tuple[int, str, int], how: str,
          unsubscribe: str) -> bool:
    """Fold `message` into the press mail `row` that has not gone out yet: its text is
    written again with every message from its first to this one. False when it went out
    meanwhile (the caller then queues a mail of its own)."""
    from gm.mail import compose
    from gm.mail.models import Outbox

    pk, _status, first = row
    messages = list(Message.objects.filter(game=game, sender=message.sender,
                                           recipient=message.recipient, pk__gte=first,
                                           pk__lte=message.pk).order_by("pk"))
    return bool(Outbox.objects.filter(pk=pk, status=Outbox.Status.PENDING).update(
        subject=_press_subject(game, message.sender, len(messages)),
        body_text=compose.wrap(_press_text(game, messages, how, unsubscribe))))


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
