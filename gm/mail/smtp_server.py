"""A small SMTP listener (aiosmtpd) feeding the pipeline, for self-hosters and the
embedded default: any mail client or `swaks --server localhost:8025` can send orders.

It accepts mail only for our own domain (never relays), hands each message to
`inbound.process` in a worker thread (the ORM is synchronous), and answers 250 once the
outcome is committed, or 451 (try again later) when processing failed, so the sending
MTA keeps the message and retries.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Session
from aiosmtpd.smtp import Envelope as SmtpEnvelope
from django.conf import settings
from django.db import close_old_connections

from . import inbound
from .mime import Envelope

log = logging.getLogger(__name__)


class InboundHandler:
    async def handle_RCPT(self, server: SMTP, session: Session, envelope: SmtpEnvelope,
                          address: str, rcpt_options: list[str]) -> str:
        domain = getattr(settings, "GM_MAIL_DOMAIN", "localhost").lower()
        if not address.lower().endswith("@" + domain):
            return "550 5.7.1 not a mailbox of this server (no relaying)"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session,
                          envelope: SmtpEnvelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        env = Envelope(recipients=list(envelope.rcpt_tos), sender=envelope.mail_from)
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(None, _process, raw, env)
        except Exception:
            log.exception("inbound SMTP message could not be processed")
            return "451 4.3.0 temporary failure, try again later"
        return f"250 2.0.0 {result.outcome}"


def _process(raw: bytes, env: Envelope) -> inbound.Result:
    close_old_connections()
    try:
        return inbound.process(raw, envelope=env, transport="smtp")
    finally:
        close_old_connections()


def controller(host: str = "127.0.0.1", port: int = 8025, **kwargs: Any) -> Controller:
    """A started-on-demand aiosmtpd controller (call .start() / .stop())."""
    limit = int(getattr(settings, "GM_MAIL_MAX_BYTES", 256 * 1024))
    return Controller(InboundHandler(), hostname=host, port=port,
                      data_size_limit=max(limit * 8, 10 * 1024 * 1024),
                      decode_data=False, **kwargs)
