"""The game page reads who sits where and who referees once per request.

Before, every seat_of/is_gm call on the page was a statement of its own (about ten
identical seat lookups and four co-GM checks on a seated player's page). The game page
now calls Game.remember_people() and answers them from memory; an instance that was not
asked to remember keeps reading the database, so a join or a replacement is never missed.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gm.play import actions
from gm.play.models import Game

pytestmark = pytest.mark.django_db

SEAT_BY_USER = re.compile(r'FROM "play_seat".*WHERE .*"play_seat"\."user_id" = ', re.S)
CO_GMS = re.compile(r'"play_game_co_gms"')


@pytest.mark.parametrize("reader", ["alice", "gamemaster", "carol", None])
def test_the_game_page_reads_seats_and_co_gms_once(reader, make_game, players, gm_user,
                                                   client):
    game = make_game("combat_dice", 2)
    game.co_gms.add(players[3])
    users = {u.username: u for u in [*players, gm_user]}
    if reader:
        client.force_login(users[reader])
    client.get(f"/games/{game.pk}/")  # the first visit records it (not counted)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    sql = [q["sql"] for q in ctx.captured_queries]
    assert [s for s in sql if SEAT_BY_USER.search(s)] == []
    assert len([s for s in sql if CO_GMS.search(s)]) == 1


@pytest.mark.parametrize("who, seat, gm", [
    ("alice", "P1", False), ("bob", "P2", False), ("carol", None, False),
    ("dave", None, True), ("gamemaster", None, True), (None, None, False),
])
def test_remembered_answers_are_the_database_answers(who, seat, gm, make_game, players,
                                                     gm_user, django_assert_num_queries):
    from django.contrib.auth.models import AnonymousUser

    game = make_game("combat_dice", 2)
    game.co_gms.add(players[3])  # dave is a co-GM
    user = {u.username: u for u in [*players, gm_user]}.get(who, AnonymousUser())
    fresh = Game.objects.get(pk=game.pk)
    assert (getattr(fresh.seat_of(user), "name", None), fresh.is_gm(user)) == (seat, gm)
    fresh.remember_people()
    with django_assert_num_queries(0):
        assert (getattr(fresh.seat_of(user), "name", None), fresh.is_gm(user)) == (seat, gm)
        assert [s.name for s in fresh.seated()] == ["P1", "P2"]


def test_refresh_forgets_so_a_join_is_seen(gm_user, players):
    game = actions.create_game(gm_user, ruleset="combat_dice", title="Memo")
    game.remember_people()
    assert game.seat_of(players[0]) is None
    actions.join_game(Game.objects.get(pk=game.pk), players[0])
    assert game.seat_of(players[0]) is None  # remembered (one request's snapshot)
    game.refresh_from_db()
    assert game.seat_of(players[0]).name == "P1"
    game.forget_people()
    assert game.seat_of(players[0]).name == "P1"
