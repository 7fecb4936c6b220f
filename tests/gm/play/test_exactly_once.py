"""Exactly-once resolution on the embedded database (SQLite): the same guarantees the
PostgreSQL + real-worker tests in tests/integration check under real concurrency."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from gm.play import actions
from gm.play.errors import LateOrders
from gm.play.models import Turn, TurnRecord

pytestmark = pytest.mark.django_db


def _due(game) -> Turn:
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return turn


def test_duplicate_deliveries_resolve_once(make_game):
    game = make_game("tally", 2)
    turn = _due(game)
    assert actions.mark_due(turn)
    assert not actions.mark_due(turn)  # compare-and-set: second claim fails
    results = [actions.resolve_turn(turn.pk) for _ in range(50)]
    assert results.count(True) == 1
    assert TurnRecord.objects.filter(game=game, number=1).count() == 1
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED


def test_open_turn_is_not_resolved_by_a_stray_task(make_game):
    game = make_game("tally", 2)
    turn = game.current_turn()
    assert actions.resolve_turn(turn.pk) is False
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN


def test_two_sweeps_claim_each_turn_once(make_game, on_commit):
    games = [make_game("tally", 1, title=f"g{i}") for i in range(3)]
    turns = [_due(g) for g in games]
    with on_commit():
        first = actions.sweep_deadlines()
        second = actions.sweep_deadlines()
    assert sorted(first) == sorted(t.pk for t in turns) and second == []
    for g in games:
        assert TurnRecord.objects.filter(game=g, number=1).count() == 1


def test_a_failed_resolution_rolls_back_and_is_retried(make_game, monkeypatch):
    """A worker dying mid-resolution = an exception inside the transaction: nothing is
    written, the turn stays DUE, and the redelivered task resolves it once."""
    game = make_game("tally", 2)
    turn = _due(game)
    actions.mark_due(turn)
    real_publish = actions.publish

    def crash(record, **kwargs):
        raise RuntimeError("worker killed")

    monkeypatch.setattr(actions.turns, "publish", crash)  # what resolve_turn calls
    with pytest.raises(RuntimeError):
        actions.resolve_turn(turn.pk)
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.DUE
    assert not TurnRecord.objects.filter(game=game).exists()
    monkeypatch.setattr(actions.turns, "publish", real_publish)
    assert actions.resolve_turn(turn.pk) is True
    assert TurnRecord.objects.filter(game=game, number=1).count() == 1


def test_stale_claims_are_requeued(make_game, settings, on_commit):
    settings.GM_RESOLVE_LEASE_SECONDS = 60
    game = make_game("tally", 1)
    turn = _due(game)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.DUE,
                                           claimed_at=timezone.now() - timedelta(minutes=5))
    with on_commit():
        assert actions.sweep_deadlines() == [turn.pk]
    assert TurnRecord.objects.filter(game=game, number=1).count() == 1


def test_database_refuses_a_second_live_record(make_game, on_commit):
    game = make_game("tally", 1)
    with on_commit():
        actions.submit_orders(game, game.seats.get(), "ADD 1")
    record = TurnRecord.objects.get(game=game, number=1)
    other = Turn.objects.create(game=game, number=99, decision={}, superseded=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        TurnRecord.objects.create(
            game=game, turn=other, number=1, orders={}, draws=[], events=[],
            state_before={}, state_after={}, before_hash="x", after_hash="y")
    assert TurnRecord.objects.filter(game=game, number=1, superseded=False).get() == record


def test_orders_after_the_claim_are_late_never_dropped(make_game, players):
    game = make_game("tally", 2)
    seat = game.seat_of(players[0])
    turn = game.current_turn()
    actions.mark_due(turn)
    with pytest.raises(LateOrders, match="turn 1 closed before its deadline"):
        actions.submit_orders(game, seat, "ADD 2")
    assert turn.submissions.count() == 0
