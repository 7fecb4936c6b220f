"""A replayed body: the same text from the same sender to the same seat, again this turn.

Without GM_MAIL_AUTHSERV_ID (the default) the From of a mail is not checked, and a copy
of a player's mail with a new Message-ID (which the Message-ID record does not catch)
would post the same press again, or put back orders the player has since changed. A
mail that took effect (orders accepted, press posted) keeps a digest of its sender and
text (`InboundMessage.body_digest`); a later mail with the same digest to the same seat
since the game's newest turn opened is refused as a duplicate, with nothing kept.

The check costs no statement of its own: it is one more value of the seat lookup's
round trip (`routing.Extra`).
"""

from __future__ import annotations

import hashlib

from gm.play.models import Turn
from gm.play.rows import qn

from .models import InboundMessage, Outcome
from .routing import Extra

TOOK_EFFECT = (Outcome.ACCEPTED, Outcome.PRESS)


def digest(sender: str, text: str | None) -> str:
    """SHA-256 of the sender and the text, blank lines and spacing aside ("" if no text)."""
    if text is None:
        return ""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    body = "\n".join(line for line in lines if line)
    if not body:
        return ""
    return hashlib.sha256(f"{sender.strip().lower()}\n{body}".encode()).hexdigest()


def extra(body_digest: str) -> Extra:
    """The seat lookup's value `replayed`: 1 when a mail with this digest to the seat took
    effect since the game's newest turn opened, else None."""
    inbound, turn = qn(InboundMessage._meta.db_table), qn(Turn._meta.db_table)
    sql = (f"(SELECT 1 FROM {inbound} im WHERE im.{qn('body_digest')} = %s "
           f"AND im.{qn('seat_id')} = s.{qn('id')} AND im.{qn('outcome')} IN (%s, %s) "
           f"AND im.{qn('processed')} >= (SELECT MAX(t.{qn('opened')}) FROM {turn} t "
           f"WHERE t.{qn('game_id')} = s.{qn('game_id')}) LIMIT 1)")
    return Extra("replayed", sql, [body_digest or "-", *(str(o) for o in TOOK_EFFECT)])


def posted_this_turn(body_digest: str, game) -> bool:
    """Whether a mail with this digest posted press in `game` since its newest turn
    opened (a GM's answer to press by mail: no seat lookup to ride along, one query)."""
    from django.db.models import Max

    opened = Turn.objects.filter(game=game).aggregate(at=Max("opened"))["at"]
    rows = InboundMessage.objects.filter(body_digest=body_digest, outcome=Outcome.PRESS)
    if opened is not None:
        rows = rows.filter(processed__gte=opened)
    return rows.exists()
