"""The delivery's wake-up goes out as the notify task's does (gm.broker.publish_direct):
Celery's own message on Redis, `delay` wherever the direct path does not apply (eager
mode, the tests here; a failed direct send). The message comparison needs a Redis broker
(GM_TEST_SERVICES=1, GM_TEST_BROKER_URL)."""

from __future__ import annotations

import base64
import json
import os

import pytest
from celery.app.task import Task
from django.conf import settings

from gm.mail import outbox
from gm.mail import tasks as mail_tasks

from .publications import record


def test_eager_mode_wakes_the_delivery_through_delay(db, monkeypatch):
    calls = record(monkeypatch, mail_tasks.deliver)
    monkeypatch.setattr(outbox, "publish_direct", lambda task, args, kwargs: None)
    outbox._queue([1, 2])
    assert calls == [([1, 2],)]


def test_a_direct_send_is_not_sent_again_through_delay(db, monkeypatch):
    calls = record(monkeypatch, mail_tasks.deliver)
    sent = []
    monkeypatch.setattr(outbox, "publish_direct",
                        lambda task, args, kwargs: sent.append((task, args)) or object())
    outbox._queue([3])
    assert calls == [] and sent == [(mail_tasks.deliver._get_current_object(), ([3],))]


def test_a_failed_direct_send_goes_through_delay(db, monkeypatch):
    calls = record(monkeypatch, mail_tasks.deliver)

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(outbox, "publish_direct", down)
    outbox._queue([4])
    assert calls == [([4],)]


def test_a_broker_that_is_down_leaves_the_rows_to_the_periodic_job(db, monkeypatch, caplog):
    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(outbox, "publish_direct", down)
    monkeypatch.setattr(mail_tasks.deliver, "delay", down)
    outbox._queue([4])  # no exception: deliver_pending sends the rows later
    assert "could not queue mail" in caplog.text


@pytest.fixture
def redis_broker(transactional_db):
    from gm.celery import app

    url = os.environ.get("GM_TEST_BROKER_URL", "redis://127.0.0.1:6379/7")
    if not url.startswith("redis"):
        pytest.skip("the direct path is Redis's")
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url")}
    app.conf.update(task_always_eager=False, broker_url=url)
    app._pool = None
    app.amqp._producer_pool = None
    yield app
    app.conf.update(saved)
    app._pool = None
    app.amqp._producer_pool = None


def _taken(app, queue: str) -> list[dict]:
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        raw = client.lrange(queue, 0, -1)
        client.delete(queue)
    return [json.loads(m) for m in reversed(raw)]


@pytest.mark.services
def test_the_direct_wakeup_is_the_message_celery_sends(redis_broker):
    app = redis_broker
    deliver = mail_tasks.deliver._get_current_object()
    queue = settings.CELERY_MAIL_QUEUE
    _taken(app, queue)
    Task.delay(deliver, [5, 6])  # Celery's own path
    outbox._queue([5, 6])
    celery_msg, direct_msg = _taken(app, queue)
    parts = []
    for message in (celery_msg, direct_msg):
        headers, props = dict(message["headers"]), dict(message["properties"])
        task_id = headers.pop("id")
        assert props.pop("correlation_id") == task_id
        assert headers.pop("root_id") == task_id  # no parent task here: its own id
        props.pop("delivery_tag")
        body = json.loads(base64.b64decode(message["body"]))
        rest = {k: v for k, v in message.items() if k not in ("properties", "headers",
                                                              "body")}
        parts.append((headers, props, body, rest))
    assert parts[0] == parts[1]
    assert parts[1][0]["argsrepr"] == repr(([5, 6],)) and parts[1][2][0] == [[5, 6]]
