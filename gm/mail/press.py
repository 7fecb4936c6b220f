"""Replies to press mail: answering a private message by mail posts one back.

A press mail to a seat carries the seat's reply address (its token) as Reply-To, like
every game mail, and its own Message-ID in the outbox. A reply comes through the one
inbound pipeline (`inbound.process`): it is routed to the seat by the token and its
sender checked exactly as orders are; when the newest of our mails in its thread is a
press mail sent to that seat's player, its new text (quotes and signature taken off) is
posted as press from the seat back to the message's sender, and never read as orders.

The GM answers press the same way, through an address of each press mail's own (below).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.crypto import constant_time_compare, salted_hmac

from gm.play.errors import ActionError
from gm.play.models import Seat

from . import routing
from .bodytext import strip_reply
from .mime import Mail
from .models import Kind, Outcome
from .prefs import confirmed

_PREFIX = "press/"


def message_of_key(key: str) -> int | None:
    """The press message a press mail's outbox key names (gm.talk.actions.press_key)."""
    parts = key.split("/")
    if len(parts) == 3 and key.startswith(_PREFIX) and parts[1].isdigit():
        return int(parts[1])
    return None


def answer(seat: Seat, press_id: int, body: str) -> tuple[str, str, dict[str, Any]]:
    """Post the reply's text as press back to the sender of message `press_id`.

    (outcome, detail, reply context): PRESS when posted, REFUSED with the reason when
    the text is empty or too long or the message it answers is gone."""
    from gm.talk import actions as talk
    from gm.talk.models import Message

    stripped = strip_reply(body, later_quote_ends=False)  # interleaved answers are press
    original = Message.objects.filter(pk=press_id, game_id=seat.game_id,
                                      recipient=seat.name).first()
    if original is None:
        why = "the private message this mail answers no longer exists"
        return Outcome.REFUSED, why, {"message": why, "press_to": "?"}
    context: dict[str, Any] = {"press_to": original.sender, "rest": stripped.rest}
    try:
        message = talk.send_from_seat(seat, original.sender, _own_words(stripped.orders))
    except ActionError as exc:
        return Outcome.REFUSED, exc.message, {**context, "message": exc.message}
    return (Outcome.PRESS, f"press {message.pk} from {seat.name} to {original.sender}",
            {**context, "press": message})


def _own_words(text: str) -> str:
    """The writer's text: a mail holding nothing but the quote keeps the quote in
    `strip_reply` (orders then fail to parse), but quoted lines are never press."""
    return "\n".join(line for line in text.split("\n")
                     if not line.lstrip().startswith(">")).strip()


# --- the GM's end: answering press to the GM by mail -----------------------------------
#
# The GM has no seat, so no seat token. A press mail to the GM end carries, as Reply-To,
# an address of its own for that message and that reader:
#
#     play+gm-<message id>-<user id>-<mac>@<domain>
#
# (the MAC is an HMAC of the two ids under the project's SECRET_KEY, lower-case hex, as
# plus-addresses are matched without case). A reply to it from that user's registered,
# confirmed address, while they are the game's GM or a co-GM, is posted as press from the
# GM end back to the seat that wrote, by the same text rules as a seat's reply (quotes and
# signature taken off, END ends it). The inbound pipeline (`inbound._decide`) asks
# `gm_reply` before routing to a seat; its record, claim and dedupe by Message-ID apply
# as to any mail. A mail from any other address is not posted and gets no answer: a
# security notice goes to the GM's registered address instead, never to the sender.

_GM_TOKEN = re.compile(r"^gm-(\d{1,18})-(\d{1,18})-([0-9a-f]{20})$")
_GM_SALT = "gm.mail.press.gm-reply"


def gm_token(message_pk: int, user_pk: int) -> str:
    mac = salted_hmac(_GM_SALT, f"{message_pk}:{user_pk}", algorithm="sha256").hexdigest()
    return f"gm-{message_pk}-{user_pk}-{mac[:20]}"


def gm_reply_address(message_pk: int, user_pk: int) -> str:
    """The Reply-To of the press mail of message `message_pk` to the GM `user_pk`."""
    return (f"{settings.GM_MAIL_LOCALPART}+{gm_token(message_pk, user_pk)}"
            f"@{settings.GM_MAIL_DOMAIN}")


