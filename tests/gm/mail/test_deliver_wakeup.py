"""The delivery's wake-up goes out as the notify task's does (gm.broker.publish_direct):
Celery's own message on Redis, `delay` wherever the direct path does not apply (eager
mode, the tests here; a failed direct send). The message itself is compared with
Celery's on a real Redis broker in tests/integration/test_direct_publish.py."""

from __future__ import annotations

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
