"""Short sign-up links (issue 28): a pending sign-up kept on the server under a random
token (hashed at rest), single use, expiring after GM_CONFIRM_DAYS and pruned later;
the former signed links still work until they expire."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from gm.accounts import pending, signup
from gm.accounts.models import PendingSignup

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-pass-phrase-9"


def _ask(client: Client, name: str, email: str, path: str = "/signup/") -> str:
    """Sign up; the path of the mailed link."""
    client.post(path, {"username": name, "email": email})
    return re.search(r"https?://[^/\s]+(/signup/c/\S+/)", mail.outbox[-1].body).group(1)


def _finish(client: Client, link: str, username: str):
    return client.post(link, {"username": username, "password1": PASSWORD,
                              "password2": PASSWORD})


def test_the_link_is_short_and_its_token_is_not_stored(client, settings):
    settings.SITE_URL = "https://gm.example.org"
    link = _ask(client, "shorty", "shorty@example.org", "/signup/?next=/games/3/invite/")
    token = link.split("/")[-2]
    assert len(token) == 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert len("https://gm.example.org" + link) < 72
    row = PendingSignup.objects.get()
    assert (row.username, row.email, row.next_url) == (
        "shorty", "shorty@example.org", "/games/3/invite/")
    assert token not in row.digest and row.digest == pending.digest(token)
    lasts = row.expires - row.created  # as long as the signed link did
    assert abs(lasts - timedelta(days=settings.GM_CONFIRM_DAYS)) < timedelta(seconds=5)
    # Two sign-ups, two different tokens.
    assert _ask(Client(), "shorty", "shorty@example.org") != link


def test_a_used_link_is_refused_with_a_clear_page(client):
    link = _ask(client, "once", "once@example.org")
    assert _finish(client, link, "once").status_code == 302
    assert PendingSignup.objects.get().used is not None
    # The account it made: on to where it was going; anyone else: "has an account".
    assert client.get(link).status_code == 302
    other = Client()
    assert other.get(link).status_code == 409
    assert _finish(other, link, "twice").status_code == 409
    # The account is gone since (deleted by an admin): the link still makes no second one.
    User.objects.filter(username="once").delete()
    for response in (Client().get(link), _finish(Client(), link, "thrice")):
        assert response.status_code == 410
        page = response.content.decode()
        assert "This sign-up link does not work" in page
        assert "has been used already" in page and 'href="/signup/"' in page
        assert 'href="/login/"' in page
    assert not User.objects.filter(email="once@example.org").exists()


def test_two_tabs_posting_one_link_make_one_account(client, monkeypatch):
    """Both forms were shown while the link was unused; the second post finds it spent
    (the row is marked in the account's transaction) and is told so."""
    link = _ask(client, "tabs", "tabs@example.org")
    real = signup.owner_of
    monkeypatch.setattr(signup, "owner_of", lambda email: None)  # both passed that check
    assert _finish(Client(), link, "tabs").status_code == 302
    refused = _finish(Client(), link, "tabs-again")
    assert refused.status_code == 410 and "used already" in refused.content.decode()
    monkeypatch.setattr(signup, "owner_of", real)
    assert list(User.objects.filter(email="tabs@example.org").values_list(
        "username", flat=True)) == ["tabs"]


def test_a_refused_account_leaves_the_link_usable(client, make_user):
    """A weak password or a look-alike name is refused on the form: the link is not spent."""
    make_user("alice")
    link = _ask(client, "аlice", "new@example.org")  # Cyrillic а
    refused = _finish(client, link, "аlice")
    assert refused.status_code == 200
    assert "looks like the existing player alice" in refused.content.decode()
    assert PendingSignup.objects.get().used is None
    assert _finish(client, link, "alicia").status_code == 302


def test_expired_unknown_and_damaged_links_are_refused_with_the_reason(client, settings):
    link = _ask(client, "late", "late@example.org", "/signup/?next=/games/1/invite/")
    with time_machine.travel(timezone.now() + timedelta(days=settings.GM_CONFIRM_DAYS,
                                                        minutes=1)):
        for response in (client.get(link), _finish(client, link, "late")):
            assert response.status_code == 400
            page = response.content.decode()
            assert "has expired" in page and "sign up again" in page
            assert 'href="/signup/?next=/games/1/invite/"' in page
    for bad in (link[:-4] + "/", "/signup/c/" + "A" * 22 + "/", "/signup/c/" + "x" * 300 + "/"):
        response = client.get(bad)
        assert response.status_code == 400, bad
        assert "is not valid" in response.content.decode()
        assert _finish(client, bad, "late").status_code == 400
    assert not User.objects.filter(username="late").exists()


def test_expired_rows_are_pruned_by_the_next_sign_up_and_by_the_command(client, settings):
    days = settings.GM_CONFIRM_DAYS
    old = _ask(client, "old", "old@example.org")
    _ask(Client(), "older", "older@example.org")
    later = timezone.now() + timedelta(days=days) + pending.KEEP_AFTER_EXPIRY + \
        timedelta(hours=1)
    with time_machine.travel(later):
        _ask(Client(REMOTE_ADDR="10.9.9.9"), "fresh", "fresh@example.org")
        assert list(PendingSignup.objects.values_list("username", flat=True)) == ["fresh"]
        page = client.get(old)  # forgotten: said as such
        assert page.status_code == 400 and "so old that it is forgotten" in \
            page.content.decode()
    with time_machine.travel(later + timedelta(days=days, hours=1) + pending.KEEP_AFTER_EXPIRY):
        out = StringIO()
        call_command("prune_signups", stdout=out)
        assert out.getvalue().strip() == "1 expired pending sign-up deleted"
    assert not PendingSignup.objects.exists()


def test_a_page_to_come_back_to_too_long_to_keep_is_dropped(client):
    link = _ask(client, "far", "far@example.org", "/signup/?next=/games/1/" + "x" * 2100)
    assert PendingSignup.objects.get().next_url == ""
    assert _finish(client, link, "far")["Location"] == "/"


def test_a_mail_that_could_not_be_sent_leaves_no_pending_row(monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("no mail server")

    monkeypatch.setattr(signup, "send_mail", broken)
    Client().post("/signup/", {"username": "lost", "email": "lost@example.org"})
    assert not PendingSignup.objects.exists()


def test_a_former_signed_link_still_works_until_it_expires(client, settings):
    """Links mailed before the short ones (a mail in flight at the upgrade)."""
    link = signup.signed_url("before", "before@example.org", "/games/2/invite/")
    path = link.split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + path).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=settings.GM_CONFIRM_DAYS + 1)):
        assert "has expired" in Client().get("/" + path).content.decode()
    done = _finish(client, "/" + path, "before")
    assert done.status_code == 302 and done["Location"] == "/games/2/invite/"
    assert User.objects.get(username="before").email == "before@example.org"
