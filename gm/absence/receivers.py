"""What the absence layer listens to, and its interim mail notices.

* turn_opened: every seat's "if I miss" orders are read again against the new turn;
* gm_act: a rollback or rerun gives back what was spent on the turns it set aside (the
  extensions stop counting by themselves; this logs it), and a seat handed to a player
  (replace_player, a GM setting it active) leaves civil disorder;
* notable: where gm.notify is not installed, the events this app raises are mailed as
  plain notices to every player and GM of the game (or the users named); with gm.notify
  they go under each reader's budget instead (GM_ABSENCE_MAIL_NOTICES forces either).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.dispatch import receiver

from gm.play import signals as play_signals
from gm.referee import signals as referee_signals

log = logging.getLogger(__name__)
KINDS = {"grace", "vacation", "civil_disorder", "bot_seat", "orders_unreadable"}


@receiver(play_signals.turn_opened, dispatch_uid="absence-recheck-if-miss")
def _recheck(sender, turn, **kwargs) -> None:
    from django.db import transaction

    from .actions import recheck_if_miss

    try:
        with transaction.atomic():
            recheck_if_miss(turn.game)
    except Exception:  # noqa: BLE001 - never break the turn's own mail
        log.exception("absence: re-reading if-I-miss orders of game %s", turn.game_id)


@receiver(referee_signals.gm_act, dispatch_uid="absence-gm-act")
def _gm_act(sender, entry, **kwargs) -> None:
    from django.db import transaction

    from gm.play.models import Seat

    from .actions import end_disorder, give_back

    try:
        with transaction.atomic():
            if entry.action in ("rollback", "rerun"):
                give_back(entry.game)
            elif entry.action in ("player-replaced", "seat-mode"):
                seat = Seat.objects.filter(game=entry.game,
                                           name=entry.private.get("seat", "")).first()
                if seat is not None and seat.mode == Seat.Mode.ACTIVE:
                    end_disorder(seat)
    except Exception:  # noqa: BLE001 - the GM's act is done; never a 500 after it
        log.exception("absence: after GM act %s in game %s", entry.action, entry.game_id)


@receiver(play_signals.orders_received, dispatch_uid="absence-back-from-disorder")
def _back(sender, submission, **kwargs) -> None:
    """A player whose seat is in civil disorder sends orders: the seat is theirs again."""
    from .actions import back_from_disorder

    try:
        back_from_disorder(submission)
    except Exception:  # noqa: BLE001 - the receipt is already given
        log.exception("absence: back from disorder, submission %s", submission.pk)


def _mails_notices() -> bool:
    """GM_ABSENCE_MAIL_NOTICES: True/False; unset, only where gm.notify (which mails every
    `notable` under each reader's budget) is not installed, so nobody is told twice."""
    from django.apps import apps

    wanted = getattr(settings, "GM_ABSENCE_MAIL_NOTICES", None)
    return (not apps.is_installed("gm.notify")) if wanted is None else bool(wanted)


@receiver(play_signals.notable, dispatch_uid="absence-mail-notice")
def _mail_notice(sender, game, kind, text, users=None, urgent=False, url=None,
                 **kwargs) -> None:
    if kind not in KINDS or not _mails_notices():
        return
    try:
        send_notice(game, kind, text, users)
    except Exception:  # noqa: BLE001 - the public log has it either way
        log.exception("absence: mail notice for game %s", game.pk)


def send_notice(game, kind: str, text: str, users: list[int] | None) -> int:
    """One plain mail per reader through the mail outbox (exactly once per text)."""
    import hashlib

    from django.contrib.auth import get_user_model

    from gm.mail import compose, outbox, prefs
    from gm.mail.models import Kind

    ids = set(users) if users is not None else (
        {s.user_id for s in game.seats.all() if s.user_id} | {game.gm_id}
        | set(game.co_gms.values_list("pk", flat=True)))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    sent = 0
    for user in get_user_model().objects.filter(pk__in=ids, is_active=True):
        if not user.email or not prefs.wants(user, Kind.REMINDER):
            continue
        headers, unsubscribe = compose.headers_for(Kind.REMINDER, user)
        body = (f"{text}\n\n{compose.game_url(game)}\n\n"
                + compose.footer("deadline reminders and absence notices", unsubscribe))
        subject = f"[{game.title}] " + {"grace": "deadline moved", "vacation": "a player away",
                                       "civil_disorder": "civil disorder",
                                       "bot_seat": "bot seat",
                                       "orders_unreadable": "your if-I-miss orders"}[kind]
        row = outbox.enqueue(key=f"absence:{game.pk}:{kind}:{digest}:{user.pk}",
                             kind=Kind.REMINDER, to=user.email, user=user,
                             subject=compose.header_value(subject), text=body,
                             headers=headers)
        sent += row is not None
    return sent
