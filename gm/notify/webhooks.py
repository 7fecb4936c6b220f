"""Webhooks: payloads (Discord, Slack, generic JSON), HMAC-SHA256 signatures with a
timestamp, and the outbox they are sent from, with retries, backoff and a cut-off.

A payload is built from the notification's own one-line text and link only: the same
wording the reader sees on the page, never a reply address, token, game secret or another
seat's view. A game's webhook receives public events only (`kinds.PUBLIC`).

Signature: header `X-GM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
"<t>.<body>")>`; a receiver recomputes it and refuses a timestamp older than a few
minutes (replay). `verify` is the reference implementation.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.utils import timezone

from gm import wakeups

from .models import Webhook, WebhookDelivery

log = logging.getLogger(__name__)
SIGNATURE_HEADER = "X-GM-Signature"


def max_failures() -> int:
    return int(getattr(settings, "GM_NOTIFY_WEBHOOK_MAX_FAILURES", 5))


def url_problem(url: str) -> str:
    """Why a webhook URL is refused, or "": HTTPS only (plain HTTP to the loopback only
    when GM_NOTIFY_WEBHOOK_ALLOW_HTTP_LOCAL is set, for tests and local development)."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return ""
    if (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
            and getattr(settings, "GM_NOTIFY_WEBHOOK_ALLOW_HTTP_LOCAL", False)):
        return ""
    return "a webhook URL must start with https://"


def payload(event: Any, *, personal: bool) -> dict[str, Any]:
    """The generic JSON of an event; formats are applied when sending."""
    return {"event": event.kind, "game": event.game_id, "text": event.text,
            "url": event.url, "needs_action": bool(event.needs_action),
            "urgent": bool(event.urgent), "personal": personal}


def formatted(fmt: str, body: dict[str, Any]) -> dict[str, Any]:
    line = body["text"] + (f" {body['url']}" if body.get("url") else "")
    if fmt == Webhook.Format.DISCORD:
        return {"content": line[:2000], "allowed_mentions": {"parse": []}}
    if fmt == Webhook.Format.SLACK:
        return {"text": line}
    return body


def sign(secret: str, body: bytes, at: int) -> str:
    mac = hmac.new(secret.encode(), f"{at}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={at},v1={mac}"


def verify(secret: str, body: bytes, header: str, now: float | None = None,
           tolerance: int = 300) -> bool:
    """A receiver's check: the signature matches and the timestamp is recent."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        at = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((now if now is not None else time.time()) - at) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, body, at), header)


def enqueue(posts: list[tuple[Webhook, str, dict[str, Any]]], now: datetime) -> None:
    """Write deliveries (one INSERT; a (webhook, key) is posted once, ever) and wake the
    sender after commit."""
    WebhookDelivery.objects.bulk_create(
        [WebhookDelivery(webhook=hook, key=key[:200], body=body, next_try=now)
         for hook, key, body in posts], ignore_conflicts=True)
    transaction.on_commit(_wake, robust=True)


def _wake() -> None:
    try:  # by name: gm.notify.tasks imports this module (gm/wakeups.py)
        wakeups.task("gm.notify.tasks.send_webhooks").delay()
    except Exception:  # the broker is down: the tick sends them
        log.warning("could not queue webhook delivery; the tick will", exc_info=True)


# Which games have webhooks, kept per process for a few seconds: every turn's signals
# ask (in the turn worker, after its commit), and almost no game has one, so the answer
# is mostly "none" and costs no statement. A change in this process clears it at once.
_games: dict[str, Any] = {"at": None, "ids": frozenset()}


def forget(*args: Any, **kwargs: Any) -> None:
    _games["at"] = None


def _games_with_hooks() -> frozenset[int]:
    ttl = float(getattr(settings, "GM_NOTIFY_SCHEDULE_TTL", 30.0))
    if _games["at"] is None or time.monotonic() - _games["at"] > ttl:
        _games["ids"] = frozenset(Webhook.objects.filter(game__isnull=False, enabled=True)
                                  .values_list("game_id", flat=True))
        _games["at"] = time.monotonic()
    return _games["ids"]


def game_event(game_id: int, event: Any, now: datetime | None = None) -> int:
    """Post a public event to the game's webhooks; returns how many were queued."""
    if game_id not in _games_with_hooks():
        return 0
    hooks = list(Webhook.objects.filter(game_id=game_id, enabled=True))
    if hooks:
        enqueue([(h, event.key, payload(event, personal=False)) for h in hooks],
                now or timezone.now())
    return len(hooks)


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


def post(hook: Webhook, body: dict[str, Any], *, at: int | None = None) -> None:
    """POST one payload (raises on any failure: a non-2xx answer, a timeout)."""
    problem = url_problem(hook.url)
    if problem:
        raise ValueError(problem)
    data = json.dumps(formatted(hook.format, body), separators=(",", ":")).encode()
    stamp = int(at if at is not None else time.time())
    request = urllib.request.Request(hook.url, data=data, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "gm-notify/1",
        SIGNATURE_HEADER: sign(hook.secret, data, stamp)})
    timeout = float(getattr(settings, "GM_NOTIFY_WEBHOOK_TIMEOUT", 5.0))
    with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 (checked)
        if not 200 <= answer.status < 300:
            raise urllib.error.HTTPError(hook.url, answer.status, "not 2xx", answer.headers,
                                         None)


def send_due(now: datetime | None = None, limit: int = 100) -> int:
    """Send the deliveries that are due; returns how many were sent."""
    now = now or timezone.now()
    due = list(WebhookDelivery.objects.select_related("webhook")
               .filter(status=WebhookDelivery.Status.PENDING, next_try__lte=now,
                       webhook__enabled=True).order_by("next_try", "id")[:limit])
    sent = 0
    for delivery in due:
        # claim: move next_try forward so a concurrent sender skips it
        claimed = WebhookDelivery.objects.filter(
            pk=delivery.pk, status=WebhookDelivery.Status.PENDING,
            next_try=delivery.next_try).update(next_try=now + timedelta(minutes=5))
        if not claimed:
            continue
        hook = delivery.webhook
        try:
            post(hook, delivery.body)
        except Exception as exc:  # every failure counts the same: retry with backoff
            _failed(delivery, hook, exc, now)
            continue
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.SENT, attempts=F("attempts") + 1, last_error="")
        Webhook.objects.filter(pk=hook.pk).update(failures=0)
        sent += 1
    return sent


def _failed(delivery: WebhookDelivery, hook: Webhook, exc: Exception, now: datetime) -> None:
    attempts = delivery.attempts + 1
    error = f"{type(exc).__name__}: {exc}"[:300]
    give_up = attempts >= max_failures()
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=attempts, last_error=error, next_try=now + backoff(attempts),
        status=WebhookDelivery.Status.FAILED if give_up else WebhookDelivery.Status.PENDING)
    failures = hook.failures + 1
    Webhook.objects.filter(pk=hook.pk).update(failures=failures)
    hook.failures = failures
    if failures >= max_failures() and hook.enabled:
        disable(hook, f"disabled after {failures} failed deliveries (last: {error})")


# hook=Webhook, reason=str: a webhook was switched off; gm.notify.receivers tells its
# owner (through the budget, which itself posts to webhooks: so not from here)
disabled = Signal()


def disable(hook: Webhook, reason: str) -> None:
    """Switch a webhook off; its owner is told (the `disabled` signal)."""
    if not Webhook.objects.filter(pk=hook.pk, enabled=True).update(
            enabled=False, disabled_reason=reason[:200]):
        return
    hook.enabled = False
    forget()
    disabled.send(sender=Webhook, hook=hook, reason=reason)