@dataclass
class GMReply:
    """What `gm_reply` makes of a mail to a GM press address (inbound builds its verdict
    from it); `draft`, when set, writes the answer instead of `replies.draft_reply`."""

    outcome: str
    detail: str
    context: dict[str, Any] = field(default_factory=dict)
    draft: Callable[..., tuple[dict[str, Any] | None, str]] | None = None
    digest: str = ""  # of a mail that posted press: a replay of it is refused (replay)


def gm_reply(mail: Mail, text: str | None, *, forged: str = "") -> GMReply | None:
    """None unless the mail is to a GM press address; else what it does (the press is
    posted here, inside the pipeline's transaction). `forged`: why our mail server says
    the From is forged (`authres.forged`), which refuses it like another sender."""
    if not any("+gm-" in r.lower() for r in mail.recipients):  # the common case, cheaply
        return None
    tokens = [t for t in routing.tokens_in(mail.recipients) if t.startswith("gm-")]
    if not tokens:
        return None
    found = _GM_TOKEN.match(tokens[0])
    if found is None or not constant_time_compare(
            gm_token(int(found.group(1)), int(found.group(2))), tokens[0]):
        why = "this reply address does not belong to any game (it may be mistyped)"
        return GMReply(Outcome.UNKNOWN_ADDRESS, why, {"message": why})
    message_pk, user_pk = int(found.group(1)), int(found.group(2))
    from gm.talk import actions as talk
    from gm.talk.models import GM_END, Message

    user = get_user_model().objects.filter(pk=user_pk).first()
    sender = mail.sender.strip().lower()
    if user is None or not user.email or not confirmed(user) or \
            user.email.strip().lower() != sender or forged:
        why = f" (Authentication-Results: {forged})" if forged else ""
        return GMReply(Outcome.WRONG_SENDER, f"{mail.sender} may not answer press as GM "
                       f"(address of user {user_pk}){why}", {"gm": user, "forged": forged},
                       draft=_draft_notice)
    original = (Message.objects.select_related("game").filter(pk=message_pk,
                                                              recipient=GM_END).first())
    base = {"gm": user, "gm_reply_to": tokens[0]}
    if original is None:
        why = "the private message this mail answers no longer exists"
        return GMReply(Outcome.REFUSED, why, {**base, "message": why, "press_to": "?"},
                       draft=_draft_receipt)
    game = original.game
    context = {**base, "game": game, "press_to": original.sender}
    if not game.is_gm(user):
        why = f"you are no longer a GM of {game.title} (game {game.pk})"
        return GMReply(Outcome.REFUSED, why, {**context, "message": why},
                       draft=_draft_receipt)
    if text is None:
        why = "the mail had no text we could read (attachments are not read)"
        return GMReply(Outcome.REFUSED, why, {**context, "message": why},
                       draft=_draft_receipt)
    stripped = strip_reply(text, later_quote_ends=False)  # interleaved answers are press
    context["rest"] = stripped.rest
    from . import replay

    digest = replay.digest(f"{sender} {tokens[0]}", text)
    if digest and replay.posted_this_turn(digest, game):
        why = (f"the same text from you was already posted to {original.sender} this turn, "
               "so it was not posted again (a copy of an earlier mail, sent again by a mail "
               "program, or by someone else); to post it again on purpose, change anything "
               "in it")
        return GMReply(Outcome.REFUSED, f"duplicate: {why}", {**context, "message": why},
                       draft=_draft_receipt)
    seats = list(game.seats.order_by("id").values_list("name", flat=True))
    try:
        message = talk.post(game, user, GM_END, original.sender,
                            _own_words(stripped.orders), seats)
    except ActionError as exc:
        return GMReply(Outcome.REFUSED, exc.message, {**context, "message": exc.message},
                       draft=_draft_receipt)
    return GMReply(Outcome.PRESS, f"press {message.pk} from GM (user {user.pk}) to "
                   f"{original.sender}", {**context, "press": message},
                   draft=_draft_receipt, digest=digest)


