"""Sign-up in a real browser, on a phone: the form, the one "check your mail" answer, the
mailed link's page (password, and another username when the one asked for is taken),
then logged in on the lobby."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from .conftest import LAPTOP, PHONE, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _ask(page, base: str, username: str, email: str) -> str:
    """Fill in the sign-up form; the path of the link mailed for it."""
    page.goto(f"{base}/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", email)
    page.click("main button[type=submit]")
    page.wait_for_selector("#signup-sent")
    assert email in page.inner_text("#signup-sent")
    return re.search(r"https?://[^/\s]+(/signup/c/\S+/)", mail.outbox[-1].body).group(1)


def test_sign_up_by_the_mailed_link_with_a_name_taken_meanwhile(live_server, open_page,
                                                                 make_user):
    base, page = live_server.url, open_page(PHONE)
    link = _ask(page, base, "newcomer", "newcomer@example.org")
    make_user("newcomer", email="other@example.org")  # another confirms the name first
    page.goto(base + link)
    assert "newcomer" in page.inner_text("#username-taken")
    page.fill("#id_username", "newcomer2")
    page.fill("#id_password1", "a-long-pass-phrase-9")
    page.fill("#id_password2", "a-long-pass-phrase-9")
    page.click("#signup-confirm button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.inner_text("#whoami") == "newcomer2"
    assert "your account is made" in page.inner_text("#messages")
    width, viewport = overflow(page)
    assert width <= viewport


def test_sign_up_from_a_game_page_lands_back_on_it(live_server, open_page, make_game):
    """A reader of a running game follows the header's "Sign up": once the mailed link has
    made the account, the browser is back on that game's page."""
    game = make_game("combat_dice", 2, title="Watched fight")
    base, page = live_server.url, open_page(PHONE)
    page.goto(f"{base}/games/{game.pk}/")
    page.click("#signup-link")
    page.fill("#id_username", "watcher")
    page.fill("#id_email", "watcher@example.org")
    page.click("main button[type=submit]")
    page.wait_for_selector("#signup-sent")
    link = re.search(r"https?://[^/\s]+(/signup/c/\S+/)", mail.outbox[-1].body).group(1)
    page.goto(base + link)
    page.fill("#id_password1", "a-long-pass-phrase-9")
    page.fill("#id_password2", "a-long-pass-phrase-9")
    page.click("#signup-confirm button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.url == f"{base}/games/{game.pk}/"
    assert "Watched fight" in page.inner_text("h1")


def test_a_forgotten_password_from_a_game_page_leads_back_to_it(live_server, open_page,
                                                                 make_game):
    """Log in (header) → Forgot your password? → the mailed link → new password → Log in:
    back on the game the player started from."""
    game = make_game("combat_dice", 2, title="My fight")
    base, page = live_server.url, open_page(PHONE)
    page.goto(f"{base}/games/{game.pk}/")
    page.click("header >> text=Log in")
    page.click("text=Forgot your password?")
    page.fill("#id_email", "alice@example.org")
    page.click("main button[type=submit]")
    page.wait_for_url("**/password-reset/sent/")
    link = re.search(r"https?://[^/\s]+(/password-reset/\S+)", mail.outbox[-1].body).group(1)
    page.goto(base + link)
    page.fill("#id_new_password1", "another-pass-phrase-7")
    page.fill("#id_new_password2", "another-pass-phrase-7")
    page.click("main button[type=submit]")
    page.click("#login-again")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "another-pass-phrase-7")
    page.click("main button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.url == f"{base}/games/{game.pk}/"


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
def test_a_used_or_expired_sign_up_link_says_so_plainly(live_server, open_page, make_user,
                                                        settings, width):
    """Issue 28's short links work once and for GM_CONFIRM_DAYS: a spent one (its account
    gone since) and an expired one each get a page that says which, and what to do."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from gm.accounts.models import PendingSignup

    base, page = live_server.url, open_page(width)
    used = _ask(page, base, "spent", "spent@example.org")
    expired = _ask(page, base, "tardy", "tardy@example.org")
    page.goto(base + used)
    page.fill("#id_password1", "a-long-pass-phrase-9")
    page.fill("#id_password2", "a-long-pass-phrase-9")
    page.click("#signup-confirm button[type=submit]")
    page.wait_for_selector("#whoami")
    get_user_model().objects.filter(username="spent").delete()  # an admin removed it
    PendingSignup.objects.filter(username="tardy").update(
        expires=timezone.now() - timedelta(minutes=1))
    for name, link, says in (("used", used, "has been used already"),
                             ("expired", expired, "has expired")):
        page.goto(base + link)
        assert "This sign-up link does not work" in page.inner_text("h1")
        assert says in page.inner_text("#signup-error")
        assert page.locator("main a", has_text="Sign up again").count() == 1
        width_now, viewport = overflow(page)
        assert width_now <= viewport
        screenshot(page, f"signup-{name}-link", width)
