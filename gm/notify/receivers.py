"""Signal receivers: every event of the play, talk and referee layers becomes
notifications through the budget. Runs after commit (the signals are sent then)."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.db.models.signals import post_save

from . import budget, notes, webhooks

log = logging.getLogger(__name__)


def connect() -> None:
    from gm.play import signals
    from gm.play.models import Post
    from gm.referee import signals as referee

    signals.notable.connect(on_notable, dispatch_uid="gm_notify_notable")
    signals.turn_opened.connect(on_turn_opened, dispatch_uid="gm_notify_turn_opened")
    signals.turn_published.connect(on_turn_published, dispatch_uid="gm_notify_published")
    signals.game_finished.connect(on_game_finished, dispatch_uid="gm_notify_finished")
    referee.gm_act.connect(on_gm_act, dispatch_uid="gm_notify_gm_act")
    post_save.connect(on_post, sender=Post, dispatch_uid="gm_notify_post")
    from django.db.models.signals import post_delete

    from . import schedule
    from .models import Schedule
    post_save.connect(schedule.forget, sender=Schedule, dispatch_uid="gm_notify_sched")
    from .models import Webhook
    post_save.connect(webhooks.forget, sender=Webhook, dispatch_uid="gm_notify_hooks")
    post_delete.connect(webhooks.forget, sender=Webhook, dispatch_uid="gm_notify_hooks_d")
    post_delete.connect(schedule.forget, sender=Schedule, dispatch_uid="gm_notify_sched_d")
    webhooks.disabled.connect(on_webhook_disabled, dispatch_uid="gm_notify_hook_off")


def on_webhook_disabled(sender: Any = None, hook: Any = None, reason: str = "",
                        **kwargs: Any) -> None:
    """Tell a webhook's owner, by mail and on the page, that it was switched off."""
    gate = budget.Gate(budget.readers([hook.owner_id]))
    owner = gate.known[hook.owner_id].user
    event = budget.Event("webhook_disabled", f"webhook_disabled:{hook.pk}:{hook.failures}",
                         f"Your webhook {hook.url} was switched off: {reason}",
                         hook.game_id, url="/account/notifications/", urgent=False)
    notes.consider_and_mail(gate, owner, event)
    gate.flush()


def _guard(func):
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            func(*args, **kwargs)
        except Exception:  # a notification must never break the act that caused it
            log.exception("notification receiver %s failed", func.__name__)
    run.__name__ = func.__name__
    return run


def readers_of(game) -> list[int]:
    """Seated players and the GMs of a game."""
    ids = set(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    ids.add(game.gm_id)
    ids.update(game.co_gms.values_list("pk", flat=True))
    return sorted(ids)


def _url(game) -> str:
    return f"/games/{game.pk}/"


@_guard
def on_notable(sender: Any = None, game=None, kind: str = "", text: str = "",
               users: list[int] | None = None, urgent: bool = False, url: str | None = None,
               **kwargs: Any) -> None:
    ids = users if users is not None else readers_of(game)
    from django.utils import timezone
    stamp = timezone.now().isoformat(timespec="minutes")
    key = f"{kind}:{game.pk}:" + hashlib.sha256(f"{stamp} {text}".encode()).hexdigest()[:16]

    def make(pk: int) -> budget.Event:
        return budget.Event(kind, key, f"{game.title}: {text}", game.pk, url or _url(game),
                            needs_action=kind in budget.kinds.NEEDS_ACTION or urgent,
                            urgent=urgent)
    notes.fan_out(ids, make)
    if users is None and kind in budget.kinds.PUBLIC:
        webhooks.game_event(game.pk, make(0))


@_guard
def on_turn_opened(sender: Any = None, turn=None, **kwargs: Any) -> None:
    # the owing seats' notifications are recorded by the mail batch (gm.mail.notices);
    # the game's public webhook hears that the turn is open
    game = turn.game
    webhooks.game_event(game.pk, budget.Event(
        "turn_opened_public", f"turn_opened:{turn.pk}",
        f"{game.title}: turn {turn.number} is open for orders", game.pk, _url(game)))


@_guard
def on_turn_published(sender: Any = None, record=None, **kwargs: Any) -> None:
    game = record.game
    webhooks.game_event(game.pk, budget.Event(
        "report", f"report:{record.pk}",
        f"{game.title}: the report for turn {record.number} is out", game.pk, _url(game)))


@_guard
def on_game_finished(sender: Any = None, game=None, **kwargs: Any) -> None:
    webhooks.game_event(game.pk, budget.Event(
        "game_over", f"game_over:{game.pk}", f"{game.title}: the game is over", game.pk,
        _url(game)))


@_guard
def on_gm_act(sender: Any = None, entry=None, **kwargs: Any) -> None:
    game = entry.game
    text = f"{game.title}: GM: {entry.public}"
    event = budget.Event("gm_act", f"gm_act:{entry.pk}", text, game.pk, _url(game))
    notes.fan_out([pk for pk in readers_of(game) if pk != entry.actor_id], lambda pk: event)
    webhooks.game_event(game.pk, event)


@_guard
def on_post(sender: Any = None, instance=None, created: bool = False, **kwargs: Any) -> None:
    if not created or instance.kind == "report":
        return  # reports are notified as reports
    from django.db import transaction

    def later() -> None:
        game = instance.game
        who = getattr(instance.author, "username", "someone")
        event = budget.Event("post", f"post:{instance.pk}",
                             f"{game.title}: {who} wrote in the thread", game.pk,
                             _url(game) + "#thread")
        notes.fan_out([pk for pk in readers_of(game) if pk != instance.author_id],
                      lambda pk: event)
        webhooks.game_event(game.pk, event)
    transaction.on_commit(_guard(later), robust=True)
