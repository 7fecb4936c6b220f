"""The mail wake-up's direct publication on Redis (gm.broker.DirectPublish, issue 14):
the message is the one Celery's own `delay` sends (body, headers, properties, queue),
parent and root ids included; a failed direct send goes through Celery's path, once;
whatever the direct path does not cover (publish signals with receivers, RabbitMQ) is
sent by Celery as before.

Run with GM_TEST_SERVICES=1, DATABASE_URL=postgres://... and GM_TEST_BROKER_URL.
"""

from __future__ import annotations

import base64
import json

import pytest
from celery import signals
from celery._state import _task_stack
from celery.app.task import Task
from django.conf import settings

from gm import broker
from gm.mail import tasks as mail_tasks
from gm.play import tasks as play_tasks

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

EVENTS = [["turn_published", 12], ["turn_opened", 34]]


def _redis_or_skip(app) -> None:
    if not app.conf.broker_url.startswith("redis"):
        pytest.skip("the direct path is Redis's (other transports use Celery's path)")


def _taken(app, queue: str) -> list[dict]:
    """The raw messages waiting in `queue`, oldest first (taken off it)."""
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        raw = client.lrange(queue, 0, -1)
        client.delete(queue)
    return [json.loads(m) for m in reversed(raw)]


def _parts(message: dict) -> tuple:
    props = dict(message["properties"])
    tag = props.pop("delivery_tag")
    headers = dict(message["headers"])
    task_id = headers.pop("id")
    assert props.pop("correlation_id") == task_id and tag and tag != task_id
    body = json.loads(base64.b64decode(message["body"]))
    rest = {k: v for k, v in message.items() if k not in ("properties", "headers", "body")}
    return task_id, headers, props, body, rest


@pytest.fixture
def in_a_task():
    """As inside a worker's resolve_turn: the wake-up's parent and root ids."""
    parent = play_tasks.resolve_turn._get_current_object()
    parent.push_request(id="parent-1", root_id="root-1", is_eager=False,
                        called_directly=False)
    _task_stack.push(parent)
    yield parent
    _task_stack.pop()
    parent.pop_request()


def test_the_direct_message_is_the_one_celery_sends(real_broker, in_a_task):
    app = real_broker
    _redis_or_skip(app)
    notify = mail_tasks.notify._get_current_object()
    queue = settings.CELERY_MAIL_QUEUE
    _taken(app, queue)
    Task.delay(notify, EVENTS)  # Celery's own path
    result = mail_tasks.notify.delay(EVENTS)
    celery_msg, direct_msg = _taken(app, queue)
    c_id, c_headers, c_props, c_body, c_rest = _parts(celery_msg)
    d_id, d_headers, d_props, d_body, d_rest = _parts(direct_msg)
    assert result.id == d_id != c_id
    assert d_headers == c_headers
    assert d_headers["argsrepr"] == repr((EVENTS,))
    assert (d_headers["parent_id"], d_headers["root_id"]) == ("parent-1", "root-1")
    assert d_props == c_props
    assert d_props["delivery_info"] == {"exchange": "", "routing_key": queue}
    assert d_body == c_body == [[EVENTS], {}, d_body[2]]
    assert d_rest == c_rest
    # the parent's trail names both, as Celery's path does
    assert [r.id for r in in_a_task.request.children] == [c_id, d_id]


def test_the_delivery_wakeup_is_the_message_celery_sends(real_broker):
    """gm.mail.outbox wakes a batch's delivery by the same direct path (publish_direct)."""
    from gm.mail import outbox

    app = real_broker
    _redis_or_skip(app)
    deliver = mail_tasks.deliver._get_current_object()
    queue = settings.CELERY_MAIL_QUEUE
    _taken(app, queue)
    Task.delay(deliver, [5, 6])  # Celery's own path
    outbox._queue([5, 6])
    celery_msg, direct_msg = _taken(app, queue)
    c_id, c_headers, c_props, c_body, c_rest = _parts(celery_msg)
    d_id, d_headers, d_props, d_body, d_rest = _parts(direct_msg)
    assert d_id != c_id
    # no parent task here: each message is its own root
    assert (c_headers.pop("root_id"), d_headers.pop("root_id")) == (c_id, d_id)
    assert d_headers == c_headers and d_headers["argsrepr"] == repr(([5, 6],))
    assert d_props == c_props
    assert d_body == c_body and d_body[0] == [[5, 6]]
    assert d_rest == c_rest


def test_a_failed_direct_send_goes_through_celery_once(real_broker, monkeypatch):
    app = real_broker
    _redis_or_skip(app)
    queue = settings.CELERY_MAIL_QUEUE
    _taken(app, queue)
    failures = []
    real = broker.Channel.basic_publish

    def flaky(self, message, *args, **kwargs):
        if not failures:
            failures.append(message)
            raise ConnectionError("lost")
        return real(self, message, *args, **kwargs)

    monkeypatch.setattr(broker.Channel, "basic_publish", flaky)
    mail_tasks.notify.delay(EVENTS)
    mail_tasks.notify.delay(EVENTS)  # the next one takes a fresh producer, directly
    assert len(failures) == 1
    messages = _taken(app, queue)
    assert len(messages) == 2
    assert all(_parts(m)[3][0] == [EVENTS] for m in messages)


def test_publish_signal_receivers_get_celery_s_path(real_broker):
    app = real_broker
    queue = settings.CELERY_MAIL_QUEUE
    seen = []

    def receiver(sender=None, headers=None, **kwargs):
        seen.append((sender, headers["argsrepr"]))

    signals.before_task_publish.connect(receiver)
    try:
        mail_tasks.notify.delay(EVENTS)
    finally:
        signals.before_task_publish.disconnect(receiver)
    assert seen == [(mail_tasks.notify.name, repr((EVENTS,)))]
    if app.conf.broker_url.startswith("redis"):
        assert len(_taken(app, queue)) == 1
