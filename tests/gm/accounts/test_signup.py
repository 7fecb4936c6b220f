"""Self-service sign-up: nothing is created until the address is confirmed, the answer
never says whether an address (or a username) has an account, a rate limit per client
address and per mailed address, and the account made from the mailed link."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from gm.accounts import confirmation, signup

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-pass-phrase-9"


def _signup(client, name: str, email: str, path: str = "/signup/", **extra):
    return client.post(path, {"username": name, "email": email}, **extra)


def _link(message) -> str:
    """The path of the sign-up link in a mail."""
    return re.search(r"https?://[^/\s]+(/signup/c/\S+/)", message.body).group(1)


def _finish(client, link: str, username: str, password: str = PASSWORD):
    return client.post(link, {"username": username, "password1": password,
                              "password2": password})


CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def _seen(response) -> tuple:
    """What a response shows its reader: status, where it leads, the page's bytes (CSRF
    tokens, different on every page, blanked)."""
    return (response.status_code, response.get("Location"),
            CSRF.sub(b'name="csrfmiddlewaretoken" value=""', response.content))


def _probe(attacker_address: str) -> list[tuple]:
    """Everything an attacker sees when trying to learn whether victim@example.org has
    an account: sign up with a new username and that address, then the same username
    again (with the victim's address, and with their own), following every redirect."""
    from django.core.cache import cache

    cache.clear()  # each probe starts with the rate limits at zero
    client, seen = Client(), []
    seen.append(_seen(client.get("/signup/")))
    for email in ("victim@example.org", "victim@example.org", attacker_address):
        response = _signup(client, "probe", email)
        seen.append(_seen(response))
        seen.append(_seen(client.get(response["Location"])))
        seen.append(_seen(client.get("/signup/")))
    return seen


def test_the_enumeration_probe_sees_the_same_bytes_whether_the_address_has_an_account(
        make_user):
    without = _probe("me@example.net")
    assert not User.objects.filter(username="probe").exists()  # nothing was created
    make_user("victim", email="Victim@Example.org")
    with_account = _probe("me@example.net")
    assert without == with_account
    assert without[1][:2] == (302, "/signup/sent/")
    assert b"Check your mail" in without[2][2] and b"already" not in without[1][2]
    assert not User.objects.filter(username="probe").exists()


def test_an_existing_username_gets_the_same_answer_too(make_user):
    make_user("taken")
    mail.outbox.clear()
    a, b = Client(), Client()
    assert _seen(_signup(a, "taken", "one@example.org")) == \
        _seen(_signup(b, "free-name", "one@example.org"))
    assert _seen(a.get("/signup/sent/")) == _seen(b.get("/signup/sent/"))


def test_a_sign_up_creates_nothing_and_the_link_creates_the_account(client):
    response = _signup(client, "newbie", "Newbie@Example.org")
    assert response.status_code == 302 and response["Location"] == "/signup/sent/"
    assert not User.objects.filter(username="newbie").exists()
    assert "_auth_user_id" not in client.session
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Newbie@Example.org"]
    assert "newbie" in mail.outbox[0].body and "no account exists" in mail.outbox[0].body
    link = _link(mail.outbox[0])
    # Opening the link (a mail scanner may) shows the form and creates nothing yet.
    form = Client().get(link)
    assert form.status_code == 200 and not User.objects.filter(username="newbie").exists()
    page = form.content.decode()
    assert "Newbie@Example.org" in page and 'value="newbie"' in page
    assert 'id="username-taken"' not in page
    done = _finish(client, link, "newbie")
    assert done.status_code == 302 and done["Location"] == "/"
    user = User.objects.get(username="newbie")
    assert user.email == "Newbie@Example.org" and user.check_password(PASSWORD)
    assert confirmation.email_confirmed(user)  # the link proved the address
    assert client.session["_auth_user_id"] == str(user.pk)  # and logged in
    assert ">confirmed<" in client.get("/account/").content.decode()
    # Logging in later works as for any account.
    other = Client()
    assert other.post("/login/", {"username": "newbie", "password": PASSWORD}
                      ).status_code == 302 and other.session["_auth_user_id"]


def test_the_username_may_be_changed_and_the_password_is_checked(client):
    _signup(client, "first-choice", "who@example.org")
    link = _link(mail.outbox[0])
    weak = _finish(client, link, "first-choice", password="who")
    assert weak.status_code == 200 and "too short" in weak.content.decode()
    assert _finish(client, link, "second-choice").status_code == 302
    assert User.objects.get(email="who@example.org").username == "second-choice"


def test_a_username_taken_by_confirmation_time_is_said_and_another_chosen(make_user):
    """Two sign-ups ask for one name; the first to open its link gets it."""
    a, b = Client(), Client()
    _signup(a, "popular", "a@example.org")
    _signup(b, "popular", "b@example.org")
    link_a, link_b = (_link(m) for m in mail.outbox)
    assert _finish(a, link_a, "popular").status_code == 302
    page = b.get(link_b).content.decode()
    assert 'id="username-taken"' in page and "popular" in page and "choose another" in page
    refused = _finish(b, link_b, "POPULAR")  # usernames differ in more than case
    assert refused.status_code == 200
    assert "is taken by now; choose another" in refused.content.decode()
    assert _finish(b, link_b, "popular-too").status_code == 302
    assert User.objects.get(username="popular-too").email == "b@example.org"
    assert User.objects.get(username="popular").email == "a@example.org"


def test_a_username_taken_between_the_form_check_and_the_insert(client, monkeypatch):
    """The unique index settles a race the form's look-up missed: the form says so."""
    _signup(client, "racer", "racer@example.org")
    link = _link(mail.outbox[0])
    real, calls = signup.owner_of, []

    def meanwhile(email):  # create_account's look-up: another confirmation commits now
        calls.append(email)
        if len(calls) == 2:
            User.objects.create_user("racer", email="winner@example.org")
        return real(email)

    monkeypatch.setattr(signup, "owner_of", meanwhile)
    page = _finish(client, link, "racer")
    assert page.status_code == 200 and "taken a moment ago" in page.content.decode()
    assert User.objects.get(username="racer").email == "winner@example.org"


def test_a_link_used_twice_or_for_an_address_taken_since_makes_no_second_account(client):
    _signup(client, "once", "once@example.org")
    _signup(client, "twice", "ONCE@example.org")
    first, second = (_link(m) for m in mail.outbox)
    assert _finish(client, first, "once").status_code == 302
    for link in (first, second):
        again = Client().get(link)
        assert again.status_code == 409 and "has an account already" in again.content.decode()
        assert _finish(Client(), link, "twice").status_code == 409
    assert User.objects.filter(email__iexact="once@example.org").count() == 1


def test_a_confirmation_racing_another_for_the_same_address(client, monkeypatch):
    """Both links were opened before either account existed: the index refuses the
    second, which is told the address has an account."""
    _signup(client, "one", "same@example.org")
    _signup(client, "two", "same@example.org")
    first, second = (_link(m) for m in mail.outbox)
    page = Client().get(second)  # the second form, shown while the address was free
    assert page.status_code == 200
    assert _finish(client, first, "one").status_code == 302
    real, calls = signup.owner_of, []

    def late(email):  # the view's and create_account's look-ups ran before the commit
        calls.append(email)
        return None if len(calls) <= 2 else real(email)

    monkeypatch.setattr(signup, "owner_of", late)
    response = _finish(Client(), second, "two")
    assert response.status_code == 409 and "has an account already" in \
        response.content.decode()
    assert not User.objects.filter(username="two").exists()


def test_forged_damaged_and_expired_links_are_refused_with_the_reason(client):
    _signup(client, "late", "late@example.org")
    link = _link(mail.outbox[0])
    token = link.split("/")[-2]
    forged = signup.make_token("late", "someone@example.org").split(":")
    forged[-1] = "x" * len(forged[-1])
    for bad in ("/signup/confirm/nonsense/", f"/signup/confirm/{':'.join(forged)}/",
                f"/signup/confirm/{token[:-3]}/"):
        response = client.get(bad)
        assert response.status_code == 400, bad
        assert "is not valid" in response.content.decode()
        assert _finish(client, bad, "late").status_code == 400
    with time_machine.travel("2099-01-01", tick=False):
        response = client.get(link)
        assert response.status_code == 400 and "has expired" in response.content.decode()
        assert "sign up again" in response.content.decode()
        assert _finish(client, link, "late").status_code == 400
    assert not User.objects.filter(username="late").exists()
    # A token signed for something else (the old confirmation links) is not a sign-up.
    other = confirmation.make_token(User.objects.create_user("x", email="x@example.org"))
    assert client.get(f"/signup/confirm/{other}/").status_code == 400


def test_an_address_with_an_account_gets_a_note_to_its_owner_not_a_link(make_user):
    owner = make_user("first", email="taken@example.org")
    mail.outbox.clear()
    _signup(Client(), "third", "TAKEN@example.org")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [owner.email]
    body = mail.outbox[0].body
    assert "tried to create a new account" in body and "/signup/confirm/" not in body
    assert "first" in body  # the username, which the owner may have forgotten
    assert not User.objects.filter(username="third").exists()


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


def test_sign_up_is_rate_limited_per_client_address(client, settings):
    settings.GM_SIGNUP_LIMIT = 3
    for i in range(3):
        assert _signup(client, f"bot{i}", f"bot{i}@example.org").status_code == 302
    response = _signup(client, "bot3", "bot3@example.org")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "Too many sign-ups from your address" in response.content.decode()
    assert len(mail.outbox) == 3
    # Another client address is not affected.
    assert _signup(client, "human", "human@example.org",
                   REMOTE_ADDR="10.1.2.3").status_code == 302
    assert len(mail.outbox) == 4


def test_mail_to_one_address_is_capped_without_the_page_saying_so(settings):
    settings.GM_SIGNUP_LIMIT = 2
    answers = set()
    for i in range(4):  # from four client addresses, each under its own limit
        client = Client(REMOTE_ADDR=f"10.0.0.{i}")
        response = _signup(client, f"n{i}", "flooded@example.org")
        answers.add(_seen(response) + _seen(client.get("/signup/sent/")))
    assert len(answers) == 1
    assert len(mail.outbox) == 2


def test_the_invite_link_survives_sign_up_and_a_foreign_one_does_not(client):
    _signup(client, "guest", "guest@example.org", path="/signup/?next=/games/1/invite/")
    _signup(client, "guest2", "guest2@example.org",
            path="/signup/?next=https://evil.example/")
    assert "evil.example" not in mail.outbox[1].body
    assert _finish(client, _link(mail.outbox[0]), "guest")["Location"] == \
        "/games/1/invite/"
    assert _finish(Client(), _link(mail.outbox[1]), "guest2")["Location"] == "/"


# Accounts left unconfirmed by the former sign-up (which created the account at once)
# still confirm through /account/confirm/<token>/ and may ask for the link again.

def test_users_made_by_admins_fixtures_and_commands_count_as_confirmed(make_user):
    assert confirmation.email_confirmed(make_user("fixture"))
    admin = User.objects.create_superuser("root", "root@example.org", "pw-for-tests-1")
    assert confirmation.email_confirmed(admin)
    assert not confirmation.email_confirmed(User.objects.create_user("nomail"))


@pytest.fixture
def unconfirmed(make_user):
    user = make_user("older", email="older@example.org")
    confirmation.mark_unconfirmed(user)
    return user


def test_an_older_unconfirmed_account_confirms_with_its_link(client, unconfirmed):
    import gm.accounts

    assert gm.accounts.email_confirmed(unconfirmed) is False
    client.force_login(unconfirmed)
    assert "not confirmed yet" in client.get("/account/").content.decode()
    client.post("/account/confirm-again/")
    path = re.search(r"https?://[^/\s]+(/account/confirm/\S+/)", mail.outbox[0].body).group(1)
    assert client.get(path).status_code == 302
    assert gm.accounts.email_confirmed(unconfirmed) is True
    assert ">confirmed<" in client.get("/account/").content.decode()


def test_an_older_link_dies_when_it_expires_or_the_address_changes(client, unconfirmed):
    token = confirmation.make_token(unconfirmed)
    assert "not valid" in client.get("/account/confirm/nonsense/").content.decode()
    with time_machine.travel("2099-01-01", tick=False):
        response = client.get(f"/account/confirm/{token}/")
    assert response.status_code == 400 and "expired" in response.content.decode()
    User.objects.filter(pk=unconfirmed.pk).update(email="new@example.org")
    response = client.get(f"/account/confirm/{token}/")
    assert response.status_code == 400 and "no longer uses" in response.content.decode()
    assert not confirmation.email_confirmed(unconfirmed)


def test_the_link_can_be_sent_again_a_few_times(client, unconfirmed):
    client.force_login(unconfirmed)
    for _ in range(4):
        client.post("/account/confirm-again/")
    assert len(mail.outbox) == 3


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x",
                                    "/\\evil.example/", "lobbyx", "javascript:alert(1)"])
