"""The notification layer's periodic work, one call: escalating reminders (replacing the
mail app's single reminder loop), quiet-hours catch-ups, daily digests, webhook sends.
Run by Celery beat (gm.notify.tasks.tick) or `manage.py notify_tick [--loop]`."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from . import digest, escalation, webhooks
from .models import Notification, Nudge, WebhookDelivery

log = logging.getLogger(__name__)


def run(now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    done: dict[str, int] = {}
    for name, job in (("reminders", escalation.tick), ("held", digest.release_held),
                      ("digests", digest.send_digests), ("webhooks", webhooks.send_due),
                      ("pruned", prune)):
        try:
            done[name] = job(now)
        except Exception:  # one failing job must not stop the others
            log.exception("notify tick: %s failed", name)
            done[name] = -1
    return done


def prune(now: datetime) -> int:
    """Forget what is past use: notifications and nudges older than GM_NOTIFY_KEEP_DAYS
    (a digest or a held notice still waiting is kept), finished webhook deliveries."""
    cutoff = now - timedelta(days=float(getattr(settings, "GM_NOTIFY_KEEP_DAYS", 60)))
    done = Notification.objects.filter(created__lt=cutoff).exclude(
        state__in=(Notification.State.DIGEST, Notification.State.HELD)).delete()[0]
    done += Nudge.objects.filter(created__lt=cutoff).delete()[0]
    done += WebhookDelivery.objects.filter(created__lt=cutoff).exclude(
        status=WebhookDelivery.Status.PENDING).delete()[0]
    return done
