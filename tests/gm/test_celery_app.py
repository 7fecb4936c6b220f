"""The Celery app's configuration source and its Redis transport (gm.celery, gm.broker).

Per-message costs were cut (issue 14) without changing what Celery does: the settings it
reads are Django's CELERY_* settings, and the Redis transport is kombu's, with one client
per connection pool instead of one per command.
"""

from __future__ import annotations

import kombu
import redis
from django.conf import settings

from gm import broker
from gm.celery import app


def test_the_app_reads_the_celery_settings_from_django():
    conf = app.conf
    assert conf.task_acks_late is settings.CELERY_TASK_ACKS_LATE is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert conf.task_default_queue == settings.CELERY_TASK_DEFAULT_QUEUE
    assert conf.task_routes == settings.CELERY_TASK_ROUTES
    assert conf.task_publish_retry_policy == settings.CELERY_TASK_PUBLISH_RETRY_POLICY
    assert conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE
    assert conf.task_serializer == "json"  # Celery's own default where we set nothing


def test_redis_urls_use_the_client_reusing_transport_and_keep_their_names():
    for url in ("redis://127.0.0.1:6379/9", "rediss://127.0.0.1:6380/9"):
        conn = kombu.Connection(url)
        assert isinstance(conn.transport, broker.Transport)
        assert conn.as_uri().startswith(url.split(":")[0] + "://")  # "Connected to redis://"
    assert not isinstance(kombu.Connection("amqp://guest@127.0.0.1//").transport,
                          broker.Transport)
    assert isinstance(app.connection_for_write("redis://127.0.0.1:6379/9").transport,
                      broker.Transport)


def _channel(url: str = "redis://127.0.0.1:6379/9") -> broker.Channel:
    """A channel with a pool and no connection (nothing here talks to Redis)."""
    channel = broker.Channel.__new__(broker.Channel)
    channel._pool = redis.ConnectionPool.from_url(url)
    channel.Client = redis.Redis
    channel._sentinel_manager = channel._async_sentinel_manager = None
    return channel


def test_one_command_client_per_connection_pool():
    channel = _channel()
    client = channel._create_client()
    assert client.connection_pool is channel.pool
    with channel.conn_or_acquire() as again:
        assert again is client  # publish, unacked bookkeeping, ack: the same client
    channel._disconnect_pools()  # kombu drops the pool when the connection goes
    channel._pool = redis.ConnectionPool.from_url("redis://127.0.0.1:6379/9")
    fresh = channel._create_client()
    assert fresh is not client and fresh.connection_pool is channel.pool


def test_settings_read_for_every_message_are_one_probe_and_still_changeable():
    from gm.celery import HOT_SETTINGS

    conf = app.conf
    for key in HOT_SETTINGS:
        assert key in conf.changes
    assert conf.task_default_queue == settings.CELERY_TASK_DEFAULT_QUEUE
    saved = conf.task_always_eager
    try:
        conf.update(task_always_eager=not saved)  # what the integration fixtures do
        assert conf.task_always_eager is (not saved)
    finally:
        conf.update(task_always_eager=saved)


def test_a_direct_argsrepr_is_what_saferepr_writes():
    """gm.broker.DirectPublish writes the argsrepr header with `repr` only where that is
    Celery's saferepr text; anything else is left to saferepr."""
    from celery.utils.saferepr import saferepr

    maxlevels, maxsize = app.conf.task_repr_maxlevels, app.amqp.argsrepr_maxsize
    plain = [(1,), ([["turn_published", 12], ["turn_opened", 34]],), ("",), (None, True),
             (-5, 10**30), ("a:b/c@d.e+f-g",), ([[1, 2]], [3])]
    for args in plain:
        assert broker.plain_repr(args, maxlevels, maxsize) == saferepr(
            args, maxsize, maxlevels=maxlevels)
    other = [([[[1]]],), ("é",), ("a'b",), ("a\\nb",), ("x" * 300,), ([1] * 600,),
             ({"a": 1},), (1.5,), (b"x",)]
    for args in other:
        assert broker.plain_repr(args, maxlevels, maxsize) is None
