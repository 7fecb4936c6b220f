"""The guides in the site: /help/, /help/gm/ and each ruleset's players' help.

At 1280 and 375 px each renders with one h1, a contents list, no horizontal scrolling,
no critical or serious axe-core violation and nothing refused by the Content-Security-
Policy, and is photographed (var/screenshots/help-*.png). The order card's help link
follows the line being written, and an example line tapped in the help lands in the
game's order box.

With GM_DOCS_SCREENSHOT=1 the run also rewrites the README's picture, docs/screenshot.png
(a Dungeonquest game page as a player sees it), so it is regenerated, never drawn by hand.
"""

from __future__ import annotations

import os

import pytest

from .conftest import LAPTOP, PHONE, ROOT, axe_violations, login, overflow, screenshot
from .test_every_page import small_print

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
RULESETS = ("combat_dice", "duelists", "dice_age", "duel_of_ages", "dungeonquest")
PAGES = [("help-players", "/help/"), ("help-gm", "/help/gm/"),
         *((f"help-{name}", f"/rules/{name}/") for name in RULESETS)]


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_guides_read_at_both_widths(live_server, open_page, width):
    page = open_page(width)
    problems = []
    for name, path in PAGES:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        assert page.locator("h1").count() == 1, path
        assert page.locator("#contents a").count() >= 4, path
        wide, inner = overflow(page)
        if wide > inner:
            problems.append(f"{path}: {wide} px wide at {inner}")
        if width == PHONE:
            problems.extend(f"{path}: {p}" for p in small_print(page))
        for v in axe_violations(page):
            problems.append(f"{path}: {v['id']} ({v['impact']}) {v['nodes']}")
        if path.startswith("/rules/"):  # the order language is reached from the first screen
            top = page.evaluate("document.querySelector('#order-index a')"
                                ".getBoundingClientRect().bottom")
            if top > 800:
                problems.append(f"{path}: the order index ends at {top:.0f} px")
        screenshot(page, name, width)
    assert not problems, problems
    assert not page.csp_errors, page.csp_errors


def test_a_ruleset_help_shows_generated_tables_and_example_buttons(live_server, open_page):
    page = open_page(PHONE)
    page.goto(f"{live_server.url}/rules/dungeonquest/")
    assert page.locator("#guide table").count() >= 4  # heroes, monsters, rings, room deck
    assert "Sir Rohan" in page.inner_text("#heroes ~ .scroll")
    # every example line became a button (site JS, allowed by the policy)
    assert page.locator(".example-lines button[data-line='HERO RANGER KNIGHT']").count() == 1
    # a missing order anchor falls back on the order language
    page.goto(f"{live_server.url}/rules/dungeonquest/#order-nosuch")
    assert page.evaluate("document.getElementById('orders').getBoundingClientRect().top") < 400
    assert not page.csp_errors, page.csp_errors
    # the developers' README stays reachable
    page.goto(f"{live_server.url}/rules/dungeonquest/readme/")
    assert "for developers" in page.inner_text("#players-help")


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_order_card_links_to_the_order_being_written_and_examples_come_back(
        live_server, open_page, make_game, width):
    game = make_game("dungeonquest", 2, title="Help links")
    base = live_server.url
    page = open_page(width)
    login(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    link = page.locator("#rules-link")
    assert link.get_attribute("href").endswith(f"?game={game.pk}#orders")
    page.fill("#id_text", "HERO RANGER")
    page.click("#id_text")
    assert link.get_attribute("href").endswith(f"/rules/dungeonquest/?game={game.pk}#order-hero")
    assert "help on HERO" in link.inner_text()
    page.fill("#id_text", "")
    link.click()
    page.wait_for_url(f"**/rules/dungeonquest/?game={game.pk}#orders")
    page.click(".example-lines button[data-line='HERO RANGER KNIGHT']")
    assert "Added" in page.inner_text("#added")
    page.click("#added a")
    page.wait_for_url(f"**/games/{game.pk}/#orders")
    assert page.input_value("#id_text") == "HERO RANGER KNIGHT"
    screenshot(page, "help-example-added", width)
    assert not page.csp_errors, page.csp_errors


def test_the_readme_picture(live_server, open_page, make_game, play_defaults):
    """A game page as a player meets it; copied to docs/ when GM_DOCS_SCREENSHOT=1."""
    game = make_game("dungeonquest", 2, title="The Crypt of the Dragon")
    play_defaults(game)  # heroes chosen: the map and the first real turn's order card
    page = open_page(LAPTOP)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#id_text", "MOVE EAST\nIF MONSTER TROLL THEN ESCAPE ELSE ATTACK\n"
                          "IF LIFE < 5 THEN DRINK POTION")
    page.wait_for_selector("#live-preview :text('MOVE EAST')")  # the preview has answered
    path = screenshot(page, "readme-game", LAPTOP)
    top = page.evaluate("document.getElementById('orders').getBoundingClientRect().top"
                        " + window.scrollY")
    if os.environ.get("GM_DOCS_SCREENSHOT") == "1":
        page.screenshot(path=str(ROOT / "docs" / "screenshot.png"), full_page=True,
                        clip={"x": 0, "y": max(0, top - 16), "width": LAPTOP, "height": 820})
    assert path.stat().st_size > 10_000
