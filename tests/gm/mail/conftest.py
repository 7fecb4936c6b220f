"""Fixtures for mail tests: a started tally game with seat helpers, and an SMTP sink."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from gm.mail import inbound
from gm.mail.mime import Envelope


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Sink:
    """What an aiosmtpd server received: (envelope sender, recipients, parsed message)."""

    messages: list[tuple[str, list[str], EmailMessage]] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)  # the bytes as they came over SMTP
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content or envelope.content
        msg = message_from_bytes(data, policy=policy.default)
        with self.lock:
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), msg))
            self.raw.append(data)
        return "250 OK"

    def to(self, addr: str) -> list[EmailMessage]:
        with self.lock:
            return [m for _f, rcpts, m in self.messages if addr in rcpts]


@pytest.fixture
def smtp_sink(settings):
    """A real SMTP server in-process; Django's SMTP backend pointed at it."""
    sink = Sink()
    port = free_port()
    ctrl = Controller(sink, hostname="127.0.0.1", port=port)
    ctrl.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    yield sink
    ctrl.stop()


@pytest.fixture(autouse=True)
def mail_settings(settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    settings.GM_MAIL_LOCALPART = "play"
    settings.DEFAULT_FROM_EMAIL = "gm@gm.example"
    settings.SITE_URL = "http://gm.example"
    settings.GM_MAIL_AUTHSERV_ID = "mx.gm.example"  # our MTA's Authentication-Results
    return settings


@pytest.fixture
def tally_game(make_game):
    """A started two-seat tally game (alice = P1, bob = P2), turn 1 open."""
    return make_game("tally", 2, turn_hours=48)


@pytest.fixture
def feed(on_commit):
    """feed(raw, **kw) -> Result: the pipeline with on-commit work (mail) executed."""
    def run(raw: bytes, *, rcpt: list[str] | None = None, sender: str | None = None,
            transport: str = "pipe"):
        with on_commit():
            return inbound.process(raw, envelope=Envelope(rcpt or [], sender),
                                   transport=transport)
    return run


def seat(game, name: str):
    return game.seats.select_related("user").get(name=name)
