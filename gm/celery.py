"""The Celery app. Without CELERY_BROKER_URL tasks run eagerly, in-process.

Database connections in worker processes: Celery's Django fixup closes every connection
before and after each task, so each task paid for a new PostgreSQL connection (several
ms of CPU on both sides; more than the work of a no-op task). A worker process instead
keeps its connections for GM_WORKER_CONN_MAX_AGE seconds, the way Django keeps them
across requests: before and after every task `close_old_connections` closes a connection
that is past its age, broken (errors_occurred and not usable) or left outside autocommit,
and the first query of the next task checks it (CONN_HEALTH_CHECKS), so a database
restart costs one reconnect, not a failed task; unless the connection came through the
previous task under a second ago and nothing has arrived on its socket since, which a
restart would have sent (`before_task`: the check's `SELECT 1` was a round trip per
turn). GM_WORKER_CONN_MAX_AGE=0 restores a connection per task.

Per-task costs of Celery itself (the worker receives, acks and publishes for every turn;
the sweep publishes for every due turn):

- Configuration: Celery looks a setting up in its changes, then in the configuration
  source, then in its defaults, under the prefixed and the plain name. With Django's
  settings object as the source every miss is an AttributeError from LazySettings: about
  20 us per lookup, several lookups per message. The source here is a plain dict of the
  CELERY_* settings, read from Django's settings when Celery configures itself (the first
  time the app's configuration is used), so a lookup is a few dict probes; the few
  settings read for every message are copied into the first map, where a lookup costs
  one probe. Changes made at run time go through `app.conf.update` as before (the tests
  do). Together: 7 lookups a message at about 3.7 us instead of 18.6 us.
- The broker: stock kombu on Redis or RabbitMQ. (A patched Redis transport that kept one
  redis-py client per pool saved about 0.2 ms of worker CPU per message; measured against
  stock kombu in bench/broker.py, it was removed: see bench/README.md.)
"""

from __future__ import annotations

import os
import select
import time
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("gm")
# Filled from Django's settings when Celery configures itself (see the module docstring).
celery_settings: dict[str, Any] = {}


@app.on_configure.connect
def _read_django_settings(sender: Any = None, **kwargs: Any) -> None:
    from django.conf import settings

    celery_settings.clear()
    celery_settings.update({name: getattr(settings, name) for name in dir(settings)
                            if name.startswith("CELERY_")})


app.config_from_object(celery_settings, namespace="CELERY")
# Read for every message sent or run; as changes they are found at the first map's second
# probe instead of after a miss in every map (see the module docstring).
HOT_SETTINGS = ("task_always_eager", "task_repr_maxlevels", "task_default_queue",
                "task_send_sent_event", "broker_pool_acquire_timeout")


@app.on_after_configure.connect
def _hot_settings(sender: Any = None, source: Any = None, **kwargs: Any) -> None:
    source.update({key: source[key] for key in HOT_SETTINGS})
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


# A connection that came through a task without a fault, moments ago, and has received
# nothing since is taken as healthy by the next task: Django's health check is a
# `SELECT 1` round trip before every task's first query (a busy worker paid it on every
# turn, on a connection it had used a millisecond before). What the check is for still
# holds: a database that restarts or goes away closes the connection's socket (or sends
# its termination notice down it), which makes the socket readable; a readable socket,
# or a connection idle for longer than this, is checked the usual way, so a database
# restart still costs one reconnect, not a failed task.
RECENTLY_HEALTHY_SECONDS = 1.0
_fine: dict[str, tuple[Any, float]] = {}  # alias -> (the DB-API connection, when it was)


def _quiet(raw: Any) -> bool:
    """Nothing has arrived on the connection's socket (no EOF, error or message)."""
    try:
        poller = select.poll()
        poller.register(raw.fileno(), select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except (AttributeError, OSError, ValueError):  # no socket (SQLite), or closed
        return False


def before_task(sender: Any = None, **kwargs: Any) -> None:
    """task_prerun: Django's per-request rules, then vouch for a connection that was
    fine moments ago and is quiet (see RECENTLY_HEALTHY_SECONDS) instead of checking it
    with a round trip."""
    between_tasks(sender, **kwargs)
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import connections

    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        raw, at = _fine.get(conn.alias, (None, 0.0))
        if (conn.connection is not None and conn.connection is raw
                and conn.health_check_enabled and not conn.health_check_done
                and now - at < RECENTLY_HEALTHY_SECONDS and _quiet(raw)):
            conn.health_check_done = True


def after_task(sender: Any = None, **kwargs: Any) -> None:
    """task_postrun: Django's per-request rules; a connection they keep is fine now."""
    between_tasks(sender, **kwargs)
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import connections

    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and not conn.errors_occurred:
            _fine[conn.alias] = (conn.connection, now)
        else:
            _fine.pop(conn.alias, None)


@signals.worker_init.connect
def _load_engines(**kwargs: Any) -> None:
    """Import every rules engine as the worker starts, not in its first task.

    The registry imports the engines on first use: about 0.3 s of CPU (0.7 s under a
    profiler) spent inside whichever task came first, which made the first turn after a
    start slow and was counted in the worker's busy time. Here it happens before the
    worker takes messages (and, with the prefork pool, once in the parent, before its
    children fork).
    """
    from games.core import registry

    registry.engines()


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
    signals.task_prerun.connect(before_task, weak=False, dispatch_uid="gm-db-prerun")
    signals.task_postrun.connect(after_task, weak=False, dispatch_uid="gm-db-postrun")
