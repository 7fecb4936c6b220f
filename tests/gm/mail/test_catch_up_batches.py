"""The periodic catch-up finds a resolution whose notify task was lost (broker down at
publish, or its queue emptied) and composes all of its events together, as the task
would have: one batch, one delivery task; a broken event does not hold up the rest."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from gm.mail import notices, tasks
from gm.mail.models import Kind, Outbox
from gm.play.models import Notice, Turn, TurnRecord

from .publications import play_turn, record


def _lose_notify(monkeypatch) -> None:
    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.notify, "delay", down)


def test_catch_up_recovers_a_lost_resolution_as_one_batch(tally_game, on_commit, monkeypatch,
                                                          mailoutbox):
    _lose_notify(monkeypatch)
    play_turn(tally_game, on_commit)  # the resolution commits; its wake-up is lost
    monkeypatch.undo()
    record_1 = TurnRecord.objects.get(game=tally_game, number=1)
    turn_2 = Turn.objects.get(game=tally_game, number=2)
    assert not Outbox.objects.filter(kind=Kind.REPORT).exists()
    pending = set(Notice.objects.filter(handled__isnull=True).values_list("kind", "object_id"))
    assert pending == {(Notice.Kind.TURN_PUBLISHED, record_1.pk),
                       (Notice.Kind.TURN_OPENED, turn_2.pk)}
    deliver = record(monkeypatch, tasks.deliver)
    with on_commit():
        assert notices.catch_up(now=timezone.now()) == 0  # younger than the grace period
        assert notices.catch_up(now=timezone.now() + timedelta(minutes=2)) == 2
    assert len(deliver) == 1 and len(deliver[0][0]) == 4  # both events, one batch
    assert Outbox.objects.filter(key__startswith=f"report:{record_1.pk}:").count() == 2
    assert Outbox.objects.filter(kind=Kind.TURN_OPENED, turn=turn_2).count() == 2
    assert not Notice.objects.filter(handled__isnull=True).exists()
    assert sum("report for turn 1" in m.subject for m in mailoutbox) == 2
    # run again (another beat, or the lost task arriving after all): nothing new
    with on_commit():
        assert notices.catch_up(now=timezone.now() + timedelta(minutes=5)) == 0
        tasks.notify.apply(args=([[Notice.Kind.TURN_PUBLISHED, record_1.pk],
                                  [Notice.Kind.TURN_OPENED, turn_2.pk]],)).get()
    assert sum("report for turn 1" in m.subject for m in mailoutbox) == 2
    assert len(deliver) == 1


def test_one_broken_event_does_not_hold_up_the_others(tally_game, on_commit, monkeypatch):
    _lose_notify(monkeypatch)
    play_turn(tally_game, on_commit)
    monkeypatch.undo()
    record_1 = TurnRecord.objects.get(game=tally_game, number=1)
    real = notices._COMPOSERS[Notice.Kind.TURN_OPENED]

    def broken(mailing, pk):
        raise RuntimeError("a notice that cannot be composed")

    monkeypatch.setitem(notices._COMPOSERS, Notice.Kind.TURN_OPENED, broken)
    with on_commit():
        assert notices.catch_up(now=timezone.now() + timedelta(minutes=2)) == 1
    assert Outbox.objects.filter(key__startswith=f"report:{record_1.pk}:").count() == 2
    assert set(Notice.objects.filter(handled__isnull=True).values_list("kind", flat=True)) == {
        Notice.Kind.TURN_OPENED}  # left for the next run
    monkeypatch.setitem(notices._COMPOSERS, Notice.Kind.TURN_OPENED, real)
    with on_commit():
        assert notices.catch_up(now=timezone.now() + timedelta(minutes=3)) == 1
    assert not Notice.objects.filter(handled__isnull=True).exists()
