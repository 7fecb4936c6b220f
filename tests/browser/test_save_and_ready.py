"""Save beside ready on the order card (issue 28), at 1280 and 375 px: the last owed orders
saved leave the turn open and say "saved, not ready"; "Send and ready" then closes it."""

from __future__ import annotations

import pytest

from gm.play import actions
from gm.play.models import Game

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_save_then_ready(live_server, open_page, gm_user, players, tally_engine, width):
    game = actions.create_game(gm_user, ruleset="tally", title="Save and ready",
                               options={"max_turns": 2})
    for user in players[:2]:
        actions.join_game(game, user)
    game = actions.start_game(game, gm_user)
    actions.submit_orders(game, game.seat_of(players[1]), "ADD 1")  # bob: sent and ready
    base = live_server.url
    page = open_page(width)
    login(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")

    page.fill("#id_text", "ADD 2")
    page.click("#save-orders")
    page.wait_for_selector("#saved-state")
    assert "Orders saved for turn 1" in page.inner_text("#messages")
    assert "not ready" in page.inner_text("#messages")
    assert "Saved, not ready" in page.inner_text("#saved-state")
    assert "yours (P1): saved, not ready" in page.inner_text("#my-saved")
    assert Game.objects.get(pk=game.pk).current_turn().number == 1  # still open
    assert page.input_value("#id_text") == "ADD 2"
    w, inner = overflow(page)
    assert w <= inner, f"horizontal scrolling at {width}px: {w} > {inner}"
    assert axe_violations(page) == []
    screenshot(page, "orders-saved-not-ready", width)

    page.click("#send-orders")  # "Send and ready": the last owed, so the turn closes
    page.wait_for_selector("#messages:has-text('sent and ready')")
    assert "Every owed order was in" in page.inner_text("#messages")
    assert Game.objects.get(pk=game.pk).current_turn().number == 2
    assert page.locator("#my-saved").count() == 0
    screenshot(page, "orders-sent-and-ready", width)