def test_only_a_path_of_this_site_is_kept_as_the_page_to_come_back_to(client, target):
    """The rule of the time-zone form (one function for both): a bare word is not a page
    of this site either (it redirected relative to the sign-up link)."""
    from urllib.parse import quote

    _signup(client, "guest", "guest@example.org", path=f"/signup/?next={quote(target)}")
    assert _finish(Client(), _link(mail.outbox[0]), "guest")["Location"] == "/"


def test_a_sign_up_link_opened_again_still_leads_to_the_invite(client):
    """Once the link has made the account, opening it again (the same browser, logged in,
    or another one) does not drop the page the sign-up came from: the logged-in reader
    goes there, another is offered to log in and then go there."""
    _signup(client, "guest", "guest@example.org", path="/signup/?next=/games/1/invite/")
    link = _link(mail.outbox[0])
    assert _finish(client, link, "guest")["Location"] == "/games/1/invite/"
    again = client.get(link)
    assert again.status_code == 302 and again["Location"] == "/games/1/invite/"
    elsewhere = Client().get(link)
    assert elsewhere.status_code == 409
    assert 'href="/login/?next=/games/1/invite/"' in elsewhere.content.decode()
    # Logged in as somebody else, the link is no way to their account: the page says so.
    other = Client()
    other.force_login(User.objects.create_user("other", email="other@example.org"))
    assert other.get(link).status_code == 409


def test_an_expired_link_offers_to_sign_up_again_for_the_same_page(client):
    _signup(client, "late", "late@example.org", path="/signup/?next=/games/1/invite/")
    link = _link(mail.outbox[0])
    with time_machine.travel("2099-01-01", tick=False):
        page = client.get(link).content.decode()
    assert 'href="/signup/?next=/games/1/invite/"' in page


@pytest.mark.parametrize("lookalike", ["аlice",  # Cyrillic а
                                       "ALİCE",  # dotted capital I
                                       "alicе",  # Cyrillic е
                                       "αlice",  # Greek alpha
                                       "a1ice", "ålice"])
def test_a_name_that_looks_like_an_existing_player_is_refused(make_user, lookalike):
    """Issue 29: usernames are how players tell each other apart."""
    make_user("alice")
    client = Client()
    _signup(client, lookalike, "new@example.org")
    link = _link(mail.outbox[-1])
    refused = _finish(client, link, lookalike)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "looks like the existing player alice" in page
    assert not User.objects.filter(email="new@example.org").exists()
    assert _finish(client, link, "alicia").status_code == 302  # a name of its own is fine
