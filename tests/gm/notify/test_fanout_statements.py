"""Fanning one event out costs the same statements for 20 readers as for 200, whatever
their settings: the readers (settings, zones) in one read, personal webhooks in one, the
notifications, mails and webhook deliveries each in one INSERT (SQLite splits a long
INSERT into chunks of its variable limit: counted apart)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gm.mail.models import Outbox
from gm.notify import budget, notes
from gm.notify.models import Notification, Settings, Webhook, WebhookDelivery


def _readers(n: int, prefix: str) -> list[int]:
    User = get_user_model()
    User.objects.bulk_create([User(username=f"{prefix}{i}", email=f"{prefix}{i}@e.org")
                              for i in range(n)])
    users = list(User.objects.filter(username__startswith=prefix).order_by("pk"))
    for i, user in enumerate(users):
        if i % 4 == 1:
            Settings.objects.create(user=user, mode="digest")
        elif i % 4 == 2:
            Settings.objects.create(user=user, channel="webhook")
            Webhook.objects.create(owner=user, url="https://example.org/h")
    return [u.pk for u in users]


def _statements(ids: list[int], key: str) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        notes.fan_out(ids, lambda pk: budget.Event("vacation", key, "Table: away", None))
    return [q["sql"] for q in ctx.captured_queries
            if not (q["sql"].startswith("INSERT") and connection.vendor == "sqlite")]


def test_fan_out_is_constant_in_readers(db):
    small, large = _statements(_readers(20, "s"), "a"), _statements(_readers(200, "l"), "b")
    assert len(small) == len(large), (small, large)
    assert Notification.objects.filter(key="b").count() == 200
    assert Outbox.objects.filter(key__startswith="notify:b:").count() == 100  # defaults
    assert WebhookDelivery.objects.filter(key="b").count() == 50
