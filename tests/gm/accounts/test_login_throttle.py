"""Log-in throttling (django-axes): by account and by address, on the web and the API."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
RIGHT = "pw-for-tests-1"


def _web_login(client, username: str, password: str, ip: str = "127.0.0.1"):
    return client.post("/login/", {"username": username, "password": password},
                       REMOTE_ADDR=ip)


def test_forty_wrong_passwords_then_the_right_one_is_refused_on_the_web(client, players,
                                                                       settings):
    for _ in range(40):
        _web_login(client, "alice", "wrong")
    response = _web_login(client, "alice", RIGHT)
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert int(response["Retry-After"]) == int(settings.AXES_COOLOFF_TIME * 3600)
    assert "_auth_user_id" not in client.session
    # The cool-off passes: the right password works again.
    later = timezone.now() + timezone.timedelta(hours=settings.AXES_COOLOFF_TIME, minutes=1)
    with time_machine.travel(later, tick=False):
        assert _web_login(client, "alice", RIGHT).status_code == 302


def test_a_strangers_wrong_passwords_do_not_lock_the_player_out(client, players, settings,
                                                                monkeypatch):
    """Usernames are public: ten wrong passwords from another address (or from many)
    lock that address, never the player (issue 29), on the web and the API."""
    from gm.accounts.views import TokenRateThrottle
    monkeypatch.setattr(TokenRateThrottle, "get_rate", lambda self: "1000/min")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _web_login(client, "bob", "wrong", ip="10.6.6.6")
    for i in range(settings.AXES_FAILURE_LIMIT):
        _web_login(client, "bob", "wrong", ip=f"10.0.0.{i + 1}")
        APIClient(REMOTE_ADDR=f"10.0.1.{i + 1}").post(
            "/api/token/", {"username": "bob", "password": "wrong"})
    assert _web_login(client, "bob", RIGHT, ip="10.6.6.6").status_code == 429  # the stranger
    assert _web_login(client, "bob", RIGHT, ip="10.9.9.9").status_code == 302  # the player
    token = APIClient(REMOTE_ADDR="10.9.9.9").post("/api/token/",
                                                  {"username": "bob", "password": RIGHT})
    assert token.status_code == 200 and token.json()["token"]


def test_the_account_is_throttled_from_one_address(client, players, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _web_login(client, "bob", "wrong", ip="10.0.0.1")
    assert _web_login(client, "bob", RIGHT, ip="10.0.0.1").status_code == 429
    assert _web_login(client, "carol", RIGHT, ip="10.0.0.2").status_code == 302


def test_the_address_is_throttled_across_accounts(client, players, settings):
    names = ["alice", "bob", "carol", "dave"]
    for i in range(settings.AXES_FAILURE_LIMIT):
        _web_login(client, names[i % 4], "wrong", ip="10.7.7.7")
    assert _web_login(client, "dave", RIGHT, ip="10.7.7.7").status_code == 429
    assert _web_login(client, "dave", RIGHT, ip="10.7.7.8").status_code == 302


def test_the_api_token_endpoint_is_throttled_with_a_json_answer(players, monkeypatch):
    # Lift the per-address request rate so that axes' failure count is what stops it.
    from gm.accounts.views import TokenRateThrottle
    monkeypatch.setattr(TokenRateThrottle, "get_rate", lambda self: "1000/min")
    api = APIClient()
    for _ in range(40):
        wrong = api.post("/api/token/", {"username": "alice", "password": "wrong"})
        assert wrong.status_code in (400, 429)
    response = api.post("/api/token/", {"username": "alice", "password": RIGHT})
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.json()["detail"]
    assert response["Retry-After"]
    assert "token" not in response.json()


def test_token_requests_per_address_are_rate_limited(players):
    api = APIClient()
    codes = [api.post("/api/token/", {"username": "alice", "password": RIGHT}).status_code
             for _ in range(21)]
    assert codes[:20] == [200] * 20 and codes[20] == 429


def test_a_proxy_forwarded_address_is_the_one_counted(client, players, settings):
    settings.GM_PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/login/", {"username": "nobody", "password": "x"},
                    HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.5")
    assert client.post("/login/", {"username": "alice", "password": RIGHT},
                       HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    assert client.post("/login/", {"username": "alice", "password": RIGHT},
                       HTTP_X_FORWARDED_FOR="203.0.113.5, 203.0.113.6").status_code == 302
