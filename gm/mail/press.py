"""Replies to press mail: answering a private message by mail posts one back.

A press mail to a seat carries the seat's reply address (its token) as Reply-To, like
every game mail, and its own Message-ID in the outbox. A reply comes through the one
inbound pipeline (`inbound.process`): it is routed to the seat by the token and its
sender checked exactly as orders are; when the newest of our mails in its thread is a
press mail sent to that seat's player, its new text (quotes and signature taken off) is
posted as press from the seat back to the message's sender, and never read as orders.
"""

from __future__ import annotations

from typing import Any

from gm.play.errors import ActionError
from gm.play.models import Seat

from .bodytext import strip_reply
from .models import Outcome

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

    stripped = strip_reply(body)
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
