"""The Celery app. Without CELERY_BROKER_URL tasks run eagerly, in-process.

Database connections in worker processes: Celery's Django fixup closes every connection
before and after each task, so each task paid for a new PostgreSQL connection (several
ms of CPU on both sides; more than the work of a no-op task). A worker process instead
keeps its connections for GM_WORKER_CONN_MAX_AGE seconds, the way Django keeps them
across requests: before and after every task `close_old_connections` closes a connection
that is past its age, broken (errors_occurred and not usable) or left outside autocommit,
and the first query of the next task checks it (CONN_HEALTH_CHECKS), so a database
restart costs one reconnect, not a failed task. GM_WORKER_CONN_MAX_AGE=0 restores a
connection per task.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("gm")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def persistent_connections(max_age: int) -> None:
    """Keep this process's database connections `max_age` seconds, health-checked.

    Takes effect for connections opened from now on (Django reads CONN_MAX_AGE when it
    connects), so the ones open now are closed.
    """
    from django.conf import settings
    from django.db import connections

    for alias, conf in settings.DATABASES.items():
        conf["CONN_MAX_AGE"] = max_age
        conf["CONN_HEALTH_CHECKS"] = True
        connections[alias].close()


def between_tasks(sender: Any = None, **kwargs: Any) -> None:
    """task_prerun/task_postrun: what Django does at each request's start and end."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in-process: the caller's own request cycle manages its connection
    from django.db import close_old_connections

    close_old_connections()


@signals.worker_init.connect
def _worker_connections(**kwargs: Any) -> None:
    """In worker processes only (the web process keeps DATABASE_URL's own settings)."""
    from django.conf import settings

    max_age = int(getattr(settings, "GM_WORKER_CONN_MAX_AGE", 0))
    if max_age <= 0:
        return
    fixup = next((f for f in getattr(app, "_fixups", ())
                  if hasattr(f, "worker_fixup")), None)
    if fixup is not None:
        # Stop the fixup's unconditional close; Django's age and health rules apply.
        fixup.worker_fixup.close_database = lambda **_: None
    persistent_connections(max_age)
    signals.task_prerun.connect(between_tasks, weak=False, dispatch_uid="gm-db-prerun")
    signals.task_postrun.connect(between_tasks, weak=False, dispatch_uid="gm-db-postrun")
