"""Provider webhooks (Mailgun, Postmark, SES, SendGrid, ... via django-anymail).

Anymail verifies the provider's signature and turns its payload into a message; this
receiver hands the raw MIME to the one pipeline. An exception propagates, so the
webhook answers 500 and the provider retries; the Message-ID record makes the retry a
no-op once the first delivery was committed.
"""

from __future__ import annotations

from typing import Any

from . import inbound
from .mime import Envelope


def on_inbound(sender, event, esp_name: str, **kwargs: Any) -> None:
    message = event.message
    raw = message.as_bytes()
    rcpt = getattr(message, "envelope_recipient", None)
    envelope = Envelope(recipients=[rcpt] if rcpt else [],
                        sender=getattr(message, "envelope_sender", None))
    inbound.process(raw, envelope=envelope, transport=f"webhook:{esp_name}"[:16])
