"""Bad input is a 400 that says what is wrong, never a 500: deep JSON, NUL bytes, lone
surrogates, bad query values; a database outage is a 503 with Retry-After; a stored
state the engine cannot read is a clear error, not a traceback."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client
from rest_framework.test import APIClient

from gm.play.models import Game, Post

pytestmark = pytest.mark.django_db
DEEP = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"text": ' + "[" * 1000 + "]" * 1000 + "}"


def _api(user=None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def _post_raw(api: APIClient, url: str, body: str):
    return api.post(url, body, content_type="application/json")


@pytest.fixture
def game(make_game):
    return make_game("tally", 2, process_early=False)


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT])
def test_deep_json_on_orders_thread_and_amend(game, players, gm_user, body):
    urls = [(players[0], f"/api/games/{game.pk}/orders/"),
            (players[0], f"/api/games/{game.pk}/thread/"),
            (gm_user, f"/api/games/{game.pk}/gm/amend/")]
    for user, url in urls:
        response = _post_raw(_api(user), url, body)
        assert response.status_code == 400, (url, response.content[:200])
        assert "nested too deeply" in response.json()["detail"]


def test_deep_json_on_the_anonymous_verifier(db):
    response = _post_raw(_api(), "/api/verify/", DEEP)
    assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]
    deep_export = ('{"format": "tabletop-gm/1", "options": ' + "[" * 1000 + "]" * 1000
                   + "}").encode()
    from django.core.files.uploadedfile import SimpleUploadedFile
    upload = _api().post("/api/verify/", {"file": SimpleUploadedFile("x.json", deep_export)},
                         format="multipart")
    assert upload.status_code == 200 and upload.json()["ok"] is False
    assert "nested" in upload.json()["error"]


def test_nul_in_a_thread_post_by_api_and_by_web_form(game, players):
    response = _post_raw(_api(players[0]), f"/api/games/{game.pk}/thread/",
                         '{"markdown": "hello\\u0000world"}')
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    web = Client()
    web.force_login(players[0])
    page = web.post(f"/games/{game.pk}/thread/", {"markdown": "hi\x00there"})
    assert page.status_code == 400 and "NUL" in page.content.decode()
    assert not Post.objects.filter(kind=Post.Kind.MESSAGE).exists()


def test_nul_in_orders_is_refused_on_every_path(game, players):
    response = _post_raw(_api(players[0]), f"/api/games/{game.pk}/orders/",
                         '{"text": "ADD 1\\u0000"}')
    assert response.status_code == 400 and "NUL" in response.json()["detail"]


@pytest.mark.parametrize("url", ["/api/games/{id}/thread/", "/api/games/{id}/orders/"])
def test_a_lone_surrogate_is_refused(game, players, url):
    key = "markdown" if "thread" in url else "text"
    body = '{"' + key + '": "x\\ud800y"}'
    response = _post_raw(_api(players[0]), url.format(id=game.pk), body)
    assert response.status_code == 400 and "lone surrogate" in response.json()["detail"]


def test_a_nul_in_the_query_string_is_a_400(db):
    for url in ("/api/games/?status=%00", "/?q=%00"):
        response = _api().get(url)
        assert response.status_code == 400
        assert "NUL" in response.content.decode()
    assert _api().get("/api/games/?status=%00").json()["detail"].startswith("The address")


def test_an_unknown_status_filter_names_the_choices(db):
    response = _api().get("/api/games/?status=playing")
    assert response.status_code == 400
    assert response.json() == {"detail": "unknown status 'playing'; use one of: open, "
                                         "running, paused, finished"}
    assert _api().get("/api/games/?status=open").status_code == 200


def test_malformed_json_says_where(game, players):
    response = _post_raw(_api(players[0]), f"/api/games/{game.pk}/orders/", '{"text": ')
    assert response.status_code == 400
    assert response.json()["detail"].startswith("malformed JSON: Expecting value at line 1")


def _outage(execute, sql, params, many, context):
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


def test_a_database_outage_is_a_json_503_for_api_clients(game):
    api = APIClient(raise_request_exception=False)
    with connection.execute_wrapper(_outage):
        response = api.get(f"/api/games/{game.pk}/")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "30"
    assert "database is not answering" in response.json()["detail"]


def test_a_database_outage_is_a_503_page_for_browsers(game):
    web = Client(raise_request_exception=False)
    with connection.execute_wrapper(_outage):
        response = web.get(f"/games/{game.pk}/", HTTP_ACCEPT="text/html")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "database is not answering" in response.content.decode()


def test_an_unreadable_stored_state_is_a_clear_error_on_page_and_api(game, players):
    Game.objects.filter(pk=game.pk).update(state={"garbage": True})
    api = _api(players[0])
    response = api.get(f"/api/games/{game.pk}/")
    assert response.status_code == 503
    assert "stored state cannot be shown" in response.json()["detail"]
    web = Client(raise_request_exception=False)
    web.force_login(players[0])
    page = web.get(f"/games/{game.pk}/")
    assert page.status_code == 503
    text = page.content.decode()
    assert "stored state cannot be shown" in text and "Traceback" not in text


def test_a_server_error_page_shows_nothing_of_the_game(game, players, monkeypatch):
    from gm.play import actions

    def boom(*args, **kwargs):
        raise RuntimeError(f"secret {game.secret}")

    monkeypatch.setattr(actions, "reports_for", boom)
    for client in (Client(raise_request_exception=False),
                   APIClient(raise_request_exception=False)):
        client.force_login(players[0])
        url = f"/games/{game.pk}/" if isinstance(client, Client) and not isinstance(
            client, APIClient) else f"/api/games/{game.pk}/reports/"
        response = client.get(url)
        assert response.status_code == 500
        assert game.secret not in response.content.decode()
        assert "went wrong on our side" in response.content.decode()


def test_an_oversized_form_post_is_a_400_that_says_so(game, players, settings):
    web = Client(raise_request_exception=False)
    web.force_login(players[0])
    response = web.post(f"/games/{game.pk}/orders/", {"text": "ADD 1 " + "#" * 2_000_000})
    assert response.status_code == 400
    assert f"larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} KiB" in \
        response.content.decode()
    assert len(response.content) < 5000 and not game.turns.get(number=1).submissions.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_api_address_is_a_json_404(db, method):
    """API clients get JSON for every error, a mistyped endpoint too; pages keep the
    site's 404 page."""
    response = getattr(Client(), method)("/api/games/1/nothing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "/api/schema/" in response.json()["detail"]
    page = Client().get("/no/such/page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
    assert b"Back to the lobby" in page.content
