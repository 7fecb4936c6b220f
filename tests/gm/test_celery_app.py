"""The Celery app's configuration source (gm.celery).

Per-message costs were cut (issue 14) without changing what Celery does: the settings it
reads are Django's CELERY_* settings, read once; the transports are kombu's own.
"""

from __future__ import annotations

import kombu
from django.conf import settings

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


def test_broker_urls_use_kombus_own_transports():
    """gm.broker (a patched Redis transport) was removed after bench/broker.py measured
    it against stock kombu: Redis and RabbitMQ URLs get kombu's own transports."""
    from kombu.transport import redis as kombu_redis

    conn = kombu.Connection("redis://127.0.0.1:6379/9")
    assert type(conn.transport) is kombu_redis.Transport
    assert type(app.connection_for_write("redis://127.0.0.1:6379/9").transport) \
        is kombu_redis.Transport


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
