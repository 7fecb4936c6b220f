"""Notification tests: a fresh schedule memory per test (ids are reused after rollback),
and helpers to set a person's settings and time zone."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_schedules():
    from gm.notify import schedule, webhooks

    schedule.forget()
    webhooks.forget()
    yield
    schedule.forget()
    webhooks.forget()


@pytest.fixture
def set_prefs(db):
    """set_prefs(user, zone="", **settings): the person's notification settings."""
    from gm.accounts.timezones import set_zone
    from gm.notify.models import Settings

    def apply(user, zone: str = "", **fields):
        if zone:
            set_zone(user, zone)
        s, _ = Settings.objects.update_or_create(user=user, defaults=fields)
        return s
    return apply


class Receiver:
    """A local HTTP endpoint recording every POST (body, headers); `fail` answers 500
    to the next that many posts."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.posts: list[tuple[bytes, dict[str, str]]] = []
        self.fail = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if receiver.fail > 0:
                    receiver.fail -= 1
                    self.send_response(500)
                else:
                    receiver.posts.append((body, dict(self.headers)))
                    self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def bodies(self) -> list[dict]:
        import json
        return [json.loads(body) for body, _ in self.posts]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.GM_NOTIFY_WEBHOOK_ALLOW_HTTP_LOCAL = True
    r = Receiver()
    yield r
    r.close()
