"""The sweep's publication on a real broker (issue 14): due turns and near deadlines go out
in pipelined batches on Redis, one by one on RabbitMQ, as the same messages as before.

Run with GM_TEST_SERVICES=1, DATABASE_URL=postgres://... and GM_TEST_BROKER_URL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from kombu.transport import redis as kombu_redis

from gm.play import actions, sweep, tasks
from gm.play.models import Game, Turn

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _games(gm_user, players, n: int) -> list[Turn]:
    turns = []
    for i in range(n):
        game = actions.create_game(gm_user, ruleset="combat_dice", title=f"Batch {i}",
                                   process_early=False)
        for user in players[:2]:
            actions.join_game(game, user)
        turns.append(actions.start_game(game, gm_user).current_turn())
    return turns


def _drain(app, queue: str) -> list:
    """Every message waiting in `queue` (taken off it)."""
    messages = []
    with app.connection_for_read() as conn:
        simple = conn.SimpleQueue(queue, no_ack=True)
        try:
            while True:
                try:
                    messages.append(simple.get(timeout=1))
                except simple.Empty:
                    return messages
        finally:
            simple.close()


def test_due_turns_and_deadlines_go_out_in_batches_as_the_same_messages(
        real_broker, gm_user, players, monkeypatch, settings):
    app = real_broker
    settings.GM_DEADLINE_LOOKAHEAD_SECONDS = 600
    turns = _games(gm_user, players, 5)
    _drain(app, settings.CELERY_TASK_DEFAULT_QUEUE)  # the games' own start-up messages
    now = timezone.now()
    due, near = turns[:3], turns[3:]
    Turn.objects.filter(pk__in=[t.pk for t in due]).update(deadline=now - timedelta(seconds=1))
    Turn.objects.filter(pk__in=[t.pk for t in near]).update(
        deadline=now + timedelta(seconds=300), queued_for=None)
    flushes: list[int] = []
    real_flush = kombu_redis.PublishBatch.flush

    def flush(self) -> None:
        flushes.append(self._buffered)
        real_flush(self)

    monkeypatch.setattr(kombu_redis.PublishBatch, "flush", flush)
    monkeypatch.setattr(sweep, "PUBLISH_BATCH", 2)
    claimed = actions.sweep_deadlines(now)
    assert claimed == sorted(t.pk for t in due)

    # what a plain apply_async sends, to compare the format with
    tasks.resolve_turn.apply_async((0,))
    messages = _drain(app, settings.CELERY_TASK_DEFAULT_QUEUE)
    reference = messages.pop()
    assert reference.headers["argsrepr"] == "(0,)"
    by_task: dict[str, list] = {}
    for message in messages:
        assert set(message.headers) == set(reference.headers)
        assert message.delivery_info["routing_key"] == reference.delivery_info["routing_key"]
        by_task.setdefault(message.headers["task"], []).append(message)
    resolves = by_task.pop(tasks.resolve_turn.name)
    assert sorted(m.payload[0][0] for m in resolves) == claimed
    assert all(m.headers["argsrepr"] == repr(tuple(m.payload[0])) for m in resolves)
    timed = by_task.pop(tasks.resolve_at_deadline.name)
    assert sorted((m.payload[0][0], m.headers["eta"]) for m in timed) == sorted(
        (t.pk, Turn.objects.get(pk=t.pk).deadline.isoformat()) for t in near)
    assert by_task == {}
    if app.conf.broker_url.startswith("redis"):
        # 5 messages, 2 commands a pipeline: 3 round trips, not 5
        assert [n for n in flushes if n] == [2, 2, 1]
    assert Game.objects.count() == 5
