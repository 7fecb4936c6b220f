"""Every GM power over the API: never a player, never anonymous; the GM and a co-GM can."""

import pytest
from rest_framework.test import APIClient

from gm.play.models import Game, Turn
from gm.referee import actions, disputes


def _played(game, play_turn):
    play_turn(game, {"P1": "MOVE 2", "P2": "MOVE 1"})


def _held(game, play_turn):
    actions.set_hold(game, game.gm, "review", True)
    _played(game, play_turn)


def _paused(game, play_turn):
    actions.pause(game, game.gm, "p")


def _disputed(game, play_turn):
    _played(game, play_turn)
    disputes.file_dispute(game, game.seats.get(name="P2").user, 1, "unfair")


R = {"reason": "test"}
POWERS = [
    ("get", "", None, None),
    ("get", "fields/", None, None),
    ("get", "turns/1/", None, None),
    ("post", "pause/", R, None),
    ("post", "resume/", R, _paused),
    ("post", "extend/", {**R, "hours": 1}, None),
    ("post", "force/", R, None),
    ("post", "hold/", {**R, "hold": True}, None),
    ("post", "release/", R, _held),
    ("post", "amend/", {**R, "changes": [{"path": "/pos/P1", "value": 3}]}, None),
    ("post", "orders/", {**R, "seat": "P1", "text": "MOVE 1"}, None),
    ("post", "dice/", {**R, "turn": 1, "index": 0, "value": 3}, _played),
    ("post", "rerun/", {**R, "turn": 1}, _played),
    ("post", "rollback/", {**R, "turn": 1}, _played),
    ("post", "seats/P1/", {**R, "mode": "default"}, None),
    ("post", "disputes/{dispute}/rule/", {"upheld": False, "reasons": "no"}, _disputed),
]
IDS = [p[1] or "overview" for p in POWERS]


def call(client, game, method, path, body):
    if "{dispute}" in path:
        path = path.format(dispute=game.disputes.get().pk)
    return getattr(client, method)(f"/api/games/{game.pk}/gm/{path}", body, format="json")


@pytest.mark.parametrize(("method", "path", "body", "prepare"), POWERS, ids=IDS)
def test_players_and_anonymous_are_refused(race, players, play_turn, method, path, body,
                                           prepare):
    if prepare:
        prepare(race, play_turn)
    log_before = race.log.count()
    client = APIClient()
    assert call(client, race, method, path, body).status_code in (401, 403)
    client.force_authenticate(players[0])
    response = call(client, race, method, path, body)
    assert response.status_code == 403, response.content
    assert "GM" in response.json()["detail"]
    assert race.log.count() == log_before


@pytest.mark.parametrize(("method", "path", "body", "prepare"), POWERS, ids=IDS)
def test_a_co_gm_can(race, co_gm, play_turn, on_commit, method, path, body, prepare):
    if prepare:
        prepare(race, play_turn)
    client = APIClient()
    client.force_authenticate(co_gm)
    with on_commit():
        response = call(client, race, method, path, body)
    assert response.status_code == 200, response.content
    if method == "post":
        entry = race.log.filter(actor=co_gm).last()
        assert entry is not None and entry.reason in ("test", "no")


def test_overview_shows_everything_to_the_gm(race, gm_user, play_turn):
    _played(race, play_turn)
    client = APIClient()
    client.force_authenticate(gm_user)
    data = client.get(f"/api/games/{race.pk}/gm/").json()
    assert data["state"] == Game.objects.get(pk=race.pk).state
    assert [t["number"] for t in data["turns"]] == [1, 2]
    detail = client.get(f"/api/games/{race.pk}/gm/turns/1/").json()
    assert detail[0]["record"]["draws"][0]["label"] == "boost/P1"
    assert {s["seat"] for s in detail[0]["submissions"]} == {"P1", "P2"}
    fields = client.get(f"/api/games/{race.pk}/gm/fields/").json()
    assert {"path": "/energy/P1", "kind": "int", "value": 7} in fields


def test_errors_are_specific(race, gm_user):
    client = APIClient()
    client.force_authenticate(gm_user)
    r = client.post(f"/api/games/{race.pk}/gm/orders/",
                    {**R, "seat": "P1", "text": "MOVE 7"}, format="json")
    assert r.status_code == 400
    assert r.json()["errors"][0] == {"line": 1, "message": "you can move at most 3", "hint": ""}
    r = client.post(f"/api/games/{race.pk}/gm/amend/",
                    {**R, "changes": [{"path": "/energy/P1", "value": -2}]}, format="json")
    assert (r.status_code, r.json()["detail"]) == (
        400, "the amended state breaks the rules: P1 has negative energy")
    r = client.post(f"/api/games/{race.pk}/gm/pause/", {}, format="json")
    assert r.status_code == 400 and "reason" in r.json()
    r = client.post(f"/api/games/{race.pk}/gm/rollback/", {**R, "turn": 1}, format="json")
    assert r.status_code == 409
    assert r.json()["detail"].startswith("turn 1 has not been resolved")