def _draft_receipt(row, mail: Mail, outcome: str, seat, context: dict[str, Any]
                   ) -> tuple[dict[str, Any] | None, str]:
    """The answer to the GM (the sender was checked): posted, or why not. Rate-limited
    per address like every reply; the receipts switch stops only the "posted" one."""
    from . import compose, replies

    user = context["gm"]
    to = user.email.strip().lower()
    wanted, recent = replies._wants_and_recent(user, to, None)
    if outcome == Outcome.PRESS and not wanted:
        return None, "preference"
    if recent >= replies.rate_limit()[0]:
        return None, "rate limit"
    headers, unsubscribe = compose.headers_for(Kind.RECEIPT, user, auto="auto-replied")
    if mail.message_id:
        headers["In-Reply-To"] = f"<{mail.message_id}>"
        headers["References"] = " ".join(dict.fromkeys(
            [*mail.references, f"<{mail.message_id}>"][-20:]))
    game = context.get("game")
    ctx = {**context, "outcome": outcome, "seat": None, "game": game,
           "game_url": compose.game_url(game) if game is not None else "",
           "rest_lines": replies._quote(context.get("rest", ""),
                                         hide_quotes=outcome == Outcome.PRESS), "skipped": []}
    if context.get("press") is not None:
        ctx["press_lines"] = context["press"].markdown.splitlines()
    text = compose.render("reply.txt", ctx)
    if outcome == Outcome.PRESS:
        text += compose.footer("replies to your orders", unsubscribe)
    else:  # a refusal always goes: nothing to unsubscribe from
        headers.pop("List-Unsubscribe", None)
        headers.pop("List-Unsubscribe-Post", None)
    original = compose.header_value(mail.subject, 160) or "your message"
    prefix = "" if original.lower().startswith("re:") else "Re: "
    label = "private message posted" if outcome == Outcome.PRESS else \
        "private message NOT posted"
    reply_to = (f"{settings.GM_MAIL_LOCALPART}+{context['gm_reply_to']}"
                f"@{settings.GM_MAIL_DOMAIN}") if game is not None else ""
    return dict(key=f"reply:{row.pk}", kind=Kind.RECEIPT, to=to, user=user,
                subject=compose.header_value(f"{prefix}{original} [{label}]", 255),
                text=text, headers=headers, reply_to=reply_to, inbound=row), ""


def _draft_notice(row, mail: Mail, outcome: str, seat, context: dict[str, Any]
                  ) -> tuple[dict[str, Any] | None, str]:
    """A mail to a GM's press address from another address: a security notice to the
    GM's registered address, never an answer to the sender (a From line is easy to
    forge, and the sender must not learn that the address is a game's)."""
    from . import compose, replies

    user = context.get("gm")
    if user is None or not user.email or not confirmed(user):
        return None, "wrong sender, nobody to warn"
    to = user.email.strip().lower()
    if replies._wants_and_recent(user, to, None)[1] >= replies.rate_limit()[0]:
        return None, "rate limit"
    headers, _ = compose.headers_for(Kind.RECEIPT, None, auto="auto-replied")
    if context.get("forged"):
        came = (f"with your address {mail.sender} in its From line, but our mail server's "
                f"check of the sender failed ({context['forged']}): it was most likely not "
                "sent by you, so it was NOT posted and nothing was changed.\n")
    else:
        came = (f"from {mail.sender}, which is not your account's address, so it was NOT "
                "posted and nothing was changed.\n")
    text = ("Security notice: a message came to the reply address of a private message "
            f"sent to you as GM, {came}"
            f'Its subject: "{compose.header_value(mail.subject, 120)}". It got no answer: '
            "this notice goes only to you.\n\nIf it was you, answer from "
            + ("your mail provider's own server or webmail (a forwarder or relay on the "
               "way broke its signature)" if context.get("forged") else
               "the address of your account")
            + ". If it was not, someone has seen that mail; nothing else can be done with "
            "its reply address than answering that one message.\n")
    what = "a message that failed the sender check" if context.get("forged") else \
        "a message from another address"
    return dict(key=f"reply:{row.pk}", kind=Kind.RECEIPT, to=to, user=user,
                subject=f"[security notice: {what}] press to you as GM", text=text,
                headers=headers, reply_to="", inbound=row), ""
