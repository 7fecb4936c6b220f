"""A worker's health check between tasks (gm/celery.py `before_task`): a connection that
came through the previous task moments ago and has heard nothing since is used without
Django's `SELECT 1`; one the database dropped, or one idle for longer, is checked, and a
dropped one is replaced before the task's first query, not failed by it.

PostgreSQL only (a socket to watch; SQLite's checks are local calls).
"""

from __future__ import annotations

import select
import time

import psycopg
import pytest
from django.db import connection

from gm import celery as gm_celery

from .test_worker_connections import run_task, worker  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def checks(worker, monkeypatch):  # noqa: F811 - the imported fixture
    if connection.vendor != "postgresql":
        pytest.skip("health checks of a socket: PostgreSQL (set DATABASE_URL)")
    worker(300)
    calls: list[bool] = []
    real = connection.is_usable

    def is_usable() -> bool:
        calls.append(ok := real())
        return ok

    monkeypatch.setattr(connection, "is_usable", is_usable)
    gm_celery._fine.clear()
    run_task()  # connected before any task: checked by the first one, as always
    assert calls == [True]
    calls.clear()
    return calls


def test_back_to_back_tasks_skip_the_round_trip(checks):
    run_task()
    run_task()
    assert checks == []


def test_a_connection_idle_past_the_window_is_checked(checks, monkeypatch):
    monkeypatch.setattr(gm_celery, "RECENTLY_HEALTHY_SECONDS", 0.0)
    run_task()
    assert checks == [True]


def test_a_connection_the_database_dropped_is_replaced_not_failed(checks):
    pid = connection.connection.info.backend_pid
    fd = connection.connection.fileno()
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"] or "127.0.0.1", port=settings["PORT"] or 5432,
                         user=settings["USER"], password=settings["PASSWORD"],
                         dbname=settings["NAME"], autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    assert select.select([fd], [], [], 10)[0], "the termination never reached the socket"
    before = connection.connection
    run_task()  # its first query runs on a new connection
    assert checks == [False]
    assert connection.connection is not None and connection.connection is not before


def test_a_connection_from_another_task_is_not_vouched_for(checks):
    connection.close()  # e.g. closed by its age: the next one is new, and fresh
    run_task()
    assert checks == []
    gm_celery._fine["default"] = (object(), time.monotonic())  # not this connection
    connection.health_check_done = False
    gm_celery.before_task(sender=None)
    assert not connection.health_check_done
