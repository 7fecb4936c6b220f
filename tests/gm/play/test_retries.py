"""How the service rides out outages: resolve retries spread over minutes, mail apart.

Issue 17: resolve tasks used all their retries within 17 s of a 30 s database outage,
and mail shared the resolving queue with no timeout.
"""

from __future__ import annotations

import pytest
from celery.utils.time import get_exponential_backoff_interval
from django.conf import settings
from django.db import OperationalError

from gm.celery import app
from gm.play import tasks


def _schedule(task) -> list[float]:
    return [get_exponential_backoff_interval(factor=task.retry_backoff, retries=n,
                                             maximum=task.retry_backoff_max,
                                             full_jitter=task.retry_jitter)
            for n in range(task.max_retries)]


def test_resolve_retries_back_off_over_minutes():
    task = tasks.resolve_turn
    assert OperationalError in task.autoretry_for
    waits = _schedule(task)
    assert waits[0] >= 15  # a blip of seconds is not worth hammering the database
    assert sum(waits[:3]) >= 60  # a 30 s outage costs at most two tries
    assert sum(waits) >= 30 * 60  # the task keeps trying for half an hour and more
    assert max(waits) <= 600  # never more than 10 min between tries


@pytest.mark.parametrize("task", ["gm.mail.tasks.deliver", "gm.mail.tasks.notify",
                                  "gm.mail.tasks.deliver_pending",
                                  "gm.mail.tasks.send_reminders"])
def test_mail_never_shares_the_turn_queue(task):
    route = app.amqp.router.route({}, task)
    assert route["queue"].name == settings.CELERY_MAIL_QUEUE
    assert settings.CELERY_MAIL_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    assert app.amqp.router.route({}, "gm.play.tasks.resolve_turn")["queue"].name == \
        settings.CELERY_TASK_DEFAULT_QUEUE


def test_every_outbound_connection_has_a_timeout():
    assert 0 < settings.EMAIL_TIMEOUT <= 60
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert 0 < options["socket_timeout"] <= 60 and 0 < options["socket_connect_timeout"] <= 10
    assert settings.CELERY_BROKER_CONNECTION_MAX_RETRIES is None  # workers never give up
    assert settings.CELERY_TASK_PUBLISH_RETRY_POLICY["max_retries"] <= 3
