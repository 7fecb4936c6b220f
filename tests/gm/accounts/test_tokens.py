"""API tokens: issued by POST /api/token/, stored as digests, listed, revoked, expiring."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from gm.accounts import tokens
from gm.accounts.models import ApiToken

pytestmark = pytest.mark.django_db


def _api(key: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def test_the_endpoint_issues_a_working_token_whose_key_is_not_stored(players, settings):
    response = APIClient().post("/api/token/", {"username": "alice",
                                                "password": "pw-for-tests-1"})
    assert response.status_code == 200
    key = response.json()["token"]
    assert not ApiToken.objects.filter(digest=key).exists()
    assert not ApiToken.objects.filter(prefix=key).exists()
    assert ApiToken.objects.get(user=players[0]).prefix == key[:8]
    assert _api(key).get("/api/games/").status_code == 200
    assert _api(key).post("/api/games/", {"ruleset": "tally", "title": "t"},
                          format="json").status_code == 201
    wrong = APIClient().post("/api/token/", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 400 and wrong.json() == {"detail":
                                                         "wrong username or password"}


def test_an_expired_token_is_refused_with_the_reason(players, settings):
    _token, key = tokens.issue(players[0])
    later = timezone.now() + timezone.timedelta(days=settings.GM_API_TOKEN_DAYS, minutes=1)
    with time_machine.travel(later, tick=False):
        response = _api(key).post("/api/games/", {"ruleset": "tally", "title": "t"},
                                  format="json")
    assert response.status_code == 401
    assert "expired" in response.json()["detail"] and "POST /api/token/" in \
        response.json()["detail"]


def test_the_account_page_lists_creates_and_revokes_tokens(client, players):
    client.force_login(players[0])
    first, key = tokens.issue(players[0], "my bot")
    other, other_key = tokens.issue(players[1], "not mine")
    page = client.get("/account/").content.decode()
    assert f"{first.prefix}…" in page and "my bot" in page
    assert key not in page and other.prefix not in page
    created = client.post("/account/tokens/", {"label": "laptop"}).content.decode()
    new = ApiToken.objects.get(user=players[0], label="laptop")
    assert 'id="new-token"' in created and new.prefix in created
    # Revoking works for one's own token only.
    assert client.post(f"/account/tokens/{other.pk}/revoke/").status_code == 302
    assert ApiToken.objects.filter(pk=other.pk).exists()
    client.post(f"/account/tokens/{first.pk}/revoke/")
    assert not ApiToken.objects.filter(pk=first.pk).exists()
    refused = _api(key).post("/api/games/", {"ruleset": "tally", "title": "t"},
                             format="json")
    assert refused.status_code == 401 and "revoked" in refused.json()["detail"]
    assert _api(other_key).get("/api/games/").status_code == 200


def test_a_user_holds_a_bounded_number_of_tokens(players, settings):
    settings.GM_API_TOKENS_PER_USER = 3
    keys = [tokens.issue(players[0])[1] for _ in range(5)]
    assert ApiToken.objects.filter(user=players[0]).count() == 3
    assert _api(keys[0]).post("/api/games/", {}, format="json").status_code == 401
    assert _api(keys[-1]).post("/api/games/", {}, format="json").status_code == 400


def test_a_malformed_authorization_header_is_a_clear_401(players):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token two parts")
    response = api.post("/api/games/", {}, format="json")
    assert response.status_code == 401 and "one key" in response.json()["detail"]


def test_a_password_reset_revokes_every_api_token(players):
    """Issue 29: sessions end at a reset, and so do the tokens (up to 90 days otherwise)."""
    import re

    from django.core import mail
    from django.test import Client

    alice = players[0]
    api = APIClient()
    key = api.post("/api/token/", {"username": "alice", "password": "pw-for-tests-1"}
                   ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/games/?mine=1").status_code == 200
    assert api.post("/api/games/", {"ruleset": "tally", "title": "x"},
                    format="json").status_code != 401
    client = Client()
    client.post("/password-reset/", {"email": alice.email})
    link = re.search(r"https?://[^/\s]+(/password-reset/\S+)", mail.outbox[-1].body).group(1)
    chosen = client.get(link, follow=True)
    new = "a-new-pass-phrase-9"
    done = client.post(chosen.redirect_chain[-1][0], {"new_password1": new,
                                                      "new_password2": new})
    assert done.status_code == 302
    refused = api.post("/api/games/", {"ruleset": "tally", "title": "y"}, format="json")
    assert refused.status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()
