"""The page to come back to (`next`) survives the header's Log in / Sign up links and the
whole password reset, mail included; only a path of this site is ever kept."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db
NEW = "another-pass-phrase-7"
FOREIGN = ["https://evil.example/", "//evil.example/x", "/\\evil.example/", "lobbyx",
           "javascript:alert(1)"]


def _header_links(html: str) -> dict[str, str]:
    """{"Log in": href, "Sign up": href} of the site header."""
    nav = html.split('<nav aria-label="Site">', 1)[1].split("</nav>", 1)[0]
    return {text: href.replace("&amp;", "&")
            for href, text in re.findall(r'<a href="([^"]*)"[^>]*>(Log in|Sign up)</a>', nav)}


def test_the_header_links_come_back_to_the_page_they_were_followed_from():
    html = Client().get("/rules/combat_dice/?x=1").content.decode()
    assert _header_links(html) == {"Log in": "/login/?next=/rules/combat_dice/%3Fx%3D1",
                                   "Sign up": "/signup/?next=/rules/combat_dice/%3Fx%3D1"}
    # from the lobby there is nothing to come back to (it is where log-in leads anyway)
    assert _header_links(Client().get("/").content.decode()) == {
        "Log in": "/login/", "Sign up": "/signup/"}


def test_on_the_log_in_page_the_header_keeps_its_next():
    """Log in from a game, then "Sign up" in the header: still back to the game."""
    html = Client().get("/login/?next=/games/7/").content.decode()
    assert _header_links(html) == {"Log in": "/login/?next=/games/7/",
                                   "Sign up": "/signup/?next=/games/7/"}
    assert 'href="/password-reset/?next=/games/7/"' in html


@pytest.mark.parametrize("target", FOREIGN)
def test_a_foreign_next_is_never_passed_on_by_the_header(target):
    html = Client().get(f"/login/?next={quote(target)}").content.decode()
    assert _header_links(html) == {"Log in": "/login/", "Sign up": "/signup/"}


def _reset_link(message) -> str:
    return re.search(r"https?://[^/\s]+(/password-reset/\S+)", message.body).group(1)


def test_a_password_reset_from_a_game_leads_back_to_it(make_user):
    user = make_user("forgetful")
    client = Client()
    form = client.get("/password-reset/?next=/games/7/")
    assert 'name="next" value="/games/7/"' in form.content.decode()
    sent = client.post("/password-reset/?next=/games/7/", {"email": user.email})
    assert sent["Location"] == "/password-reset/sent/"
    link = _reset_link(mail.outbox[-1])
    assert link.endswith("/?next=/games/7/"), link
    chosen = client.get(link, follow=True)
    assert "Choose a new password" in chosen.content.decode()
    done = client.post(chosen.redirect_chain[-1][0], {"new_password1": NEW,
                                                      "new_password2": NEW})
    assert done["Location"] == "/password-reset/done/?next=%2Fgames%2F7%2F"
    page = client.get(done["Location"]).content.decode()
    assert 'href="/login/?next=/games/7/" id="login-again"' in page
    logged = client.post("/login/?next=/games/7/", {"username": "forgetful", "password": NEW,
                                                    "next": "/games/7/"})
    assert logged["Location"] == "/games/7/"


@pytest.mark.parametrize("target", FOREIGN)
def test_a_password_reset_keeps_no_foreign_page(make_user, target):
    user = make_user("forgetful")
    client = Client()
    client.post(f"/password-reset/?next={quote(target)}", {"email": user.email})
    link = _reset_link(mail.outbox[-1])
    assert "next" not in link and "evil" not in mail.outbox[-1].body
    # nor one slipped into the mailed link or the last page by hand
    chosen = client.get(f"{link}?next={quote(target)}", follow=True)
    done = client.post(chosen.redirect_chain[-1][0], {"new_password1": NEW,
                                                      "new_password2": NEW})
    assert done["Location"] == "/password-reset/done/"
    page = client.get(f"/password-reset/done/?next={quote(target)}").content.decode()
    assert 'href="/login/" id="login-again"' in page


def test_the_owner_of_a_taken_address_is_sent_back_to_the_page_too(make_user):
    """Signing up from a game with an address that has an account mails its owner a
    reset link: it leads back to that game as well."""
    make_user("first", email="taken@example.org")
    client = Client()
    client.post("/signup/?next=/games/7/invite/", {"username": "x",
                                                   "email": "taken@example.org"})
    assert _reset_link(mail.outbox[-1]).endswith("/?next=%2Fgames%2F7%2Finvite%2F")
    sent = client.get("/signup/sent/").content.decode()
    assert 'href="/password-reset/?next=/games/7/invite/"' in sent
