"""Self-service sign-up: unique address, confirmation by link, a rate limit per address."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail

from gm.accounts import confirmation

pytestmark = pytest.mark.django_db
User = get_user_model()


def _signup(client, name: str, email: str, **extra):
    return client.post("/signup/", {"username": name, "email": email,
                                    "password1": "a-long-pass-phrase-9", "password2":
                                    "a-long-pass-phrase-9"}, **extra)


def _link(message) -> str:
    return re.search(r"https?://\S+/account/confirm/\S+/", message.body).group(0)


def test_a_sign_up_starts_unconfirmed_and_the_link_confirms_it(client):
    response = _signup(client, "newbie", "Newbie@Example.org")
    assert response.status_code == 302 and response["Location"] == "/account/"
    user = User.objects.get(username="newbie")
    assert not confirmation.email_confirmed(user)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Newbie@example.org"]
    page = client.get("/account/").content.decode()
    assert "not confirmed yet" in page
    path = _link(mail.outbox[0]).split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + path).status_code == 302
    assert confirmation.email_confirmed(user)
    assert ">confirmed<" in client.get("/account/").content.decode()


def test_users_made_by_admins_fixtures_and_commands_count_as_confirmed(make_user):
    assert confirmation.email_confirmed(make_user("fixture"))
    admin = User.objects.create_superuser("root", "root@example.org", "pw-for-tests-1")
    assert confirmation.email_confirmed(admin)
    assert not confirmation.email_confirmed(User.objects.create_user("nomail"))


def test_the_mail_code_has_one_function_to_ask(client, make_user):
    import gm.accounts

    _signup(client, "fresh", "fresh@example.org")
    assert gm.accounts.email_confirmed(make_user("old")) is True
    assert gm.accounts.email_confirmed(User.objects.get(username="fresh")) is False
    inactive = make_user("gone")
    inactive.is_active = False
    assert gm.accounts.email_confirmed(inactive) is False


def test_the_address_must_be_unique_whatever_its_case(client, make_user):
    make_user("first", email="taken@example.org")
    response = _signup(client, "second", "TAKEN@example.org")
    assert response.status_code == 200
    assert "An account with this e-mail address already exists" in response.content.decode()
    assert not User.objects.filter(username="second").exists()


def test_a_bad_or_expired_link_is_refused_with_the_reason(client):
    _signup(client, "late", "late@example.org")
    link = _link(mail.outbox[0]).split("/account/", 1)[1]
    assert "not valid" in client.get("/account/confirm/nonsense/").content.decode()
    with time_machine.travel("2099-01-01", tick=False):
        response = client.get("/account/" + link)
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert not confirmation.email_confirmed(User.objects.get(username="late"))


def test_a_link_dies_when_the_address_changes(client):
    _signup(client, "mover", "old@example.org")
    link = _link(mail.outbox[0]).split("/account/", 1)[1]
    User.objects.filter(username="mover").update(email="new@example.org")
    response = client.get("/account/" + link)
    assert response.status_code == 400 and "no longer uses" in response.content.decode()


def test_sign_up_is_rate_limited_per_address(client, settings):
    settings.GM_SIGNUP_LIMIT = 3
    for i in range(3):
        assert _signup(client, f"bot{i}", f"bot{i}@example.org").status_code == 302
        client.logout()
    response = _signup(client, "bot3", "bot3@example.org")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "Too many new accounts from your address" in response.content.decode()
    assert not User.objects.filter(username="bot3").exists()
    # Another address is not affected.
    assert _signup(client, "human", "human@example.org",
                   REMOTE_ADDR="10.1.2.3").status_code == 302


def test_the_link_can_be_sent_again_a_few_times(client):
    _signup(client, "again", "again@example.org")
    for _ in range(3):
        client.post("/account/confirm-again/")
    assert len(mail.outbox) == 4
    client.post("/account/confirm-again/")
    assert len(mail.outbox) == 4
