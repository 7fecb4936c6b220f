"""Pause/resume keep the time that was left; extend and force move the clock."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from gm.play import actions as play
from gm.play.errors import ActionError, Conflict
from gm.play.models import Game, Turn
from gm.referee import actions

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def test_pause_and_resume_restore_the_remaining_time(race, gm_user):
    turn = race.current_turn()
    turn.deadline = T0 + timedelta(hours=10)
    turn.save()
    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        actions.pause(race, gm_user, "holiday")
    race.refresh_from_db()
    turn.refresh_from_db()
    assert race.status == Game.Status.PAUSED
    assert turn.status == Turn.Status.PAUSED
    assert race.paused_remaining == timedelta(hours=7)
    # A paused turn is never swept, however late it gets.
    assert play.sweep_deadlines(T0 + timedelta(days=30)) == []
    with time_machine.travel(T0 + timedelta(days=2), tick=False):
        actions.resume(race, gm_user, "back")
    race.refresh_from_db()
    turn.refresh_from_db()
    assert race.status == Game.Status.RUNNING
    assert race.paused_remaining is None
    assert turn.status == Turn.Status.OPEN
    assert turn.deadline == T0 + timedelta(days=2, hours=7)
    log = list(race.log.filter(action__in=["paused", "resumed"]).values_list("action", "reason"))
    assert log == [("paused", "holiday"), ("resumed", "back")]
    assert "7h00m left on turn 1" in race.log.get(action="paused").public


def test_pause_with_the_deadline_already_passed_leaves_zero(race, gm_user):
    turn = race.current_turn()
    actions.pause(race, gm_user, "late", now=turn.deadline + timedelta(minutes=5))
    race.refresh_from_db()
    assert race.paused_remaining == timedelta(0)
    actions.resume(race, gm_user, "go", now=T0)
    turn.refresh_from_db()
    assert turn.deadline == T0


def test_orders_are_refused_while_paused(race, gm_user, players):
    actions.pause(race, gm_user, "wait")
    with pytest.raises(Conflict, match="paused"):
        play.submit_orders(race, race.seats.get(name="P1"), "MOVE 1")


def test_resume_opens_the_next_turn_when_a_report_came_out_while_paused(
        race, gm_user, play_turn, on_commit):
    play_turn(race, {"P1": "MOVE 1"})
    actions.pause(race, gm_user, "pause mid-turn")  # P2 still owes; turn 1 paused
    race.refresh_from_db()
    # Force-publish path: the GM resumes, forces, the turn resolves while running.
    actions.resume(race, gm_user, "resume")
    with on_commit():
        actions.force_resolution(race, gm_user, "P2 is away")
    race.refresh_from_db()
    assert race.current_turn().number == 2
    assert race.records.get(number=1).defaulted == ["P2"]
    # Now a report published while paused: turn 2 resolves after the pause.
    turn2 = race.current_turn()
    with on_commit():
        play.submit_orders(race, race.seats.get(name="P1"), "MOVE 1")
        Turn.objects.filter(pk=turn2.pk).update(status=Turn.Status.DUE)
        Game.objects.filter(pk=race.pk).update(status=Game.Status.PAUSED)
        play.resolve_turn(turn2.pk)
    race.refresh_from_db()
    assert race.current_turn().number == 2  # publish did not open turn 3 while paused
    actions.resume(race, gm_user, "resume")
    assert race.current_turn().number == 3
    assert race.current_turn().status == Turn.Status.OPEN


def test_extend_moves_the_deadline_and_checks_it(race, gm_user):
    turn = race.current_turn()
    before = turn.deadline
    actions.extend_deadline(race, gm_user, "more time", hours=2, minutes=30)
    turn.refresh_from_db()
    assert turn.deadline == before + timedelta(hours=2, minutes=30)
    with pytest.raises(ActionError, match="positive"):
        actions.extend_deadline(race, gm_user, "x", hours=0)
    with pytest.raises(ActionError, match="not in the future"):
        actions.extend_deadline(race, gm_user, "x", until=T0 - timedelta(days=3650))
    exact = before + timedelta(days=30)
    actions.extend_deadline(race, gm_user, "exact", until=exact)
    turn.refresh_from_db()
    assert turn.deadline == exact


def test_extend_while_paused_adds_to_the_time_left(race, gm_user):
    turn = race.current_turn()
    actions.pause(race, gm_user, "p", now=turn.deadline - timedelta(hours=1))
    actions.extend_deadline(race, gm_user, "more", hours=5)
    race.refresh_from_db()
    assert race.paused_remaining == timedelta(hours=6)
    actions.resume(race, gm_user, "r", now=T0)
    turn.refresh_from_db()
    assert turn.deadline == T0 + timedelta(hours=6)


def test_force_resolves_now_with_defaults(race, gm_user, on_commit):
    with on_commit():
        play.submit_orders(race, race.seats.get(name="P1"), "MOVE 3")
        actions.force_resolution(race, gm_user, "P2 said go ahead")
    record = race.records.get(number=1)
    assert record.defaulted == ["P2"]
    assert record.orders["P1"]["text"] == "MOVE 3"
    assert "Default orders for: P2" in race.log.get(action="forced").public
    actions.pause(race, gm_user, "x")
    with pytest.raises(Conflict, match="only an open turn can be forced"):
        actions.force_resolution(race, gm_user, "paused turns wait")
    with pytest.raises(Conflict, match="only a running game can be paused"):
        actions.pause(race, gm_user, "again")


def test_a_reason_is_required(race, gm_user):
    with pytest.raises(ActionError, match="give a reason"):
        actions.pause(race, gm_user, "  ")


def test_extend_refuses_a_deadline_past_a_year_by_every_door(race, gm_user):
    """Huge hours or minutes from the desk's form, or a far `until` from the API, are an
    error the GM reads, never a 500, and never a deadline that breaks the game page."""
    from django.test import Client
    from rest_framework.test import APIClient

    turn = race.current_turn()
    before = turn.deadline
    with pytest.raises(ActionError, match="a year"):
        actions.extend_deadline(race, gm_user, "x", until=before + timedelta(days=400))
    with pytest.raises(ActionError, match="a year"):
        actions.extend_deadline(race, gm_user, "x", hours=10**30)
    web = Client()
    web.force_login(gm_user)
    for field in ("hours", "minutes"):
        resp = web.post(f"/games/{race.pk}/gm/do/extend/",
                        {field: "99999999999999999999", "reason": "typo"}, follow=True)
        assert resp.status_code == 200 and "a year" in resp.content.decode()
    api = APIClient()
    api.force_authenticate(gm_user)
    resp = api.post(f"/api/games/{race.pk}/gm/extend/",
                    {"until": "9999-12-31T23:59:59Z", "reason": "typo"}, format="json")
    assert resp.status_code == 400 and "a year" in resp.json()["detail"]
    turn.refresh_from_db()
    assert turn.deadline == before
    assert web.get(f"/games/{race.pk}/").status_code == 200
    # While paused, the time left is bounded the same way.
    actions.pause(race, gm_user, "p")
    with pytest.raises(ActionError, match="a year"):
        actions.extend_deadline(race, gm_user, "x", hours=24 * 400)
