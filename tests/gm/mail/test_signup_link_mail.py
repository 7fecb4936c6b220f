"""The sign-up mail over a real SMTP peer (issue 28): every line within 72 columns, the
link included, alone on its line, and the link from the received mail makes the account.

The link used to carry the whole sign-up signed (some 150 characters); it is now a short
token of a pending sign-up kept on the server (gm.accounts.pending)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from gm.textwidth import WIDTH

pytestmark = pytest.mark.django_db(transaction=True)

LONG_ADDRESS = "someone.with.a.fairly.long.address@a-mail-provider.example.org"


def _text(message) -> str:
    return message.get_body(("plain",)).get_content()


@pytest.mark.parametrize("site", ["https://gm.example.org",
                                  "https://play.game-master.example.org/"])
@pytest.mark.parametrize("username, address", [
    ("newcomer", "new@example.org"),
    ("newcomer-with-a-rather-long-name-indeed", LONG_ADDRESS)])
def test_no_line_of_the_sign_up_mail_is_wider_than_72_columns(smtp_sink, settings, site,
                                                               username, address):
    settings.SITE_URL = site
    Client().post("/signup/?next=/games/12/invite/", {"username": username,
                                                      "email": address})
    (mail,) = smtp_sink.to(address)
    lines = _text(mail).splitlines()
    wide = [line for line in lines if len(line) > WIDTH]
    assert not wide, wide
    (link,) = [line for line in lines if "://" in line]
    assert link == link.strip() and " " not in link  # alone on its line, whole
    assert re.fullmatch(re.escape(site.rstrip("/")) + r"/signup/c/[A-Za-z0-9_-]{22}/", link)
    # The address, the name and the page to come back to are in the database, not the link.
    assert address not in link and "invite" not in link


def test_the_link_from_the_received_mail_makes_the_account_once(smtp_sink, settings):
    settings.SITE_URL = "https://gm.example.org"
    Client().post("/signup/?next=/games/12/invite/", {"username": "arrival",
                                                      "email": "arrival@example.org"})
    (mail,) = smtp_sink.to("arrival@example.org")
    path = re.search(r"https://gm\.example\.org(/signup/c/\S+/)", _text(mail)).group(1)
    assert "works once" in " ".join(_text(mail).split())
    client = Client()
    assert client.get(path).status_code == 200
    done = client.post(path, {"username": "arrival", "password1": "a-long-pass-phrase-9",
                              "password2": "a-long-pass-phrase-9"})
    assert done.status_code == 302 and done["Location"] == "/games/12/invite/"
    assert get_user_model().objects.get(username="arrival").email == "arrival@example.org"
    again = Client().post(path, {"username": "arrival2", "password1": "a-long-pass-phrase-9",
                                 "password2": "a-long-pass-phrase-9"})
    assert again.status_code == 409  # the address has its account: no second one
    assert get_user_model().objects.filter(email__iexact="arrival@example.org").count() == 1
