"""A resolved turn wakes ONE notify task carrying all its events (issue 14): the
report, then the next turn's orders request or the game over. Events that stand alone
(a game started, a held turn released while the game is paused, the next turn opened
on resume) still wake their own, and every mail is the one the event always sent."""

from __future__ import annotations

from gm.mail import tasks
from gm.mail.models import Kind, Outbox
from gm.play.models import Game, Notice, Turn, TurnRecord
from gm.referee import actions as referee

from .publications import play_turn, record


def kinds_to(address: str) -> list[str]:
    return list(Outbox.objects.filter(to=address).order_by("pk").values_list("kind", flat=True))


def test_a_resolution_that_opens_the_next_turn_wakes_one_task(tally_game, on_commit,
                                                             monkeypatch, mailoutbox):
    notify = record(monkeypatch, tasks.notify)
    play_turn(tally_game, on_commit)
    record_1 = TurnRecord.objects.get(game=tally_game, number=1)
    turn_2 = Turn.objects.get(game=tally_game, number=2)
    assert notify == [([[Notice.Kind.TURN_PUBLISHED, record_1.pk],
                        [Notice.Kind.TURN_OPENED, turn_2.pk]],)]
    # both notices composed, in the event order: report first, then the next turn
    for address in ("alice@example.org", "bob@example.org"):
        assert kinds_to(address) == [Kind.TURN_OPENED, Kind.REPORT, Kind.TURN_OPENED]
    subjects = [m.subject for m in mailoutbox if m.to == ["alice@example.org"]]
    assert subjects[-2:] == ["[Test tally] report for turn 1",
                             "[Test tally] turn 2: your orders, seat P1"]
    assert not Notice.objects.filter(game=tally_game, handled__isnull=True).exists()


def test_the_last_resolution_wakes_one_task_for_report_and_game_over(make_game, on_commit,
                                                                    monkeypatch, mailoutbox):
    game = make_game("tally", 2, options={"max_turns": 1}, title="Short")
    notify = record(monkeypatch, tasks.notify)
    play_turn(game, on_commit)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    last = TurnRecord.objects.get(game=game, number=1)
    assert notify == [([[Notice.Kind.TURN_PUBLISHED, last.pk],
                        [Notice.Kind.GAME_FINISHED, game.pk]],)]
    assert sorted(m.subject for m in mailoutbox if m.to == ["bob@example.org"]) == [
        "[Short] game over", "[Short] report for turn 1", "[Short] turn 1: your orders, seat P2"]


def test_a_started_game_wakes_one_task_for_its_first_turn(make_game, monkeypatch):
    notify = record(monkeypatch, tasks.notify)
    game = make_game("tally", 2)
    assert notify == [([[Notice.Kind.TURN_OPENED, game.current_turn().pk]],)]
    assert Outbox.objects.filter(kind=Kind.TURN_OPENED).count() == 2


def test_standalone_events_wake_their_own_task(tally_game, gm_user, on_commit, monkeypatch,
                                               mailoutbox):
    """Held for review, the game paused, the turn released: the report is published with
    no next turn (the game is paused); resuming opens turn 2 on its own."""
    referee.set_hold(tally_game, gm_user, "review", True)
    play_turn(tally_game, on_commit)
    assert Turn.objects.get(game=tally_game, number=1).status == Turn.Status.HELD
    referee.pause(tally_game, gm_user, "a break")
    notify = record(monkeypatch, tasks.notify)
    with on_commit():
        record_1 = referee.release(tally_game, gm_user, "fine")
    assert notify == [([[Notice.Kind.TURN_PUBLISHED, record_1.pk]],)]
    assert Outbox.objects.filter(kind=Kind.REPORT).count() == 2
    with on_commit():
        referee.resume(Game.objects.get(pk=tally_game.pk), gm_user, "back")
    turn_2 = Turn.objects.get(game=tally_game, number=2)
    assert notify[1:] == [([[Notice.Kind.TURN_OPENED, turn_2.pk]],)]
    assert Outbox.objects.filter(kind=Kind.TURN_OPENED, turn=turn_2).count() == 2


def test_a_task_queued_in_the_older_one_event_form_still_runs(tally_game, on_commit):
    """notify(kind, object id): messages a previous version left in the queue."""
    turn = tally_game.current_turn()
    Outbox.objects.all().delete()
    with on_commit():
        tasks.notify.apply(args=(Notice.Kind.TURN_OPENED, turn.pk)).get()
    assert Outbox.objects.filter(kind=Kind.TURN_OPENED, turn=turn).count() == 2
