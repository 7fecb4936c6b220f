"""The absence settings at creation (web form and API), the GM's edits, a player's
choices and "if I miss" orders on the web and the API, and vacations on the account."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from gm.absence.models import Rules, SeatAbsence, Vacation
from gm.accounts.timezones import set_zone
from gm.play.models import Game, LogEntry, Seat

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    api = APIClient()
    api.force_login(user)
    return api


def test_new_game_form_takes_the_absence_settings(client, gm_user):
    client.force_login(gm_user)
    page = client.get("/games/new/tally/")
    assert b'id="absence-fields"' in page.content
    reply = client.post("/games/new/tally/", {
        "title": "Away game", "role": "referee", "turn_hours": 24, "turn_minutes": 0,
        "process_early": "on", "option_target": 12, "option_max_turns": 6,
        "absence-vacations_allowed": "", "absence-vacation_cap_days": 0,
        "absence-grace_count": 2, "absence-grace_hours": 12,
        "absence-misses_to_disorder": 3, "absence-bot_seats": 1})
    assert reply.status_code == 302, reply.content[:2000]
    game = Game.objects.get(title="Away game")
    rules = Rules.objects.get(game=game)
    assert (rules.vacations_allowed, rules.grace_count, rules.grace_hours,
            rules.misses_to_disorder, rules.bot_seats) == (False, 2, 12, 3, 1)
    assert list(game.seats.values_list("name", "mode", "user")) == [("P1", "bot", None)]
    assert LogEntry.objects.filter(game=game, action="absence-settings",
                                   public__contains="no vacations; 2 grace").exists()


def test_api_create_with_absence_settings_and_refusals(gm_user, players):
    api = _api(gm_user)
    ok = api.post("/api/games/", {"ruleset": "tally", "title": "A", "absence": {
        "grace_count": 1, "misses_to_disorder": 2}}, format="json")
    assert ok.status_code == 201, ok.content
    got = api.get(f"/api/games/{ok.json()['id']}/absence/").json()
    assert got["rules"]["grace_count"] == 1 and got["rules"]["misses_to_disorder"] == 2
    bad = api.post("/api/games/", {"ruleset": "tally", "title": "B", "absence": {
        "grace_count": -1}}, format="json")
    assert bad.status_code == 400 and "grace_count is a whole number" in bad.json()["detail"]
    unknown = api.post("/api/games/", {"ruleset": "tally", "title": "C", "absence": {
        "holidays": 3}}, format="json")
    assert unknown.status_code == 400 and "unknown absence settings: holidays" in \
        unknown.json()["detail"]
    assert not Game.objects.filter(title__in=["B", "C"]).exists()
    # only the GM edits them
    pk = ok.json()["id"]
    assert _api(players[0]).patch(f"/api/games/{pk}/absence/", {"grace_count": 5},
                                  format="json").status_code == 403
    edited = api.patch(f"/api/games/{pk}/absence/", {"vacations_allowed": False},
                       format="json")
    assert edited.status_code == 200 and not edited.json()["rules"]["vacations_allowed"]


def test_a_player_files_if_i_miss_orders_and_sees_what_a_miss_plays(make_game, players,
                                                                    client):
    game = make_game("tally", 2)
    client.force_login(players[1])
    bad = client.post(f"/games/{game.pk}/absence/mine/", {"away_choice": "if_miss",
                                                         "if_miss_text": "ADD 7"})
    assert bad.status_code == 400 and b"line 1" in bad.content
    ok = client.post(f"/games/{game.pk}/absence/mine/", {"away_choice": "bot",
                                                        "if_miss_text": "ADD 2"})
    assert ok.status_code == 302
    mine = SeatAbsence.objects.get(seat__game=game, seat__name="P2")
    assert (mine.away_choice, mine.if_miss_text) == ("bot", "ADD 2")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'If you miss this deadline: your "if I miss" orders are played: ADD 2' \
        in page.replace("&quot;", '"')
    # the API says the same
    api = _api(players[1])
    got = api.post(f"/api/games/{game.pk}/absence/mine/", {"if_miss_text": "ADD 9"},
                   format="json")
    assert got.status_code == 400 and got.json()["errors"][0]["line"] == 1
    got = api.post(f"/api/games/{game.pk}/absence/mine/", {"if_miss_text": ""},
                   format="json").json()
    assert got["mine"]["if_missed"] == ("if you miss this deadline: the engine's default "
                                        "orders are played: ADD 1")
    # another player cannot set them
    assert _api(players[2]).post(f"/api/games/{game.pk}/absence/mine/",
                                 {"if_miss_text": "ADD 1"}, format="json").status_code == 403


def test_vacations_on_the_account_in_the_users_time_zone(client, players, make_game,
                                                        gm_user):
    from gm.absence import actions

    game = make_game("tally", 2)
    actions.configure(game, gm_user, {})
    user = players[1]
    set_zone(user, "Europe/Berlin")
    client.force_login(user)
    start = (timezone.now() + timedelta(days=1)).astimezone(UTC)
    local = start.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Berlin"))
    reply = client.post("/account/vacations/", {
        "starts": local.strftime("%Y-%m-%dT%H:%M"),
        "ends": (local + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")})
    assert reply.status_code == 302
    vac = Vacation.objects.get(user=user)
    assert abs((vac.starts - start).total_seconds()) < 60  # read as Berlin wall time
    page = client.get("/account/vacations/").content.decode()
    assert f"vacation-{vac.pk}" in page and "CET" in page
    # shown to the others on the game page, never why
    client.force_login(players[0])
    game_page = client.get(f"/games/{game.pk}/").content.decode()
    assert "P2 is away from " in game_page and "(their orders: if-I-miss orders)" in game_page
    client.force_login(user)
    assert client.post(f"/account/vacations/{vac.pk}/cancel/").status_code == 302
    assert not Vacation.objects.exists()


def test_vacations_api(players):
    api = _api(players[0])
    start = datetime.now(UTC) + timedelta(days=2)
    made = api.post("/api/me/vacations/", {"starts": start.isoformat(),
                                           "ends": (start + timedelta(days=1)).isoformat()},
                    format="json")
    assert made.status_code == 201
    assert [v["id"] for v in api.get("/api/me/vacations/").json()] == [made.json()["id"]]
    refused = api.post("/api/me/vacations/", {"starts": start.isoformat(),
                                              "ends": start.isoformat()}, format="json")
    assert refused.status_code == 400 and "ends after it starts" in refused.json()["detail"]
    assert _api(players[1]).delete(f"/api/me/vacations/{made.json()['id']}/").status_code \
        == 400
    assert api.delete(f"/api/me/vacations/{made.json()['id']}/").status_code == 204


def test_the_gm_settings_page(client, gm_user, players, make_game):
    game = make_game("tally", 2)
    client.force_login(players[0])
    page = client.get(f"/games/{game.pk}/absence/")
    assert b'id="absence-gm"' not in page.content and b'id="absence-mine"' in page.content
    assert client.post(f"/games/{game.pk}/absence/settings/", {
        "vacation_cap_days": 1, "grace_count": 1, "grace_hours": 1,
        "misses_to_disorder": 0, "bot_seats": 0}).status_code == 403
    assert not Rules.objects.filter(game=game).exists()
    client.force_login(gm_user)
    assert b'id="absence-gm"' in client.get(f"/games/{game.pk}/absence/").content
    assert client.post(f"/games/{game.pk}/absence/settings/", {
        "vacation_cap_days": 1, "grace_count": 1, "grace_hours": 6,
        "misses_to_disorder": 2, "bot_seats": 0, "reason": "house rules"}).status_code == 302
    rules = Rules.objects.get(game=game)
    assert (rules.vacations_allowed, rules.grace_hours) == (False, 6)
    assert Seat.objects.filter(game=game).count() == 2


def test_anonymous_readers_are_refused_not_failed(make_game):
    game = make_game("tally", 2)
    anon = APIClient()
    assert anon.get("/api/me/vacations/").status_code in (401, 403)
    assert anon.post(f"/api/games/{game.pk}/absence/mine/", {}, format="json"
                     ).status_code in (401, 403)
    assert anon.patch(f"/api/games/{game.pk}/absence/", {}, format="json"
                      ).status_code == 401
    assert anon.get(f"/api/games/{game.pk}/absence/").status_code == 200
