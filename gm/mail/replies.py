"""The reply to an inbound message, in its thread, like the classic judges' replies.

Accepted: the orders as understood, one per line, and the receipt hash. Errors: each
error with its line and hint, the lines that read fine, what was not read, and which
orders stay in force. Replies are rate-limited per address and never go to our own
addresses; the caller never asks for one for loop mail.

Who gets the answer (`recipient`): the sender when the sender may order for the seat.
A sender who may not never learns that the address belongs to a game (a From line is
easy to forge): the refusal goes to the seat's registered address as a security notice,
and an unknown or missing token is answered only to an address of an account here. The
"replies to your orders" switch only stops receipts of accepted orders: an error always
gets its answer, or the player would believe the orders stand.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.core.types import Orders
from gm.play.rows import cached_sql, db, qn

from . import compose
from .mime import Mail
from .models import InboundMessage, Kind, MailPreference, Outbox, Outcome
from .prefs import confirmed
from .routing import Extra

_SUBJECTS = {
    Outcome.ACCEPTED: "orders accepted",
    Outcome.INVALID: "orders NOT accepted: errors",
    Outcome.LATE: "too late: orders not kept",
    Outcome.FINISHED: "this game is over",
    Outcome.REFUSED: "orders not taken",
    Outcome.UNKNOWN_ADDRESS: "unknown reply address",
    Outcome.UNKNOWN_GAME: "unknown game",
    Outcome.WRONG_SENDER: "security notice: a message from another address",
    Outcome.EMPTY: "no orders found",
    Outcome.NO_TEXT: "no readable text",
    Outcome.TOO_LARGE: "message too large",
    Outcome.PRESS: "private message posted",
    Outcome.DUPLICATE: "duplicate: not read again",
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


def recipient(mail: Mail, outcome: str, seat) -> tuple[str, object | None, str]:
    """(address, user or None, why not when the address is "") for the answer."""
    sender = mail.sender
    if outcome == Outcome.WRONG_SENDER:
        owner = seat.user if seat is not None else None
        if owner is None or not owner.email or not confirmed(owner):
            return "", None, "wrong sender, nobody to warn"
        return owner.email.strip().lower(), owner, ""
    if not sender or _own_address(sender):
        return "", None, "own address"
    if seat is None:
        account = _account(sender)
        if account is None:
            return "", None, "unknown sender"
        return sender, account, ""
    user = seat.user if seat.user is not None and \
        (seat.user.email or "").lower() == sender else None
    return sender, user, ""


def _account(addr: str):
    """The active account whose (confirmed) address this is, or None."""
    users = get_user_model().objects.filter(email__iexact=addr, is_active=True)[:2]
    users = list(users)
    if len(users) != 1 or not confirmed(users[0]):
        return None
    return users[0]


def reply_facts(sender: str) -> list[Extra]:
    """Values for the seat lookup (`routing.route`) that answer, in its round trip, what
    a reply to `sender` needs: the seat's user's receipts switch and how many replies
    `sender` got within the rate-limit window (both by index)."""
    since = timezone.now() - timedelta(seconds=rate_limit()[1])
    switch, count = cached_sql("reply facts", _facts_sql)
    return [
        Extra("receipts_switch", switch, [str(Kind.RECEIPT)]),
        Extra("replies_to_sender", count, [sender, str(Kind.RECEIPT),
                                           db().ops.adapt_datetimefield_value(since)]),
        Extra("facts_for", "CAST(%s AS VARCHAR(254))", [sender]),
    ]


def _facts_sql() -> tuple[str, str]:
    pref, out = qn(MailPreference._meta.db_table), qn(Outbox._meta.db_table)
    return (f"(SELECT mp.{qn('enabled')} FROM {pref} mp WHERE mp.{qn('user_id')} = "
            f"s.{qn('user_id')} AND mp.{qn('kind')} = %s)",
            f"(SELECT COUNT(*) FROM {out} o WHERE o.{qn('to')} = %s AND o.{qn('kind')} = %s "
            f"AND o.{qn('created')} >= %s)")


def _wants_and_recent(user, to: str, seat) -> tuple[bool, int]:
    """(the user wants receipts, replies sent to `to` in the window): from the seat's
    annotations when they answer for this address, else in one round trip."""
    if seat is not None and getattr(seat, "facts_for", None) == to and \
            user is not None and user.pk == seat.user_id:
        enabled = seat.receipts_switch
        return enabled is None or bool(enabled), int(seat.replies_to_sender or 0)
    since = timezone.now() - timedelta(seconds=rate_limit()[1])
    pref_table = MailPreference._meta.db_table
    out_table = Outbox._meta.db_table
    qn = connection.ops.quote_name
    sql = (f"SELECT (SELECT {qn('enabled')} FROM {qn(pref_table)} WHERE {qn('user_id')} = %s "
           f"AND {qn('kind')} = %s), (SELECT COUNT(*) FROM {qn(out_table)} WHERE "
           f"{qn('to')} = %s AND {qn('kind')} = %s AND {qn('created')} >= %s)")
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk if user is not None else None, Kind.RECEIPT, to,
                             Kind.RECEIPT, since])
        enabled, count = cursor.fetchone()
    return enabled is None or bool(enabled), int(count)


def draft_reply(row: InboundMessage, mail: Mail, outcome: str, seat, context: dict[str, Any]
                ) -> tuple[dict[str, Any] | None, str]:
    """The reply for an inbound message as `outbox.enqueue` arguments, or (None, why not).

    The pipeline drafts first and writes the row after claiming the inbound message, so
    the write needs no savepoint (see `inbound.process`)."""
    to, user, why_not = recipient(mail, outcome, seat)
    if not to:
        return None, why_not
    limit = rate_limit()[0]
    wanted, recent = _wants_and_recent(user, to, seat)
    receipt = outcome in (Outcome.ACCEPTED, Outcome.PRESS)  # the switchable answers
    if receipt and user is not None and not wanted:
        return None, "preference"
    if recent >= limit:
        return None, "rate limit"
    notice = outcome == Outcome.WRONG_SENDER
    headers, unsubscribe = compose.headers_for(Kind.RECEIPT, user, auto="auto-replied")
    if not notice and mail.message_id:
        headers["In-Reply-To"] = f"<{mail.message_id}>"
        refs = [*mail.references, f"<{mail.message_id}>"]
        headers["References"] = " ".join(dict.fromkeys(refs[-20:]))
    ctx = {**context, "outcome": outcome, "seat": seat, "game": seat.game if seat else None,
           "sender": mail.sender, "limit_kb": context.get("limit_kb"), "notice": notice,
           "subject": compose.header_value(mail.subject, 120),
           "prefs_url": compose.site_url("/mail/preferences/")}
    sub = context.get("submission")
    turn = None
    if seat is not None and not notice:
        turn = sub.turn if sub is not None else seat.game.current_turn()
        ctx["turn"] = turn
        ctx["deadline"] = compose.fmt_deadline(turn.deadline, user) if turn else ""
        ctx["game_url"] = compose.game_url(seat.game)
    if notice and seat is not None and context.get("forged"):
        ctx["seat_game_url"] = compose.game_url(seat.game)
    if sub is not None:
        ctx["orders"] = Orders.from_json(sub.orders).text.splitlines()
    if context.get("press") is not None:
        ctx["press_lines"] = context["press"].markdown.splitlines()
    prev = context.get("previous")
    if prev is not None:
        ctx["previous_orders"] = Orders.from_json(prev.orders).text.splitlines()
    ctx["rest_lines"] = _quote(context.get("rest", ""),
                               hide_quotes=outcome in (Outcome.ACCEPTED, Outcome.PRESS))
    ctx["skipped"] = context.get("skipped") or []
    text = accepted_text(ctx) if outcome == Outcome.ACCEPTED else None
    if text is None:
        text = compose.render("reply.txt", ctx)
    if user is not None and receipt:
        text += compose.footer("replies to your orders", unsubscribe)
    elif "List-Unsubscribe" in headers:  # errors always go: nothing to unsubscribe from
        del headers["List-Unsubscribe"]
        headers.pop("List-Unsubscribe-Post", None)
    label = context.get("label") or _SUBJECTS.get(outcome, outcome)  # gm.absence's own
    if notice and context.get("forged"):
        label = "security notice: a message that failed the sender check"
    if notice:
        game = f" ({compose.header_value(seat.game.title, 60)})" if seat is not None else ""
        subject = f"[{label}] to your seat {seat.name if seat else ''}{game}".replace(
            "seat  ", "seat ")
    else:
        subject = f"Re: {reply_subject(mail.subject)} [{label}]"
    reply_to = seat.reply_address if seat is not None and not notice else ""
    # Echoed orders are never re-wrapped: pasted back, a wrapped order would be two
    # lines (two orders, or a continuation read as a "> " quote).
    echoed = [*(ctx.get("orders") or ()), *(ctx.get("previous_orders") or ()),
              *(str(line) for line in context.get("accepted") or ()),
              *(context.get("open_orders") or ())]
    return dict(
        verbatim=frozenset(f"    {line}" for line in echoed),
        key=f"reply:{row.pk}", kind=Kind.RECEIPT, to=to, user=user,
        subject=compose.header_value(subject, 255), text=text, headers=headers,
        reply_to=reply_to, inbound=row,
        # A receipt of accepted orders names its turn (a reply to it is about that
        # turn); a refusal names none, so answering it orders for the open turn.
        turn=sub.turn if sub is not None else None), ""


# Reply prefixes as clients write them ("Re:", Outlook's "RE:", German "AW:", Nordic
# "SV:"/"VS:", Dutch "Antw:", Italian "R:"/"Rif:", Polish "Odp:", counted "Re[2]:"...)
_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|vs|antw|antwort|r|rif|odp|ynt|réf|ref)"
                           r"\s*(?:\[\d+\]|\(\d+\))?\s*:\s*)+", re.IGNORECASE)
_OUR_LABELS = re.compile(r"(?:\s*\[(?:" + "|".join(
    re.escape(label) for label in _SUBJECTS.values()) + r")\])+\s*$", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """The subject a reply repeats: without the reply prefixes clients stacked up
    ("RE: AW: Re:") and without our own outcome labels from earlier answers in the
    thread, so answering a receipt does not grow "[orders accepted] [orders accepted]"."""
    original = compose.header_value(subject, 160)
    while True:
        shorter = _OUR_LABELS.sub("", _REPLY_PREFIX.sub("", original)).strip()
        if shorter == original:
            break
        original = shorter
    return original or "your message"


def accepted_text(ctx: dict[str, Any]) -> str | None:
    """What templates/mail/reply.txt says for accepted orders, written without the
    template engine: the receipt is the answer sent at volume, and rendering the
    template was a fifth of the pipeline's own CPU per message. None when the context is
    not the usual one (the template is used then). tests/gm/mail/test_receipt_text.py
    holds the two to the same text, so a change to the template must be made here too."""
    game, turn, seat, sub = ctx.get("game"), ctx.get("turn"), ctx.get("seat"), \
        ctx.get("submission")
    if ctx.get("outcome") != Outcome.ACCEPTED or None in (game, turn, seat, sub) or \
            not isinstance(ctx.get("deadline"), str) or not getattr(sub, "ready", True):
        return None  # (saved, not ready: the template says so)
    out = [f"Orders accepted for {game.title} (game {game.pk}), turn {turn.number}, seat "
           f"{seat.name}.\n\nYour orders as understood (version {sub.version}):\n\n"]
    out += [f"    {line}\n" for line in ctx.get("orders") or ()]
    out.append(f"\nReceipt (SHA-256 of the orders):\n    {sub.receipt}\n\nThese replace any orders you sent before for "
               "this turn. To change them,\nreply again before the deadline "
               f"({ctx['deadline']});\nthe latest orders in time count.")
    if ctx.get("skipped"):
        out.append("\n\nNot read (before or after your orders, no order word of this "
                   "game):\n\n")
        out += [f"    > {line}\n" for line in ctx["skipped"]]
    if ctx.get("rest_lines"):
        out.append("\n\nNot read (after END, your signature, quoted or forwarded text):\n\n")
        out += [f"    > {line}\n" for line in ctx["rest_lines"]]
    if ctx.get("game_url"):
        out.append(f"\n\nGame page: {ctx['game_url']}")
    return "".join(out).strip() + "\n"


def _without_quotes(lines: list[str]) -> tuple[list[str], int]:
    """(`lines` less every "> " quote and the attribution lines right above each, how
    many quoted lines were left out)."""
    from .bodytext import _ADDRESS_ATTRIBUTION, _ATTRIBUTION, _ATTRIBUTION_START

    kept: list[str] = []
    quoted = 0
    for line in lines:
        if line.lstrip().startswith(">"):
            quoted += 1
            # the attribution above the quote ("On ..., GM <...> wrote:", up to 3 lines)
            back = len(kept)
            while back > 0 and not kept[back - 1].strip():
                back -= 1
            for size in (3, 2, 1):  # a wrapped attribution: its first line says so
                group = kept[back - size:back] if back >= size else []
                head = " ".join(x.strip() for x in group)
                if head and (size == 1 or _ATTRIBUTION_START.match(group[0])) and (
                        _ATTRIBUTION.match(head) or _ADDRESS_ATTRIBUTION.match(head)):
                    del kept[back - size:]
                    break
            continue
        if quoted and kept and not line.strip() and not kept[-1].strip():
            continue  # blank lines left where a quote was
        kept.append(line)
    while kept and not kept[0].strip():
        kept.pop(0)
    return kept, quoted


def _quote(rest: str, limit: int = 15, *, hide_quotes: bool = False) -> list[str]:
    """The text that was not read, to list back. `hide_quotes` (a receipt: what was sent
    took effect): only the player's own lines (a signature, words after END); a quoted
    earlier mail (our notice, most often) and its "On ... wrote:" line are not echoed
    back to its reader, only counted on one line. Otherwise (nothing was read) all of
    it, so the player sees what was taken for a quote."""
    lines = (rest or "").strip().split("\n")
    lines, quoted = _without_quotes(lines) if hide_quotes else (lines, 0)
    if quoted:
        while lines and not lines[-1].strip():
            lines.pop()
        lines.append(f"[{quoted} quoted line{'s' if quoted != 1 else ''} of an earlier "
                     "mail, not shown]")
    if not any(line.strip() for line in lines):
        return []
    shown = lines[:limit]
    if len(lines) > limit:
        shown.append(f"[... {len(lines) - limit} more lines]")
    return shown
