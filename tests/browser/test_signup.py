"""Sign-up in a real browser, on a phone: the form, the one "check your mail" answer, the
mailed link's page (password, and another username when the one asked for is taken),
then logged in on the lobby."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from .conftest import PHONE, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _ask(page, base: str, username: str, email: str) -> str:
    """Fill in the sign-up form; the path of the link mailed for it."""
    page.goto(f"{base}/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", email)
    page.click("main button[type=submit]")
    page.wait_for_selector("#signup-sent")
    assert email in page.inner_text("#signup-sent")
    return re.search(r"https?://[^/\s]+(/signup/confirm/\S+/)", mail.outbox[-1].body).group(1)


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
