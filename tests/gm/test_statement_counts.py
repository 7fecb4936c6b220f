"""Statement counts of the game page, the game API and an order POST, pinned.

Django's assertNumQueries counts every statement (SAVEPOINTs included). Each page is read
after one turn and again after several: the count must not grow with the game's length
(no query per turn, post or seat). A change that adds a statement must change the pin
here on purpose, with the reason in its commit.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.core import registry
from gm.accounts import tokens
from gm.mail import inbound
from gm.play import actions
from gm.play.models import Turn
from tests.gm.mail import mimeshapes

pytestmark = pytest.mark.django_db


def _play(game, turns: int, on_commit) -> None:
    engine = registry.get(game.ruleset)
    for _ in range(turns):
        game.refresh_from_db()
        turn = game.current_turn()
        state = engine.from_json(game.state)
        with on_commit():
            for seat in game.seats.filter(name__in=turn.owing):
                actions.submit_orders(game, seat, engine.default_orders(state, seat.name).text
                                      or "")


def _api(user) -> APIClient:
    client = APIClient()
    _token, key = tokens.issue(user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


# Pinned counts (statements per request; see the module docstring).
GAME_PAGE = 21       # a seated player's game page (session auth): seats, co-GMs, the turn
                     # read once each; the visit recorded by one UPDATE; gm.absence's
                     # lines: the game's absence rules, the published state and the
                     # seat's "if I miss" orders for "if you miss this deadline: ..."
GAME_API = 10        # GET /api/games/<id>/ with a token (the current turn read once)
REPORTS_API = 5      # GET /api/games/<id>/reports/ (one page)
ORDER_POST = 5       # POST /api/games/<id>/orders/ with a token, turn stays open
# one order mail through gm.mail.inbound.process, accepted, per database: on PostgreSQL
# the claim and the reply's outbox row are one statement (gm/mail/rows.py)
ORDER_MAIL = {"postgresql": 8, "sqlite": 9}
# actions.resolve_turn of a two-seat game that does not process early (bench/turns.py's
# games), per database (gm.play.turn_rows). PostgreSQL: SAVEPOINT, the claim (DUE ->
# RESOLVED) locking and reading the turn and its game, the owing seats with their latest
# orders, ONE statement for every write (record, game state, reports, thread post, next
# turn, both notices: rows.chain), RELEASE. SQLite runs the claim as UPDATE then SELECT
# and each write apart: SAVEPOINT, UPDATE claim, SELECT turn and game, orders, INSERT
# record, UPDATE game, INSERT reports, INSERT post, INSERT next turn, INSERT notices,
# RELEASE.
# gm.absence adds one statement to each: whether the game has absence rules or a seat
# with a bot or "if I miss" orders (gm.absence.actions.at_resolution); none here.
RESOLVE_TURN = {"postgresql": 6, "sqlite": 12}


@pytest.mark.parametrize("turns", [2, 6])
def test_game_page_and_api_do_not_grow_with_the_game(turns, make_game, players,
                                                     django_assert_num_queries, client,
                                                     on_commit):
    game = make_game("combat_dice", 2, process_early=True)
    _play(game, turns, on_commit)
    api = _api(players[0])
    client.force_login(players[0])
    client.get(f"/games/{game.pk}/")  # the first visit records it (not counted)
    api.get(f"/api/games/{game.pk}/")  # the token's first use is recorded (not counted)
    with django_assert_num_queries(GAME_PAGE):
        assert client.get(f"/games/{game.pk}/").status_code == 200
    with django_assert_num_queries(GAME_API):
        assert api.get(f"/api/games/{game.pk}/").status_code == 200
    with django_assert_num_queries(REPORTS_API):
        page = api.get(f"/api/games/{game.pk}/reports/")
    assert [r["turn"] for r in page.json()] == list(range(1, turns + 1))


def test_reports_are_paginated_by_turn(make_game, players, on_commit):
    game = make_game("combat_dice", 2, process_early=True)
    _play(game, 5, on_commit)
    api = _api(players[0])
    first = api.get(f"/api/games/{game.pk}/reports/?limit=2")
    assert [r["turn"] for r in first.json()] == [1, 2]
    assert first["Link"].endswith(f'/api/games/{game.pk}/reports/?after=2&limit=2>; rel="next"')
    last = api.get(f"/api/games/{game.pk}/reports/?after=4&limit=2")
    assert [r["turn"] for r in last.json()] == [5] and not last.has_header("Link")
    assert "mine" in last.json()[0]
    for bad in ("limit=0", "limit=101", "after=-1", "after=x"):
        resp = api.get(f"/api/games/{game.pk}/reports/?{bad}")
        assert resp.status_code == 400 and "limit" in resp.json()["detail"]


def test_an_order_post_has_a_fixed_statement_count(make_game, players,
                                                    django_assert_num_queries):
    game = make_game("combat_dice", 2, process_early=True)
    api = _api(players[0])
    engine = registry.get(game.ruleset)
    text = engine.default_orders(engine.from_json(game.state), "P1").text or ""
    api.get(f"/api/games/{game.pk}/")  # the token's first use is recorded (not counted)
    with django_assert_num_queries(ORDER_POST):
        resp = api.post(f"/api/games/{game.pk}/orders/", {"text": text}, format="json")
    assert resp.status_code == 201, resp.content


def test_a_resolution_has_a_fixed_statement_count(make_game, django_assert_num_queries,
                                                   on_commit):
    game = make_game("combat_dice", 2, process_early=False)
    for _ in range(2):  # the second turn as the first: nothing grows with the game
        _play(game, 1, on_commit)
        turn = game.current_turn()
        assert actions.mark_due(turn)
        with django_assert_num_queries(RESOLVE_TURN[connection.vendor]):
            assert actions.resolve_turn(turn.pk)


def test_a_resolution_that_processes_early_counts_the_same(make_game, django_assert_num_queries):
    """A game that processes early asks, after opening the next turn, whether every owing
    seat is in already: the resolution answers it from the seats it read with the orders
    (a new turn has no orders yet), without one more statement."""
    game = make_game("combat_dice", 2, process_early=True)
    engine = registry.get(game.ruleset)
    for _ in range(2):
        game.refresh_from_db()
        turn = game.current_turn()
        state = engine.from_json(game.state)
        for seat in game.seats.filter(name__in=turn.owing):  # the last one marks it DUE
            actions.submit_orders(game, seat, engine.default_orders(state, seat.name).text
                                  or "")
        assert Turn.objects.get(pk=turn.pk).status == Turn.Status.DUE
        with django_assert_num_queries(RESOLVE_TURN[connection.vendor]):
            assert actions.resolve_turn(turn.pk)
        assert game.current_turn().status == Turn.Status.OPEN


@pytest.mark.parametrize("ruleset,seats,turns", [("tally", 2, 0), ("tally", 4, 0),
                                                 ("tally", 2, 2), ("combat_dice", 2, 0)])
def test_an_order_mail_has_a_fixed_statement_count(ruleset, seats, turns, make_game, players,
                                                   settings, on_commit, tally_engine):
    """The statements of one accepted order mail, whatever the seats and turns: the record
    (INSERT ... ON CONFLICT, its own commit outside a test), the seat lookup with the
    reply facts, the turn lock with its game, the INSERT of the version, the "all in?"
    check, the claim, the reply's outbox row (one statement with the claim on
    PostgreSQL), and here the test transaction's savepoint pair around the pipeline's
    transaction."""
    settings.GM_MAIL_DOMAIN = "gm.example"
    game = make_game(ruleset, seats)
    _play(game, turns, on_commit)
    seat = game.seats.select_related("user").order_by("id").first()
    engine = registry.get(ruleset)
    text = engine.default_orders(engine.from_json(game.state), seat.name).text
    for i, shape in enumerate((mimeshapes.gmail, mimeshapes.outlook)):
        raw = shape(text, sender=seat.user.email, to=seat.reply_address,
                    message_id=f"<count-{i}@example.org>")
        with CaptureQueriesContext(connection) as ctx:
            result = inbound.process(raw)
        assert result.outcome == "accepted", result.detail
        assert len(ctx.captured_queries) == ORDER_MAIL[connection.vendor], \
            [q["sql"] for q in ctx.captured_queries]
