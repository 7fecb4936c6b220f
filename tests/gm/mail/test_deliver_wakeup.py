"""The delivery's wake-up: one `deliver` task per row or batch, and a broker that is down
leaves the rows to the periodic job (deliver_pending) instead of failing the caller."""

from __future__ import annotations

from gm.mail import outbox
from gm.mail import tasks as mail_tasks

from .publications import record


def test_a_batch_is_woken_by_one_deliver_task(db, monkeypatch):
    calls = record(monkeypatch, mail_tasks.deliver)
    outbox._queue([1, 2])
    assert calls == [([1, 2],)]


def test_a_broker_that_is_down_leaves_the_rows_to_the_periodic_job(db, monkeypatch, caplog):
    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(mail_tasks.deliver, "delay", down)
    outbox._queue([4])  # no exception: deliver_pending sends the rows later
    assert "could not queue mail" in caplog.text
