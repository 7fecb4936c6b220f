"""Press by mail, outbound: each private message mailed to its reader (the seat's player,
or the GM and co-GMs), with a reply address that posts the answer back (gm.mail.press),
under the reader's notification budget; a burst to one reader folded into one mail.

Connected to gm.talk's `press_posted` in MailConfig.ready: the talk app stores and checks
press and knows nothing of mail.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from gm.play.models import Game
from gm.talk.actions import press_key
from gm.talk.models import GM_END, Message

from . import compose, outbox, prefs, press
from .models import Kind, Outbox
from .notices import notify_gate


def on_press_posted(sender: Any = None, game: Game | None = None,
                    message: Message | None = None, **kwargs: Any) -> None:
    mail_press(game, message)


def mail_press(game: Game, message: Message) -> None:
    """Mail the recipient (the seat's player, or the GM) through the mail outbox.

    A seat's mail carries the seat's reply address as Reply-To: replying to it posts
    press back to the sender (gm.mail.press). Press to the GM end goes to the GM and each
    co-GM, each mail with a reply address of its own for that message and reader:
    replying to it posts the answer as the GM (gm.mail.press.gm_reply)."""
    seat = None
    if message.recipient == GM_END:
        users = [game.gm, *game.co_gms.exclude(pk=game.gm_id).order_by("pk")]
    else:
        seat = game.seats.filter(name=message.recipient).select_related("user").first()
        users = [seat.user] if seat and seat.user else []
    link = f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/#press"
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

    return Outbox.Status.PENDING


def _press_subject(game: Game, sender: str, count: int) -> str:

    title = compose.header_value(game.title, 120)
    what = "press" if count == 1 else f"{count} press messages"
    return compose.header_value(f"[{title}] {what} from {sender}")


def _press_text(game: Game, messages: list[Message], how: str, unsubscribe: str) -> str:

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

    pk, _status, first = row
    messages = list(Message.objects.filter(game=game, sender=message.sender,
                                           recipient=message.recipient, pk__gte=first,
                                           pk__lte=message.pk).order_by("pk"))
    return bool(Outbox.objects.filter(pk=pk, status=Outbox.Status.PENDING).update(
        subject=_press_subject(game, message.sender, len(messages)),
        body_text=compose.wrap(_press_text(game, messages, how, unsubscribe))))
