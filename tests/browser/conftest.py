"""The browser harness: Debian's chromium through Playwright's sync API.

Enabled with GM_TEST_BROWSER=1 (.ci/run installs chromium and sets it); skipped otherwise.
Screenshots of each main page at 1280 and 375 px go to var/screenshots/ (or
$GM_SCREENSHOTS) so reviewers can look at them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("GM_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("GM_SCREENSHOTS", ROOT / "var" / "screenshots"))
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONE, LAPTOP = 375, 1280
PASSWORD = "pw-for-tests-1"


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module's tests (each test gets fresh contexts: no cookie,
    storage or cache passes from one test to the next); launching it for every test cost
    a second or two of CI's time each."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop; Django's ORM in this thread is still sync.
    with pytest.MonkeyPatch.context() as mp, sync_playwright() as pw:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """open_page(width=1280, **context_options) -> a new page in a fresh context."""
    contexts = []

    def make(width: int = LAPTOP, **options):
        context = browser.new_context(viewport={"width": width, "height": 800}, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.csp_errors = []  # the site's own scripts must never be refused by its policy
        page.on("console", lambda msg: "Content Security Policy" in msg.text
                and page.csp_errors.append(msg.text))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_page):
    return open_page(LAPTOP)


def login(page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.inner_text("#whoami") == username


def overflow(page) -> tuple[int, int]:
    """(document scrollWidth, window innerWidth): no horizontal scrolling when a <= b."""
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def axe_violations(page) -> list[dict]:
    """Critical and serious axe-core violations on the page (skips if axe is absent)."""
    if not AXE.is_file():
        pytest.skip(f"axe-core is not vendored at {AXE} (see tests/browser/vendor/README.md)")
    # Evaluated through the DevTools protocol, which the page's Content-Security-Policy
    # (no inline scripts) does not govern; a <script> tag would be refused by it.
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return [v for v in found if v["impact"] in ("critical", "serious")]


def screenshot(page, name: str, width: int) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
