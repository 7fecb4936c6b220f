"""The reply to an inbound message, in its thread, like the classic judges' replies.

Accepted: the orders as understood, one per line, and the receipt hash. Errors: each
error with its line and hint, the lines that read fine, what was not read, and which
orders stay in force. Replies are rate-limited per address and never go to our own
addresses; the caller never asks for one for loop mail.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.core.types import Orders

from . import compose, outbox
from .mime import Mail
from .models import InboundMessage, Kind, Outbox, Outcome
from .prefs import wants

_SUBJECTS = {
    Outcome.ACCEPTED: "orders accepted",
    Outcome.INVALID: "orders NOT accepted: errors",
    Outcome.LATE: "too late: orders not kept",
    Outcome.FINISHED: "this game is over",
    Outcome.REFUSED: "orders not taken",
    Outcome.UNKNOWN_ADDRESS: "unknown reply address",
    Outcome.UNKNOWN_GAME: "unknown game",
    Outcome.WRONG_SENDER: "sender not registered for this seat",
    Outcome.EMPTY: "no orders found",
    Outcome.NO_TEXT: "no readable text",
    Outcome.TOO_LARGE: "message too large",
    Outcome.UNDECODABLE: "could not read your message",
}


def rate_limit() -> tuple[int, int]:
    """(replies, seconds): at most that many replies per address per window."""
    return (int(getattr(settings, "GM_MAIL_REPLY_LIMIT", 20)),
            int(getattr(settings, "GM_MAIL_REPLY_WINDOW", 3600)))


def _own_address(addr: str) -> bool:
    domain = "@" + getattr(settings, "GM_MAIL_DOMAIN", "localhost").lower()
    local = getattr(settings, "GM_MAIL_LOCALPART", "play").lower()
    own = {settings.DEFAULT_FROM_EMAIL.lower(), getattr(settings, "SERVER_EMAIL", "").lower()}
    return addr in own or (addr.endswith(domain) and (addr.startswith(local + "+")
                                                      or addr == local + domain))


def queue_reply(row: InboundMessage, mail: Mail, outcome: str, seat, context: dict[str, Any]
                ) -> tuple[Outbox | None, str]:
    """Queue the reply for an inbound message: (outbox row, "") or (None, why not)."""
    to = mail.sender
    if not to or _own_address(to):
        return None, "own address"
    user = seat.user if seat is not None and seat.user and \
        seat.user.email.lower() == to else None
    if user is not None and not wants(user, Kind.RECEIPT):
        return None, "preference"
    limit, window = rate_limit()
    since = timezone.now() - timedelta(seconds=window)
    if Outbox.objects.filter(to=to, kind=Kind.RECEIPT, created__gte=since).count() >= limit:
        return None, "rate limit"
    headers, unsubscribe = compose.headers_for(Kind.RECEIPT, user, auto="auto-replied")
    if mail.message_id:
        headers["In-Reply-To"] = f"<{mail.message_id}>"
        refs = [*mail.references, f"<{mail.message_id}>"]
        headers["References"] = " ".join(dict.fromkeys(refs[-20:]))
    ctx = {**context, "outcome": outcome, "seat": seat, "game": seat.game if seat else None,
           "sender": to, "limit_kb": context.get("limit_kb")}
    sub = context.get("submission")
    if seat is not None:
        turn = sub.turn if sub is not None else seat.game.current_turn()
        ctx["turn"] = turn
        ctx["deadline"] = compose.fmt_deadline(turn.deadline) if turn else ""
        ctx["game_url"] = compose.game_url(seat.game)
    if sub is not None:
        ctx["orders"] = Orders.from_json(sub.orders).text.splitlines()
    prev = context.get("previous")
    if prev is not None:
        ctx["previous_orders"] = Orders.from_json(prev.orders).text.splitlines()
    ctx["rest_lines"] = _quote(context.get("rest", ""))
    text = compose.render("reply.txt", ctx)
    if user is not None:
        text += compose.footer("replies to your orders", unsubscribe)
    subject = mail.subject or "your message"
    prefix = "" if subject.lower().startswith("re:") else "Re: "
    label = _SUBJECTS.get(outcome, outcome)
    reply_to = seat.reply_address if seat is not None and outcome != Outcome.WRONG_SENDER \
        else ""
    row_out = outbox.enqueue(
        key=f"reply:{row.pk}", kind=Kind.RECEIPT, to=to, user=user,
        subject=f"{prefix}{subject} [{label}]", text=text, headers=headers,
        reply_to=reply_to, inbound=row)
    return row_out, "" if row_out else "already queued"


def _quote(rest: str, limit: int = 15) -> list[str]:
    lines = [line for line in (rest or "").strip().split("\n")]
    if not any(line.strip() for line in lines):
        return []
    shown = lines[:limit]
    if len(lines) > limit:
        shown.append(f"[... {len(lines) - limit} more lines]")
    return shown
