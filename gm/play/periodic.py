"""Periodic jobs for hosts without Celery beat (`run_deadlines --loop`, `serve`).

settings.GM_PERIODIC maps a dotted path to seconds between runs; the deadline sweep
itself runs every loop. Other apps plug in through the setting, not through imports here.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.utils.module_loading import import_string

from . import actions

log = logging.getLogger(__name__)


class Loop:
    def __init__(self) -> None:
        self.last: dict[str, float] = {}

    def tick(self) -> list[int]:
        """One sweep, plus whichever periodic jobs are due. Returns the claimed turn ids."""
        claimed = actions.sweep_deadlines()
        now = time.monotonic()
        for path, every in getattr(settings, "GM_PERIODIC", {}).items():
            if now - self.last.get(path, -every) >= every:
                self.last[path] = now
                try:
                    import_string(path)()
                except Exception:  # one failing job must not stop the sweep
                    log.exception("periodic job %s failed", path)
        return claimed
