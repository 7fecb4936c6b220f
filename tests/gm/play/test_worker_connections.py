"""Worker processes keep their database connection between tasks (gm/celery.py), and
still drop one that is old, broken or left inside a transaction, as Django does between
requests. Celery's Django fixup alone closes the connection around every task."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from celery import signals
from django.db import connection

from gm import celery as gm_celery

pytestmark = pytest.mark.django_db(transaction=True)


class Task:
    """Stands in for a task as the signals' sender (hashable, like a real task)."""

    def __init__(self, eager: bool) -> None:
        self.request = SimpleNamespace(is_eager=eager)


TASK = Task(eager=False)


@pytest.fixture
def worker(monkeypatch, settings):
    """Turn this process into what `celery worker` makes of it: the Django fixup's task
    hooks, then gm.celery's worker_init handler; all undone afterwards."""
    for conf in settings.DATABASES.values():  # restored after the test
        monkeypatch.setitem(conf, "CONN_MAX_AGE", conf.get("CONN_MAX_AGE", 0))
        monkeypatch.setitem(conf, "CONN_HEALTH_CHECKS", conf.get("CONN_HEALTH_CHECKS", False))
    fixup = next(f for f in gm_celery.app._fixups if hasattr(f, "worker_fixup"))
    hooks = fixup.worker_fixup
    closes: list[str] = []
    real_close = connection.close

    def spy() -> None:
        closes.append("close")
        real_close()

    def start(max_age: int) -> list[str]:
        settings.GM_WORKER_CONN_MAX_AGE = max_age
        hooks.install()
        gm_celery._worker_connections()
        connection.ensure_connection()
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            # close() is a no-op on the in-memory test database, so the connection was
            # not reopened: apply what connect() reads from the settings by hand.
            connection.close_at = time.monotonic() + max_age if max_age else None
            connection.health_check_enabled = bool(max_age)
        monkeypatch.setattr(connection, "close", spy)
        return closes

    yield start
    hooks.__dict__.pop("close_database", None)
    signals.task_prerun.disconnect(hooks.on_task_prerun)
    signals.task_postrun.disconnect(hooks.on_task_postrun)
    signals.worker_process_init.disconnect(hooks.on_worker_process_init)
    signals.beat_embedded_init.disconnect(hooks.close_database)
    signals.task_prerun.disconnect(dispatch_uid="gm-db-prerun")
    signals.task_postrun.disconnect(dispatch_uid="gm-db-postrun")


def run_task(body=lambda: None) -> None:
    """What the worker does around a task: the prerun signal, the task, postrun."""
    signals.task_prerun.send(sender=TASK, task_id="t", task=TASK)
    with connection.cursor() as cur:
        cur.execute("SELECT 1")
    body()
    signals.task_postrun.send(sender=TASK, task_id="t", task=TASK)


def test_without_persistent_connections_every_task_closes_its_connection(worker):
    closes = worker(0)
    run_task()
    assert closes == ["close", "close"]  # before and after: the fixup's default


def test_a_worker_keeps_its_connection_across_tasks_health_checked(worker, settings):
    closes = worker(300)
    for conf in settings.DATABASES.values():
        assert (conf["CONN_MAX_AGE"], conf["CONN_HEALTH_CHECKS"]) == (300, True)
    for _ in range(3):
        run_task()
        assert connection.health_check_enabled and not connection.health_check_done
    assert closes == []


def _broken(monkeypatch) -> None:
    connection.errors_occurred = True
    monkeypatch.setattr(connection, "is_usable", lambda: False)


def _old(monkeypatch) -> None:
    connection.close_at = time.monotonic() - 1


def _left_in_a_transaction(monkeypatch) -> None:
    connection.set_autocommit(False)


@pytest.mark.parametrize(("case", "body"), [
    ("an error and the connection no longer answers", _broken),
    ("older than GM_WORKER_CONN_MAX_AGE", _old),
    ("a task left autocommit off (an unfinished transaction)", _left_in_a_transaction),
])
def test_a_connection_that_must_not_be_reused_is_closed_after_the_task(worker, monkeypatch,
                                                                       case, body):
    closes = worker(300)
    try:
        run_task(lambda: body(monkeypatch))
        assert closes, case
    finally:
        if connection.connection is not None and not connection.get_autocommit():
            connection.rollback()
            connection.set_autocommit(True)


def test_an_error_on_a_usable_connection_keeps_it(worker):
    closes = worker(300)
    run_task(lambda: setattr(connection, "errors_occurred", True))
    assert closes == [] and connection.errors_occurred is False


def test_eager_tasks_leave_the_callers_connection_alone(worker):
    closes = worker(300)
    connection.close_at = time.monotonic() - 1  # would be closed by a worker
    eager = Task(eager=True)
    signals.task_postrun.send(sender=eager, task_id="t", task=eager)
    assert closes == []
