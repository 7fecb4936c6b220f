"""The set-based sweep (gm.play.sweep): one statement claims a batch, each turn once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gm.play import actions, sweep, tasks
from gm.play.models import Turn

pytestmark = pytest.mark.django_db


def _games(make_game, n: int) -> list[Turn]:
    return [make_game("combat_dice", 2, title=f"g{i}").current_turn() for i in range(n)]


def test_one_statement_claims_every_due_turn_and_nothing_else(make_game, monkeypatch):
    due, later, aside = _games(make_game, 5), _games(make_game, 2), _games(make_game, 1)
    now = timezone.now()
    Turn.objects.filter(pk__in=[t.pk for t in due + aside]).update(
        deadline=now - timedelta(seconds=1))
    Turn.objects.filter(pk__in=[t.pk for t in aside]).update(superseded=True)
    queued: list[int] = []
    monkeypatch.setattr(sweep, "publish_resolves", lambda ids, timed=(): queued.extend(ids))
    with CaptureQueriesContext(connection) as ctx:
        claimed = sweep.sweep(now)
    assert claimed == sorted(t.pk for t in due) == sorted(queued)
    # one UPDATE for the due turns, one for the stale claims: not one per turn
    assert [q["sql"].split()[0] for q in ctx.captured_queries] == ["UPDATE", "UPDATE"]
    statuses = dict(Turn.objects.values_list("pk", "status"))
    assert {statuses[t.pk] for t in due} == {Turn.Status.DUE}
    assert {statuses[t.pk] for t in later + aside} == {Turn.Status.OPEN}
    assert sweep.sweep(now) == []  # claimed once


def test_batches_and_stale_claims(make_game, monkeypatch, settings):
    settings.GM_RESOLVE_LEASE_SECONDS = 60
    turns = _games(make_game, 5)
    now = timezone.now()
    Turn.objects.update(deadline=now - timedelta(seconds=1))
    monkeypatch.setattr(sweep, "BATCH", 2)
    monkeypatch.setattr(sweep, "publish_resolves", lambda ids, timed=(): None)
    assert sweep.sweep(now) == sorted(t.pk for t in turns)  # three batches: 2, 2, 1
    assert sweep.sweep(now + timedelta(seconds=30)) == []  # lease not over
    stale = sweep.sweep(now + timedelta(seconds=61))
    assert stale == sorted(t.pk for t in turns)  # lease over: re-queued, still DUE
    assert set(Turn.objects.values_list("status", flat=True)) == {Turn.Status.DUE}


def test_published_after_commit_over_one_producer(make_game, monkeypatch, on_commit):
    turns = _games(make_game, 3)
    Turn.objects.update(deadline=timezone.now() - timedelta(seconds=1))
    sent: list[int] = []
    monkeypatch.setattr(tasks.resolve_turn, "delay", lambda pk: sent.append(pk))
    with on_commit():
        claimed = sweep.sweep(timezone.now())
        assert sent == []  # nothing leaves before the claims are committed
    assert sent == claimed == sorted(t.pk for t in turns)


def test_deadlines_coming_near_are_queued_for_the_deadline(make_game, monkeypatch,
                                                          settings):
    settings.GM_DEADLINE_LOOKAHEAD_SECONDS = 60
    settings.GM_SWEEP_SECONDS = 5
    near, inside, far, past = _games(make_game, 4)
    now = timezone.now()
    for turn, seconds in ((near, 55), (inside, 30), (far, 300), (past, -1)):
        Turn.objects.filter(pk=turn.pk).update(deadline=now + timedelta(seconds=seconds))
    timed: list = []
    monkeypatch.setattr(sweep, "_eager", lambda: False)
    monkeypatch.setattr(sweep, "publish_resolves",
                        lambda ids, at=(): timed.extend(at))
    assert sweep.sweep(now) == [past.pk]
    # every open deadline within the lookahead that is not queued yet, for that deadline
    assert timed == [(t.pk, Turn.objects.get(pk=t.pk).deadline) for t in (near, inside)]
    timed.clear()
    sweep.schedule_deadline(Turn.objects.get(pk=inside.pk))  # already queued: not again
    sweep.schedule_deadline(Turn.objects.get(pk=far.pk))  # too far: the sweep will
    assert timed == []
    Turn.objects.filter(pk=far.pk).update(deadline=now + timedelta(seconds=20))
    sweep.schedule_deadline(Turn.objects.get(pk=far.pk))  # what open_turn calls
    assert timed == [(far.pk, Turn.objects.get(pk=far.pk).deadline)]


@pytest.mark.parametrize(("case", "sweeps", "queued"), [
    # (what happens, sweeps run at these seconds from now, turns queued by each sweep)
    ("queued once however many sweeps see it", [0, 5, 10, 15], [["a"], [], [], []]),
    ("a deadline the GM moves is queued again", [0, "move a +40", 5, 10],
     [["a"], [], ["a"], []]),
    ("moved beyond the lookahead: queued when near again", [0, "move a +100", 5, 50],
     [["a"], [], [], ["a"]]),
    ("moved back to the deadline it was queued for: that task still stands",
     [0, "move a +40", "move a +30", 5], [["a"], [], [], []]),
])
def test_each_deadline_is_queued_once(make_game, monkeypatch, settings, case, sweeps,
                                      queued):
    settings.GM_DEADLINE_LOOKAHEAD_SECONDS = 60
    a, b = _games(make_game, 2)
    names = {a.pk: "a", b.pk: "b"}
    start = timezone.now()
    Turn.objects.filter(pk=a.pk).update(deadline=start + timedelta(seconds=30))
    Turn.objects.filter(pk=b.pk).update(deadline=start + timedelta(hours=2))
    monkeypatch.setattr(sweep, "_eager", lambda: False)
    got: list[list[str]] = []

    def publish(ids, at=()):
        got[-1].extend(names[pk] for pk, deadline in at)
        assert all(Turn.objects.get(pk=pk).queued_for == deadline for pk, deadline in at)

    monkeypatch.setattr(sweep, "publish_resolves", publish)
    for step in sweeps:
        got.append([])
        if isinstance(step, str):  # the GM moves the deadline
            _, _, offset = step.split()
            Turn.objects.filter(pk=a.pk).update(
                deadline=start + timedelta(seconds=int(offset)))
        else:
            assert sweep.sweep(start + timedelta(seconds=step)) == []
    assert got == queued, case


def test_a_lost_message_is_resolved_by_the_sweep_one_interval_late(make_game, monkeypatch,
                                                                    settings):
    """The timed task never arrives (broker restarted, publish failed): the turn stays
    OPEN and queued, and the first sweep after the deadline claims it."""
    settings.GM_DEADLINE_LOOKAHEAD_SECONDS = 60
    settings.GM_SWEEP_SECONDS = 5
    turn = _games(make_game, 1)[0]
    start = timezone.now()
    deadline = start + timedelta(seconds=30)
    Turn.objects.filter(pk=turn.pk).update(deadline=deadline)
    monkeypatch.setattr(sweep, "_eager", lambda: False)
    claimed: list[int] = []
    timed: list = []

    def lose(ids, at=()):  # the publish "succeeds", and the message is lost
        claimed.extend(ids)
        timed.extend(at)

    monkeypatch.setattr(sweep, "publish_resolves", lose)
    assert sweep.sweep(start) == [] and [pk for pk, _ in timed] == [turn.pk]
    assert Turn.objects.get(pk=turn.pk).queued_for == deadline
    assert sweep.sweep(deadline - timedelta(seconds=1)) == []  # not due yet
    late = deadline + timedelta(seconds=settings.GM_SWEEP_SECONDS)
    assert sweep.sweep(late) == [turn.pk] == claimed  # the backstop: one interval late
    row = Turn.objects.get(pk=turn.pk)
    assert (row.status, row.claimed_at) == (Turn.Status.DUE, late)
    assert actions.resolve_at_deadline(turn.pk) is True  # the resolve task it queued
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED


def test_a_timed_task_arriving_early_is_queued_again_for_its_deadline(make_game,
                                                                      monkeypatch):
    turn = _games(make_game, 1)[0]
    monkeypatch.setattr(sweep, "_eager", lambda: False)
    timed: list = []
    monkeypatch.setattr(sweep, "publish_resolves", lambda ids, at=(): timed.extend(at))
    soon = timezone.now() + timedelta(seconds=2)
    Turn.objects.filter(pk=turn.pk).update(deadline=soon, queued_for=soon)
    assert actions.resolve_at_deadline(turn.pk, soon.isoformat()) is False
    assert timed == [(turn.pk, soon)]  # the same deadline, though it is marked queued
    timed.clear()
    # a task for a deadline the GM has moved since (the new one is queued already): no-op
    earlier = soon - timedelta(seconds=1)
    assert actions.resolve_at_deadline(turn.pk, earlier.isoformat()) is False
    assert timed == []
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN


def test_the_deadline_task_claims_and_resolves_once(make_game, monkeypatch):
    turn = _games(make_game, 1)[0]
    monkeypatch.setattr(sweep, "_eager", lambda: False)
    timed: list = []
    monkeypatch.setattr(sweep, "publish_resolves", lambda ids, at=(): timed.extend(at))
    # early (clock skew) or a deadline the GM moved: nothing claimed, queued again if near
    soon = timezone.now() + timedelta(seconds=20)
    Turn.objects.filter(pk=turn.pk).update(deadline=soon)
    assert actions.resolve_at_deadline(turn.pk) is False
    assert timed == [(turn.pk, soon)]
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert actions.resolve_at_deadline(turn.pk) is True
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED
    assert actions.resolve_at_deadline(turn.pk) is False  # a second delivery does nothing
    Turn.objects.filter(pk=turn.pk).update(superseded=True)
    assert actions.resolve_at_deadline(turn.pk) is False


def test_a_set_aside_turn_is_not_resolved_at_its_deadline(make_game):
    turn = _games(make_game, 1)[0]
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1),
                                           superseded=True)
    assert actions.resolve_at_deadline(turn.pk) is False
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN


def test_the_deadline_task_resolves_a_turn_claimed_but_not_resolved(make_game):
    turn = _games(make_game, 1)[0]
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.DUE,
                                           deadline=timezone.now() - timedelta(seconds=1))
    assert actions.resolve_at_deadline(turn.pk) is True  # the sweep's task then does nothing
    assert actions.resolve_at_deadline(turn.pk) is False
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED
