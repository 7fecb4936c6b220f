"""The notification layer's periodic work, one call: escalating reminders (replacing the
mail app's single reminder loop), quiet-hours catch-ups, daily digests, webhook sends.
Run by Celery beat (gm.notify.tasks.tick) or `manage.py notify_tick [--loop]`."""

from __future__ import annotations

import logging
from datetime import datetime

from django.utils import timezone

from . import digest, escalation, webhooks

log = logging.getLogger(__name__)


def run(now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    done: dict[str, int] = {}
    for name, job in (("reminders", escalation.tick), ("held", digest.release_held),
                      ("digests", digest.send_digests), ("webhooks", webhooks.send_due)):
        try:
            done[name] = job(now)
        except Exception:  # one failing job must not stop the others
            log.exception("notify tick: %s failed", name)
            done[name] = -1
    return done
