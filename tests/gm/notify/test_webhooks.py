"""Webhooks against a local HTTP receiver: signed (HMAC-SHA256 over the timestamp and the
body), retried with backoff on a 500, switched off after N failures with a notice to the
owner, HTTPS only, and never carrying another seat's secrets."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from gm.mail.models import Outbox
from gm.notify import budget, webhooks
from gm.notify.models import Notification, Webhook, WebhookDelivery


def _event(n: int = 1) -> budget.Event:
    return budget.Event("report", f"report:{n}", f"Table: the report for turn {n} is out", 7,
                        "/games/7/")


def test_the_signature_checks_and_refuses_a_replay(receiver, gm_user):
    hook = Webhook.objects.create(owner=gm_user, url=receiver.url)
    webhooks.enqueue([(hook, "k1", webhooks.payload(_event(), personal=True))], timezone.now())
    assert webhooks.send_due() == 1
    (body, headers), = receiver.posts
    header = {k.lower(): v for k, v in headers.items()}[webhooks.SIGNATURE_HEADER.lower()]
    assert webhooks.verify(hook.secret, body, header)
    assert not webhooks.verify("another secret", body, header)
    assert not webhooks.verify(hook.secret, body + b" ", header)
    stamp = int(header.split(",")[0][2:])
    assert not webhooks.verify(hook.secret, body, header, now=stamp + 3600)  # replayed later
    assert json.loads(body)["text"] == "Table: the report for turn 1 is out"


@pytest.mark.parametrize("fmt,field", [("discord", "content"), ("slack", "text"),
                                       ("generic", "event")])
def test_formats(receiver, gm_user, fmt, field):
    hook = Webhook.objects.create(owner=gm_user, url=receiver.url, format=fmt)
    webhooks.enqueue([(hook, "k", webhooks.payload(_event(), personal=False))], timezone.now())
    webhooks.send_due()
    (body,) = receiver.bodies()
    assert field in body and "/games/7/" in json.dumps(body)


def test_retries_on_500_with_backoff(receiver, gm_user):
    hook = Webhook.objects.create(owner=gm_user, url=receiver.url)
    receiver.fail = 2
    now = timezone.now()
    webhooks.enqueue([(hook, "k", webhooks.payload(_event(), personal=True))], now)
    assert webhooks.send_due(now) == 0
    delivery = WebhookDelivery.objects.get()
    assert delivery.attempts == 1 and delivery.next_try >= now + timedelta(seconds=30)
    assert webhooks.send_due(now + timedelta(seconds=10)) == 0  # not yet due
    assert webhooks.send_due(now + timedelta(seconds=31)) == 0  # second 500
    assert WebhookDelivery.objects.get().next_try >= now + timedelta(seconds=31 + 60)
    assert webhooks.send_due(now + timedelta(minutes=5)) == 1
    assert len(receiver.posts) == 1
    assert WebhookDelivery.objects.get().status == "sent"
    assert Webhook.objects.get().failures == 0  # a success resets the count


def test_disabled_after_n_failures_and_the_owner_told(receiver, gm_user, settings):
    settings.GM_NOTIFY_WEBHOOK_MAX_FAILURES = 3
    hook = Webhook.objects.create(owner=gm_user, url=receiver.url)
    receiver.fail = 100
    now = timezone.now()
    webhooks.enqueue([(hook, f"k{i}", webhooks.payload(_event(i), personal=True))
                      for i in range(5)], now)
    for minute in range(0, 200, 10):
        webhooks.send_due(now + timedelta(minutes=minute))
    hook.refresh_from_db()
    assert not hook.enabled and hook.failures == 3
    assert "disabled after 3" in hook.disabled_reason
    (notice,) = Outbox.objects.filter(user=gm_user, kind="notice")
    assert "switched off" in notice.body_text and receiver.url in notice.body_text
    assert Notification.objects.filter(user=gm_user, kind="webhook_disabled").count() == 1
    assert receiver.posts == []  # nothing more is tried on a disabled hook
    receiver.fail = 0
    webhooks.send_due(now + timedelta(hours=5))
    assert receiver.posts == []


def test_https_only(gm_user, settings):
    settings.GM_NOTIFY_WEBHOOK_ALLOW_HTTP_LOCAL = False
    assert webhooks.url_problem("http://127.0.0.1:9/hook")
    assert webhooks.url_problem("http://example.org/hook")
    assert webhooks.url_problem("ftp://example.org/") and not webhooks.url_problem(
        "https://example.org/hook")


def test_no_secrets_reach_a_webhook(make_game, players, gm_user, set_prefs, receiver,
                                    play_defaults, tally_engine):
    """A game webhook gets public wording only; a personal one that person's notices: no
    reply address, no token, no game secret, no seat's secret die."""
    alice = players[0]
    set_prefs(alice, channel="webhook")
    Webhook.objects.create(owner=alice, url=receiver.url)
    game = make_game("tally", 2, options={"max_turns": 2, "target": 100})
    Webhook.objects.create(owner=gm_user, game=game, url=receiver.url)
    play_defaults(game)
    play_defaults(game)
    game.refresh_from_db()
    assert game.status == "finished" and receiver.posts
    raw = b"\n".join(body for body, _ in receiver.posts).decode()
    secrets = [game.secret, game.secret_sha256]
    for seat in game.seats.all():
        secrets += [seat.reply_address, seat.reply_address.split("@")[0].split("+")[-1]]
    assert all(s and s not in raw for s in secrets)
    assert "secret" not in raw and "@" not in raw
    personal = [b for b in receiver.bodies() if b["personal"]]
    assert personal and all(b["game"] == game.pk for b in personal)
