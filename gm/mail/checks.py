"""`manage.py check` for mail settings an operator must not get wrong silently.

* gm.E001: an inbound webhook is enabled (GM_MAIL_WEBHOOKS) without its secret; it
  refuses every post until it has one (`webhook_gate`).
* gm.W001 (with --deploy): GM_MAIL_AUTHSERV_ID is empty, so no Authentication-Results
  header is read and the From of an inbound mail is taken at its word: anyone who learns
  a seat's reply address can send orders or press as that seat (docs/security.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from . import webhook_gate


@checks.register(checks.Tags.security)
def webhooks_have_secrets(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    errors = []
    for provider in webhook_gate.enabled():
        why = webhook_gate.problem(provider)
        if why:
            errors.append(checks.Error(
                f"GM_MAIL_WEBHOOKS enables the {provider!r} inbound webhook, but {why}.",
                hint="Configure the provider's secret, or remove it from GM_MAIL_WEBHOOKS "
                     "(see docs/security.md).", id="gm.E001"))
    return errors


@checks.register(checks.Tags.security, deploy=True)
def mail_sender_is_authenticated(app_configs: Any = None,
                                 **kwargs: Any) -> list[checks.CheckMessage]:
    if getattr(settings, "GM_MAIL_AUTHSERV_ID", ""):
        return []
    return [checks.Warning(
        "GM_MAIL_AUTHSERV_ID is not set: the From of inbound mail is not checked, so "
        "anyone who knows a seat's reply address can send orders and press as that seat.",
        hint="Set it to the authserv-id your receiving mail server writes in its "
             "Authentication-Results headers (see docs/security.md).", id="gm.W001")]
