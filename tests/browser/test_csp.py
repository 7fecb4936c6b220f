"""The Content-Security-Policy in a real browser: pages work and nothing is blocked.

Chromium reports every blocked script, handler or style on the console; the game page
(quick picks run from site.js), the GM's amend form (an inline handler allowed by its
hash) and the API docs must produce none.
"""

from __future__ import annotations

import os

import pytest

from gm.play import actions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
CHROMIUM = os.environ.get("GM_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def page(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page()
        page.set_default_timeout(15000)
        page.violations = []
        page.on("console", lambda m: page.violations.append(m.text)
                if "Content Security Policy" in m.text else None)
        yield page
        browser.close()


def _login(page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_selector("#whoami")


def test_pages_work_under_the_policy(live_server, page, gm_user, players, tally_engine):
    game = actions.create_game(gm_user, ruleset="tally", title="CSP game")
    actions.join_game(game, players[0])
    actions.start_game(game, gm_user)
    base = live_server.url

    _login(page, base, "alice")
    response = page.goto(f"{base}/games/{game.pk}/")
    assert "script-src" in response.headers["content-security-policy"]
    page.click("#quick-picks button:has-text('ADD 2')")  # site.js, a script file
    assert page.input_value("#id_text") == "ADD 2"
    # The GM's amend form: its one inline handler (allowed by hash) reloads the form.
    page.context.clear_cookies()
    _login(page, base, gm_user.username)
    page.goto(f"{base}/games/{game.pk}/gm/amend/")
    with page.expect_navigation():
        page.dispatch_event("select[name=turn]", "change")
    assert "turn=1" in page.url
    page.goto(f"{base}/api/docs/")
    page.wait_for_selector(".swagger-ui .info")  # the docs' start-up script ran
    assert page.violations == []
