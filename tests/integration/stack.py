"""Real processes for integration tests: Celery workers on PostgreSQL + Redis/RabbitMQ."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BROKER_URL = os.environ.get("GM_TEST_BROKER_URL", "redis://127.0.0.1:6379/7")


def database_url() -> str:
    """The URL of the test database pytest-django created (workers must use the same)."""
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    auth = user + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def worker_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url(), "CELERY_BROKER_URL": BROKER_URL,
                "DJANGO_SETTINGS_MODULE": "gm.settings", "CELERY_VISIBILITY_TIMEOUT": "5",
                "GM_RESOLVE_LEASE_SECONDS": "3", "PYTHONUNBUFFERED": "1"})
    env.update(extra)
    return env


class Worker:
    """A `celery worker` subprocess; `kill()` sends SIGKILL to the whole process group."""

    def __init__(self, name: str, log_dir: Path, concurrency: int = 1) -> None:
        self.log = open(log_dir / f"{name}.log", "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "gm", "worker", "-l", "info", "-Q", "gm",
             "-n", f"{name}@%h", "-c", str(concurrency), "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=worker_env(), stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


def wait_for(predicate: Callable[[], bool], timeout: float = 60.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")


def purge_broker() -> None:
    from gm.celery import app

    app.control.purge()
