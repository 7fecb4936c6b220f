"""The REST API at the paths ARCHITECTURE.md fixes, with token and session auth."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from gm.accounts import tokens
from gm.play.models import Game, Submission, TurnRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for():
    def make(user=None, *, token=True):
        client = APIClient()
        if user is not None:
            if token:
                _token, key = tokens.issue(user)
                client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
            else:
                client.force_login(user)
        return client
    return make


def test_create_join_start_order_report_through_the_api(client_for, gm_user, players,
                                                          django_capture_on_commit_callbacks):
    gm = client_for(gm_user)
    bad = gm.post("/api/games/", {"ruleset": "tally", "title": "T", "options": {"target": 1}},
                  format="json")
    assert bad.status_code == 400
    assert bad.json() == {"detail": "option 'target': 1 is outside 5..100"}
    resp = gm.post("/api/games/", {"ruleset": "tally", "title": "API game",
                                   "options": {"max_turns": 1}}, format="json")
    assert resp.status_code == 201, resp.content
    gid = resp.json()["id"]
    alice, bob = client_for(players[0]), client_for(players[1], token=False)
    assert alice.post(f"/api/games/{gid}/seats/").json()["name"] == "P1"
    joined = bob.post(f"/api/games/{gid}/seats/")
    assert joined.status_code == 201 and joined.json()["reply_address"].startswith("play+")
    assert alice.post(f"/api/games/{gid}/start/").status_code == 403
    started = gm.post(f"/api/games/{gid}/start/")
    assert started.status_code == 200 and started.json()["turn"]["number"] == 1

    detail = alice.get(f"/api/games/{gid}/").json()
    assert detail["turn"]["owing"] == ["P1", "P2"]
    assert detail["turn"]["my_prompt"]["choices"] == ["ADD 1", "ADD 2", "ADD 3"]
    assert "my_secret" in detail["view"] and "secret" not in detail["view"]

    err = alice.post(f"/api/games/{gid}/orders/", {"text": "ADD 9\nfoo"}, format="json")
    assert err.status_code == 400
    assert err.json() == {"errors": [
        {"line": 1, "message": "ADD amount 9 is out of range", "hint": "use 1..3"},
        {"line": 2, "message": "unknown order 'foo'", "hint": "expected one of: ADD"}],
        "accepted": []}
    with django_capture_on_commit_callbacks(execute=True):
        ok = alice.post(f"/api/games/{gid}/orders/", {"text": "ADD 2"}, format="json")
    assert ok.status_code == 201
    assert ok.json()["orders"] == ["ADD 2"] and len(ok.json()["receipt"]) == 64
    assert alice.get(f"/api/games/{gid}/orders/").json()["version"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.post(f"/api/games/{gid}/orders/", {"text": "add 1"},
                        format="json").status_code == 201
    assert Game.objects.get(pk=gid).status == "finished"

    reports = alice.get(f"/api/games/{gid}/reports/").json()
    assert [r["turn"] for r in reports] == [1]
    assert "P1 adds 2" in reports[0]["public"]["markdown"]
    assert "your secret die" in reports[0]["mine"]["markdown"]
    assert "<li>" in reports[0]["public"]["html"]
    one = client_for().get(f"/api/games/{gid}/reports/1/").json()
    assert "mine" not in one and "secret die" not in one["public"]["markdown"]
    assert client_for().get(f"/api/games/{gid}/reports/7/").status_code == 404
    export = client_for().get(f"/api/games/{gid}/export/").json()
    assert export["secret"] and export["turns"][0]["number"] == 1
    assert Submission.objects.filter(source="api").count() == 2
    assert TurnRecord.objects.filter(game_id=gid).count() == 1


def test_withdraw_and_late(client_for, make_game, players):
    game = make_game("tally", 2)
    alice = client_for(players[0])
    url = f"/api/games/{game.pk}/orders/"
    assert alice.get(url).status_code == 204
    assert alice.delete(url).status_code == 409
    alice.post(url, {"text": "ADD 1"}, format="json")
    gone = alice.delete(url)
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True
    bad = alice.post(url, {}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["line"] == 0


ROLES = ["anonymous", "outsider", "other_seat", "seat", "gm"]


def _clients(client_for, make_user, gm_user, players):
    return {"anonymous": client_for(), "outsider": client_for(make_user("outsider")),
            "other_seat": client_for(players[1]), "seat": client_for(players[0]),
            "gm": client_for(gm_user)}


@pytest.mark.parametrize("method,path,body,expected", [
    ("get", "/api/games/{id}/", None, {"anonymous": 200, "outsider": 200, "other_seat": 200,
                                       "seat": 200, "gm": 200}),
    ("post", "/api/games/{id}/orders/", {"text": "ADD 1"},
     {"anonymous": 401, "outsider": 403, "other_seat": 201, "seat": 201, "gm": 403}),
    ("get", "/api/games/{id}/orders/", None,
     {"anonymous": 401, "outsider": 403, "other_seat": 204, "seat": 204, "gm": 403}),
    ("post", "/api/games/{id}/start/", None,
     {"anonymous": 401, "outsider": 403, "other_seat": 403, "seat": 403, "gm": 409}),
    ("post", "/api/games/{id}/seats/", None,
     {"anonymous": 401, "outsider": 409, "other_seat": 409, "seat": 409, "gm": 409}),
    ("get", "/api/games/{id}/export/", None,
     {"anonymous": 409, "outsider": 409, "other_seat": 409, "seat": 409, "gm": 200}),
    ("get", "/api/games/{id}/reports/", None,
     {"anonymous": 200, "outsider": 200, "other_seat": 200, "seat": 200, "gm": 200}),
    ("post", "/api/games/{id}/thread/", {"markdown": "hi"},
     {"anonymous": 401, "outsider": 403, "other_seat": 201, "seat": 201, "gm": 201}),
])
def test_permission_matrix(client_for, make_user, gm_user, players, make_game,
                           method, path, body, expected):
    game = make_game("tally", 2, process_early=False)
    clients = _clients(client_for, make_user, gm_user, players)
    for role in ROLES:
        resp = getattr(clients[role], method)(path.format(id=game.pk), body, format="json")
        assert resp.status_code == expected[role], (role, resp.content)


def test_views_are_per_seat(client_for, make_game, players, gm_user):
    game = make_game("tally", 2)
    secrets = game.state["secret"]
    a = client_for(players[0]).get(f"/api/games/{game.pk}/").json()["view"]
    b = client_for(players[1]).get(f"/api/games/{game.pk}/").json()["view"]
    public = client_for().get(f"/api/games/{game.pk}/").json()["view"]
    gm = client_for(gm_user).get(f"/api/games/{game.pk}/").json()
    assert a["my_secret"] == secrets["P1"] and b["my_secret"] == secrets["P2"]
    assert "my_secret" not in public and "secret" not in public
    assert gm["view"]["secret"] == secrets and gm["is_gm"] is True
    assert gm["secret"] is None  # the dice secret stays hidden until the end


def test_rulesets_and_schema(client_for):
    names = {r["name"] for r in client_for().get("/api/rulesets/").json()}
    assert {"tally", "combat_dice"} <= names
    schema = client_for().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in ["/api/games/", "/api/games/{id}/", "/api/games/{id}/seats/",
                 "/api/games/{id}/start/", "/api/games/{id}/orders/",
                 "/api/games/{id}/reports/", "/api/games/{id}/reports/{number}/",
                 "/api/games/{id}/export/"]:
        assert path in paths
    assert client_for().get("/api/docs/").status_code == 200
