"""A three-seat GM-adjudicated game over two turns in a real browser, at 1280 and 375 px:
players order on the game page, the GM reads every seat's orders side by side at the
adjudication desk, drafts with a live preview, rolls dice into the draft, publishes;
each seat reads the report and its own private sheet; turn 2 shows a missing seat."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from gm.play import actions
from gm.play.models import Game, Turn

from .conftest import LAPTOP, PHONE, axe_violations, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = "France, England, Germany"


def _signed_in(open_page, base: str, user, width: int):
    page = open_page(width)
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    return page


def _fits(page, what: str) -> None:
    width, inner = overflow(page)
    assert width <= inner, f"{what}: the page scrolls sideways ({width} > {inner})"


def _order(page, base: str, game: Game, text: str) -> None:
    page.goto(f"{base}/games/{game.pk}/")
    page.fill("#id_text", text)
    page.click("#send-orders")
    page.wait_for_selector("#messages")
    assert "Orders accepted" in page.inner_text("#messages")


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_three_seats_two_turns_at_the_desk(live_server, open_page, make_game, gm_user, width):
    base = live_server.url
    game = make_game("gm_adjudicated", 3, options={"seats": SEATS, "reveal": "after_turn"})
    seats = {s.name: s.user for s in game.seats.select_related("user")}
    pages = {name: _signed_in(open_page, base, user, width) for name, user in seats.items()}
    gm = _signed_in(open_page, base, gm_user, width)

    # turn 1: everyone orders; the last order closes the orders and the turn waits
    for name, text in (("France", "Army Paris to Burgundy"),
                       ("England", "Fleet London to the Channel"),
                       ("Germany", "Army Munich holds")):
        _order(pages[name], base, game, text)
    gm.goto(f"{base}/games/{game.pk}/adjudicate/")
    cards = gm.locator("#orders article.adj-seat")
    assert cards.count() == 3
    assert "Army Paris to Burgundy" in gm.inner_text("#orders")
    _fits(gm, "the desk")
    assert gm.locator("h1").count() == 1
    assert axe_violations(gm) == []
    screenshot(gm, "gm-adjudicated-desk", width)

    # live preview as the GM types (nothing saved)
    gm.fill("#draft-text", "Burgundy is contested: {battle}.\n@sheet France\nArmies: 3")
    gm.locator("#preview-reports details[data-reader=public]",
               has_text="Burgundy is contested").wait_for()
    # a roll into the draft (the form saves the text with it)
    gm.fill("#roll-label", "battle")
    gm.fill("#roll-what", "2d6+1")
    gm.click("#roll-button")
    gm.wait_for_selector("#messages")
    assert "Rolled battle" in gm.inner_text("#messages")
    rolled = gm.inner_text("#rolls")
    assert "battle" in rolled
    preview = gm.inner_text("#preview-reports")
    assert "Burgundy is contested: " in preview and "{battle}" not in preview
    gm.click("#publish")
    gm.wait_for_selector("#messages")
    assert "is published" in gm.inner_text("#messages")
    game.refresh_from_db()

    # each seat reads the report; France its own sheet, England none of it
    france = pages["France"]
    france.goto(f"{base}/games/{game.pk}/")
    body = france.inner_text("main")
    assert "Burgundy is contested" in body and "Armies: 3" in body
    _fits(france, "France's page after the report")
    screenshot(france, "gm-adjudicated-sheet", width)
    england = pages["England"]
    england.goto(f"{base}/games/{game.pk}/")
    assert "Armies: 3" not in england.inner_text("main")
    assert "Army Paris to Burgundy" in england.inner_text("main")  # revealed after the turn

    # turn 2: Germany misses the deadline; the desk marks it
    _order(france, base, game, "Army Burgundy holds")
    _order(england, base, game, "Fleet Channel holds")
    actions.mark_due(Turn.objects.get(game=game, status=Turn.Status.OPEN))
    gm.goto(f"{base}/games/{game.pk}/adjudicate/")
    missing = gm.locator("#orders article.adj-seat.missing")
    assert missing.count() == 1 and "Germany" in missing.inner_text()
    gm.fill("#draft-text", "Quiet on all fronts.\n@end")
    gm.click("#publish")
    gm.wait_for_selector("#messages")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
