"""Turns a GM set aside are never claimed or resolved; held turns show players nothing.

The race with real workers and PostgreSQL is tests/integration/test_faults.py; these
check each door on the embedded database.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.play import actions
from gm.play.models import Notice, Turn, TurnRecord
from gm.referee import actions as referee

pytestmark = pytest.mark.django_db


def _play(game, on_commit, texts=("ADD 1", "ADD 2")):
    for seat, text in zip(game.seats.order_by("id"), texts):
        with on_commit():
            actions.submit_orders(game, seat, text)
    game.refresh_from_db()


def test_set_aside_turns_cannot_be_claimed_or_resolved(make_game, gm_user, on_commit):
    game = make_game("tally", 2, options={"target": 100})
    _play(game, on_commit)
    _play(game, on_commit)  # turns 1 and 2 resolved, 3 open
    open3 = game.current_turn()
    with on_commit():
        referee.rollback_to(game, gm_user, "redo", 2)
    open3.refresh_from_db()
    assert open3.superseded and open3.status == Turn.Status.SET_ASIDE
    set_aside = Turn.objects.filter(game=game, superseded=True)
    assert set(set_aside.values_list("number", "status")) == {
        (2, Turn.Status.RESOLVED), (3, Turn.Status.SET_ASIDE)}
    # Every door: mark_due, the sweep, a stray resolve task (even if forced to DUE).
    assert actions.mark_due(open3) is False
    past = timezone.now() + timedelta(days=30)
    with on_commit():
        claimed = actions.sweep_deadlines(past)
    assert open3.pk not in claimed
    Turn.objects.filter(pk=open3.pk).update(status=Turn.Status.DUE)
    assert actions.resolve_turn(open3.pk) is False
    assert not TurnRecord.objects.filter(turn=open3).exists()
    live = list(Turn.objects.filter(game=game, superseded=False).order_by("number")
                .values_list("number", flat=True))
    assert live == list(range(1, len(live) + 1))  # contiguous, one per number


def test_a_held_turn_shows_players_the_last_published_state(make_game, gm_user, players,
                                                            on_commit):
    game = make_game("tally", 2, hold_for_review=True, options={"target": 100})
    p1, p2 = players[:2]
    before = {u: actions.view_for(game, u) for u in (p1, p2, None)}
    _play(game, on_commit, ("ADD 3", "ADD 3"))
    assert game.current_turn().status == Turn.Status.HELD
    game.refresh_from_db()
    assert game.state["totals"]["P1"] > 0  # resolved...
    from django.contrib.auth.models import AnonymousUser

    for user in (p1, p2):  # ...but players still see the state before the turn
        assert actions.view_for(game, user) == before[user]
        assert actions.game_summary(game, user)["view"] == before[user]
    assert actions.view_for(game, AnonymousUser()) == before[None]
    assert actions.view_for(game, gm_user)["totals"] == game.state["totals"]
    with on_commit():
        referee.release(game, gm_user, "fine")
    game.refresh_from_db()
    assert actions.view_for(game, p1)["totals"] == game.state["totals"]


def test_notices_are_written_with_the_turn(make_game, on_commit):
    game = make_game("tally", 2, options={"target": 100})
    turn1 = game.current_turn()
    assert Notice.objects.filter(kind=Notice.Kind.TURN_OPENED, object_id=turn1.pk).exists()
    _play(game, on_commit)
    record = TurnRecord.objects.get(game=game, number=1)
    kinds = set(Notice.objects.filter(game=game).values_list("kind", "object_id"))
    assert (Notice.Kind.TURN_PUBLISHED, record.pk) in kinds
    assert (Notice.Kind.TURN_OPENED, game.current_turn().pk) in kinds


def test_the_setup_page_shows_no_held_outcome(make_game, gm_user, players, on_commit):
    """The turn history's setup page (turn 0) has no published record to read while the
    first turn is held: it must show the setup state, not the held outcome."""
    import re

    from django.test import Client

    game = make_game("tally", 2, hold_for_review=True, options={"target": 100})
    client = Client()
    client.force_login(players[0])

    def page() -> str:
        body = client.get(f"/games/{game.pk}/turns/0/").content.decode()
        return re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', "", body)

    before = page()
    _play(game, on_commit, ("ADD 3", "ADD 3"))
    assert game.current_turn().status == Turn.Status.HELD
    assert page() == before
    gm_client = Client()
    gm_client.force_login(gm_user)
    assert gm_client.get(f"/games/{game.pk}/turns/0/").status_code == 200
