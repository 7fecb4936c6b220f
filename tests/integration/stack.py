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

    def __init__(self, name: str, log_dir: Path, concurrency: int = 1, *,
                 queues: str = "gm", env: dict[str, str] | None = None) -> None:
        self.path = log_dir / f"{name}.log"
        self.log = open(self.path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "gm", "worker", "-l", "info", "-Q", queues,
             "-n", f"{name}@%h", "-c", str(concurrency), "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=worker_env(**(env or {})), stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        self.log.flush()
        return self.path.read_text(errors="replace")

    def settled(self) -> bool:
        """Every task this worker logged as received has ended (succeeded, raised,
        retried, rejected): what it was handed has run, however slow the machine."""
        import re

        log = self.output()
        received = set(re.findall(r"\] Task [\w.]+\[([^\]]+)\] received", log))
        ended = set(re.findall(r"\] Task [\w.]+\[([^\]]+)\] (?:succeeded|raised|retry|"
                               r"rejected)", log))
        return received <= ended

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


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """A redis-server of the test's own (no persistence), to stop and start as a fault:
    the shared broker other tests and helpers use is never touched."""

    def __init__(self, log_dir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.log_dir = log_dir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        log = open(self.log_dir / f"redis-{self.port}.log", "a")  # noqa: SIM115
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
        log.close()
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        wait_for(lambda: _pings(client), 10, "the private redis-server to answer")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except Exception:
        return False


def use_broker(url: str) -> None:
    """Point this process's Celery app at another broker (pools rebuilt)."""
    from gm.celery import app

    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None


class TcpProxy:
    """Forwards TCP to `target`; `freeze()` stops the flow both ways with every socket
    kept open (a peer that went silent: what a process sends is held, never delivered),
    `cut()` then closes them, dropping what was held; `thaw()` lets it flow again.
    `cut(refuse=True)` also refuses new connections until `restore()` (the host gone
    away, not only its connections). Only the connections made through it are affected:
    the service behind it is shared."""

    def __init__(self, host: str, port: int) -> None:
        import socket
        import threading

        self.target = (host, port)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.flowing = threading.Event()
        self.flowing.set()
        self.closed = False
        self.refusing = False
        self.socks: list = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """`url` (of the target) pointed at the proxy instead."""
        import urllib.parse

        parts = urllib.parse.urlsplit(url)
        netloc = parts.netloc.rsplit("@", 1)
        netloc[-1] = f"127.0.0.1:{self.port}"
        return urllib.parse.urlunsplit(parts._replace(netloc="@".join(netloc)))

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            self.socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src, dst) -> None:
        import contextlib

        try:
            while data := src.recv(65536):
                while not self.flowing.wait(0.1):
                    if self.closed:
                        return  # what was held is dropped
                if self.closed:
                    return
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(2)

    def freeze(self) -> None:
        self.flowing.clear()

    def thaw(self) -> None:
        self.flowing.set()

    def cut(self, refuse: bool = False) -> None:
        import contextlib

        self.refusing = self.refusing or refuse
        self.closed = True
        for s in self.socks:
            with contextlib.suppress(OSError):
                s.shutdown(2)
            with contextlib.suppress(OSError):
                s.close()
        self.socks = []
        self.closed = False  # new connections flow again (the frozen ones are gone)
        self.flowing.set()

    def restore(self) -> None:
        """New connections are accepted again after `cut(refuse=True)`."""
        self.refusing = False

    def close(self) -> None:
        self.closed = True
        self.server.close()
        self.cut()
        self.closed = True
