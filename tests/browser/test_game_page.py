"""The game page in a real browser: Debian's chromium driven by Playwright.

Enabled with GM_TEST_BROWSER=1 (.ci/run installs chromium and sets it); skipped otherwise.
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
    # Playwright's sync API runs an event loop; Django's ORM in this thread is still sync.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page()
        page.set_default_timeout(15000)
        yield page
        browser.close()


def _login(page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.inner_text("#whoami") == username


def test_log_in_order_error_and_report(live_server, page, gm_user, players, tmp_path,
                                       tally_engine):
    game = actions.create_game(gm_user, ruleset="tally", title="Browser game",
                               options={"max_turns": 2})
    actions.join_game(game, players[0])
    actions.start_game(game, gm_user)
    base = live_server.url

    _login(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    assert "P1" in page.inner_text("#owing")

    page.fill("#id_text", "ADD 2\nJUMP")
    page.click("#send-orders")
    errors = page.inner_text("#order-errors")
    assert "Line 2: unknown order 'JUMP'" in errors
    assert "nothing you had already sent was changed" in errors

    # A quick-pick button fills the textarea from the engine's decision prompt.
    page.fill("#id_text", "")
    page.click("button.secondary:has-text('ADD 3')")
    assert page.input_value("#id_text") == "ADD 3"
    page.click("#send-orders")
    page.wait_for_selector("#report-1")
    report = page.inner_text("#report-1")
    assert "P1 adds 3" in report and "your secret die" in report
    assert "Turn 2" in page.inner_text("#turn")
    page.screenshot(path=str(tmp_path / "game.png"), full_page=True)
