"""Self-service sign-up: unique address (in the database), confirmation by link, a rate
limit per address, and an answer that never says whether an address has an account."""

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
    assert response.status_code == 302 and response["Location"] == "/signup/sent/"
    assert "_auth_user_id" not in client.session  # logging in would tell the cases apart
    user = User.objects.get(username="newbie")
    client.force_login(user)
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


def _answer(client, name: str, email: str) -> tuple[int, str, str]:
    """What the person signing up sees: status, where it leads, and that page."""
    response = _signup(client, name, email)
    page = client.get(response["Location"]).content.decode()
    return response.status_code, response["Location"], page.replace(email, "<address>")


def test_sign_up_answers_the_same_whether_or_not_the_address_has_an_account(make_user):
    from django.test import Client

    owner = make_user("first", email="taken@example.org")
    mail.outbox.clear()
    new = _answer(Client(), "second", "free@example.org")
    taken = _answer(Client(), "third", "TAKEN@example.org")
    assert new == taken
    assert new[:2] == (302, "/signup/sent/") and "Check your mail" in new[2]
    assert "already exists" not in taken[2]
    # No second account on the address; its owner is told, with a way back in.
    assert not User.objects.filter(username="third").exists()
    assert User.objects.filter(email__iexact="taken@example.org").count() == 1
    to_owner = [m for m in mail.outbox if m.to == [owner.email]]
    assert len(to_owner) == 1 and "tried to create a new account" in to_owner[0].body
    assert "first" in to_owner[0].body  # the username, which the owner may have forgotten


def test_the_owner_s_mail_resets_the_password(client, make_user):
    make_user("first", email="taken@example.org")
    mail.outbox.clear()
    _signup(client, "third", "Taken@Example.org")
    link = re.search(r"https?://\S+(/password-reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "another-pass-phrase-7",
                                                    "new_password2": "another-pass-phrase-7"})
    assert done.status_code == 302
    logged = client.post("/login/", {"username": "first", "password": "another-pass-phrase-7"})
    assert logged.status_code == 302 and client.session["_auth_user_id"]


def test_the_database_keeps_one_account_per_address_whatever_its_case(make_user):
    from django.db import IntegrityError, transaction

    make_user("first", email="taken@example.org")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("second", email="TAKEN@Example.ORG")
    User.objects.create_user("no-mail-1")  # empty addresses are not one address
    User.objects.create_user("no-mail-2")


def test_a_sign_up_racing_another_with_the_same_address_makes_no_second_account(
        client, make_user, monkeypatch):
    """The form check saw a free address; the index refuses the second row."""
    from gm.accounts import signup

    real, calls = signup.owner_of, []

    def first_look_misses(email):  # the other sign-up commits between check and insert
        calls.append(email)
        return None if len(calls) == 1 else real(email)

    monkeypatch.setattr(signup, "owner_of", first_look_misses)
    make_user("winner", email="race@example.org")
    mail.outbox.clear()
    response = _signup(client, "loser", "Race@example.org")
    assert response["Location"] == "/signup/sent/"
    assert not User.objects.filter(username="loser").exists()
    assert "tried to create a new account" in mail.outbox[0].body


def test_the_migration_resolves_existing_duplicates_without_deleting_anyone(make_user):
    import importlib

    from django.apps import apps
    from django.db import IntegrityError, connection, transaction
    from django.utils import timezone

    from gm.accounts import emailindex

    step = importlib.import_module("gm.accounts.migrations.0003_unique_email_lowercase")
    with connection.cursor() as cursor:  # the database as it was before 0003
        cursor.execute(emailindex.drop_sql())
    old = make_user("old", email="dup@example.org")
    recent = make_user("recent", email="DUP@example.org")
    never = make_user("never", email="Dup@Example.org")
    alone = make_user("alone", email="alone@example.org")
    User.objects.filter(pk=old.pk).update(last_login=timezone.now() - timezone.timedelta(9))
    User.objects.filter(pk=recent.pk).update(last_login=timezone.now())
    step.resolve_duplicates(apps, None)
    emailindex.ensure(connection, User)  # what migrate does next
    emails = dict(User.objects.values_list("username", "email"))
    assert emails["recent"] == "DUP@example.org"  # logged in last: keeps it
    assert emails["old"] == emails["never"] == ""
    assert emails["alone"] == "alone@example.org"
    assert User.objects.filter(pk__in=[old.pk, never.pk, alone.pk]).count() == 3
    with pytest.raises(IntegrityError), transaction.atomic():  # the index is back
        User.objects.filter(pk=old.pk).update(email="dup@EXAMPLE.org")


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
    response = _signup(client, "bot3", "bot3@example.org")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "Too many new accounts from your address" in response.content.decode()
    assert not User.objects.filter(username="bot3").exists()
    # Another address is not affected.
    assert _signup(client, "human", "human@example.org",
                   REMOTE_ADDR="10.1.2.3").status_code == 302


def test_the_link_can_be_sent_again_a_few_times(client):
    _signup(client, "again", "again@example.org")
    client.force_login(User.objects.get(username="again"))
    for _ in range(3):
        client.post("/account/confirm-again/")
    assert len(mail.outbox) == 4
    client.post("/account/confirm-again/")
    assert len(mail.outbox) == 4
