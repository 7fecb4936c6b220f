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
- Redis: kombu's Redis channel built a new redis-py client for each of those messages;
  gm.broker's channel keeps one per connection pool (registered below under kombu's
  `redis`/`rediss` names, so URLs and log lines stay the same). RabbitMQ is unchanged.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals
from kombu import transport as kombu_transport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

for _scheme in ("redis", "rediss"):
    kombu_transport.TRANSPORT_ALIASES[_scheme] = "gm.broker:Transport"
    kombu_transport._transport_cache.pop(_scheme, None)

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
    signals.task_prerun.connect(between_tasks, weak=False, dispatch_uid="gm-db-prerun")
    signals.task_postrun.connect(between_tasks, weak=False, dispatch_uid="gm-db-postrun")
