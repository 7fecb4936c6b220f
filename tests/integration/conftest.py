"""Integration fixtures: the test process sends tasks to a real broker; workers are real."""

from __future__ import annotations

import os
import urllib.parse

import pytest
from django.db import connection

from .stack import BROKER_URL, Worker, purge_broker


def _configured_name() -> str:
    """The database DATABASE_URL names (the project's own), "" without one."""
    return urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "")).path.lstrip("/")


@pytest.fixture(scope="session", autouse=True)
def _no_stray_sessions(django_db_setup, django_db_blocker):
    """Before the test database is dropped, end the sessions that killed workers and
    finished threads left behind (PostgreSQL will not drop a database in use).

    Only in a test database pytest-django created: a session none of whose tests uses
    the database gets none, and the connection still names DATABASE_URL's database (a
    helper's that does not exist: "database gm_<name> does not exist" at teardown; a
    developer's or a CI pass's that does: every other session on it ended)."""
    yield
    if connection.vendor != "postgresql" or \
            connection.settings_dict["NAME"] in ("", "postgres", _configured_name()):
        return
    with django_db_blocker.unblock(), connection.cursor() as cur:
        cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture
def real_broker(transactional_db, settings):
    """Switch this process from eager tasks to the real broker for one test."""
    if connection.vendor != "postgresql":
        pytest.skip("integration tests run on PostgreSQL (set DATABASE_URL)")
    from gm.celery import app

    settings.GM_RESOLVE_LEASE_SECONDS = 3  # the sweep re-queues abandoned claims quickly
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url")}
    app.conf.update(task_always_eager=False, broker_url=BROKER_URL,
                    broker_transport_options={"visibility_timeout": 5})
    app._pool = None  # connection pools built earlier in this process used the old settings
    app.amqp._producer_pool = None
    purge_broker()
    yield app
    purge_broker()
    app.conf.update(saved)
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def workers(real_broker, tmp_path):
    started: list[Worker] = []

    def start(name: str = "w1", concurrency: int = 1, *, queues: str = "gm",
              env: dict[str, str] | None = None) -> Worker:
        worker = Worker(f"{name}-{len(started)}", tmp_path, concurrency, queues=queues,
                        env=env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()
    with connection.cursor() as cur:  # backends of killed workers must not outlive the test
        cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")