def test_only_the_main_gm_manages_co_gms(race, gm_user, co_gm, make_user, players):
    make_user("newbie")
    client = APIClient()
    client.force_authenticate(co_gm)
    url = f"/api/games/{race.pk}/gm/co-gms/"
    assert client.post(url, {**R, "username": "newbie"}, format="json").status_code == 403
    client.force_authenticate(gm_user)
    r = client.post(url, {**R, "username": "newbie"}, format="json")
    assert r.json() == {"co_gms": ["cogm", "newbie"]}
    r = client.post(url, {**R, "username": "alice"}, format="json")
    assert r.status_code == 409 and "plays in this game" in r.json()["detail"]
    r = client.post(url, {**R, "username": "cogm", "add": False}, format="json")
    assert r.json() == {"co_gms": ["newbie"]}
    assert not race.is_gm(co_gm)


def test_replace_a_player_hands_over_the_seat_history(race, gm_user, make_user, play_turn):
    _played(race, play_turn)
    newcomer = make_user("erin")
    seat = race.seats.get(name="P2")
    old_token = seat.mail_token
    client = APIClient()
    client.force_authenticate(gm_user)
    r = client.post(f"/api/games/{race.pk}/gm/seats/P2/", {**R, "user": "erin"}, format="json")
    assert r.json() == {"name": "P2", "player": "erin", "mode": "active"}
    seat.refresh_from_db()
    assert seat.user == newcomer and seat.mail_token != old_token
    client.force_authenticate(newcomer)
    reports = client.get(f"/api/games/{race.pk}/reports/").json()
    assert reports[0]["mine"] is not None  # the seat's private report of turn 1
    assert "now played by erin (was bob)" in race.log.get(action="player-replaced").public


def test_seat_mode_default_resolves_when_the_rest_are_in(race, gm_user, play_turn, on_commit):
    play_turn(race, {"P1": "MOVE 1"})
    client = APIClient()
    client.force_authenticate(gm_user)
    with on_commit():
        client.post(f"/api/games/{race.pk}/gm/seats/P2/", {**R, "mode": "abandoned"},
                    format="json")
    race.refresh_from_db()
    assert race.records.get(number=1).defaulted == ["P2"]
    assert race.current_turn().number == 2 and race.current_turn().status == Turn.Status.OPEN


def test_dispute_api_flow(race, players, gm_user, staff, play_turn, on_commit):
    _played(race, play_turn)
    client = APIClient()
    client.force_authenticate(players[1])
    r = client.post(f"/api/games/{race.pk}/disputes/", {"turn": 1, "text": "die?"},
                    format="json")
    assert r.status_code == 201 and r.json()["text"] == "die?"
    pk = r.json()["id"]
    anon = APIClient().get(f"/api/games/{race.pk}/disputes/{pk}/").json()
    assert "text" not in anon and anon["status"] == "open"
    client.force_authenticate(gm_user)
    r = client.post(f"/api/games/{race.pk}/gm/disputes/{pk}/rule/",
                    {"upheld": True, "reasons": "P1 was on 5",
                     "correction": {"turn": 1, "changes": [{"path": "/pos/P1", "value": 5}]}},
                    format="json")
    assert r.status_code == 200 and r.json()["status"] == "upheld"
    client.force_authenticate(players[0])
    r = client.post(f"/api/games/{race.pk}/disputes/{pk}/second-opinion/", {"text": "hm"},
                    format="json")
    assert r.json()["second_opinion"]["status"] == "requested"
    client.force_authenticate(players[2])  # not staff
    assert client.get("/api/referee/opinions/").json() == []
    r = client.post(f"/api/games/{race.pk}/disputes/{pk}/opinion/", {"text": "Agreed."},
                    format="json")
    assert r.status_code == 403
    client.force_authenticate(staff)
    assert [d["id"] for d in client.get("/api/referee/opinions/").json()] == [pk]
    r = client.post(f"/api/games/{race.pk}/disputes/{pk}/opinion/", {"text": "Agreed."},
                    format="json")
    opinion = r.json()["second_opinion"]
    assert (opinion["status"], opinion["by"], opinion["text"]) == ("given", "referee", "Agreed.")
    log = APIClient().get(f"/api/games/{race.pk}/log/").json()
    assert [e["action"] for e in log][-5:] == [
        "dispute-filed", "rerun", "dispute-ruled", "opinion-requested", "opinion-given"]
    assert log[-3]["reason"] == "P1 was on 5"
    assert all("private" not in e for e in log)


def test_verify_endpoint(make_game, play_turn):
    game = make_game("toy_race", 2, options={"rounds": 1})
    play_turn(game, {"P1": "MOVE 1", "P2": "MOVE 1"})
    export = APIClient().get(f"/api/games/{game.pk}/export/").json()
    r = APIClient().post("/api/verify/", export, format="json")
    assert r.json()["ok"] is True and r.json()["secret_checked"] is True
    export["turns"][0]["draws"][0]["result"] = 7
    assert APIClient().post("/api/verify/", export, format="json").json()["error"].startswith(
        "turn 1: draw 0 (boost/P1)")


def test_a_site_admin_is_not_given_a_seat_where_cards_are_hidden(race, gm_user):
    """As at joining (gm.play.actions.seat_barred): an admin sees every game as its GM."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("root", "root@example.org", "pw-for-tests-1")
    client = APIClient()
    client.force_authenticate(gm_user)
    r = client.post(f"/api/games/{race.pk}/gm/seats/P2/", {**R, "user": "root"},
                    format="json")
    assert r.status_code == 409
    assert r.json()["detail"].startswith("root is a site admin, and site admins see every "
                                         "hidden card and die")
    assert race.seats.get(name="P2").user.username == "bob"
