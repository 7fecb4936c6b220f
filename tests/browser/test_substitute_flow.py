"""The substitute flow in a real browser at 1280 and 375 px: a player asks to leave (and
confirms), a volunteer sets their rulesets and takes the seat from the open-seats page,
the GM approves on the seats page, and the newcomer reads the briefing and their record.
No page scrolls sideways on a phone."""

from __future__ import annotations

import pytest

from gm.play import actions
from gm.substitutes.models import SeatOffer

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow, screenshot
from .test_every_page import small_print

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page) -> None:
    """No sideways scrolling, one h1, and no critical or serious axe-core violation."""
    scroll, inner = overflow(page)
    assert scroll <= inner, f"{page.url} scrolls sideways: {scroll} > {inner}"
    assert page.locator("h1").count() == 1, page.url
    assert axe_violations(page) == [], page.url
    if page.viewport_size["width"] == PHONE:
        assert small_print(page) == [], page.url


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_leave_volunteer_accept_approve_briefing(live_server, open_page, gm_user, players,
                                                 make_user, tally_engine, width):
    game = actions.create_game(gm_user, ruleset="tally", title="Substitute game",
                               options={"max_turns": 10, "target": 100})
    for user in players[:2]:
        actions.join_game(game, user)
    game = actions.start_game(game, gm_user)
    make_user("erin")
    base = live_server.url

    bob = open_page(width)
    login(bob, base, "bob")
    bob.goto(f"{base}/games/{game.pk}/")
    bob.click("#leave-link")
    bob.wait_for_selector("#leave-form")
    _fits(bob)
    bob.check("#confirm-leave")
    bob.click("#leave-confirm")
    bob.wait_for_selector("#live-offers")
    assert "its player is leaving" in bob.inner_text("#live-offers")
    _fits(bob)

    erin = open_page(width)
    login(erin, base, "erin")
    erin.goto(f"{base}/account/substitute/")
    erin.check("input[name=ruleset][value=tally]")
    erin.click("#volunteer-save")
    erin.wait_for_selector("#messages")
    assert "You volunteer as a substitute for: tally." in erin.inner_text("#messages")
    erin.goto(f"{base}/substitutes/")
    offer = SeatOffer.objects.get(game=game)
    _fits(erin)
    screenshot(erin, "substitute-open-seats", width)
    erin.click(f"#offer-{offer.pk} button.accept-offer")
    erin.wait_for_selector("#messages")
    assert "the GM decides" in erin.inner_text("#messages")

    gm = open_page(width)
    login(gm, base, "gamemaster")
    gm.goto(f"{base}/games/{game.pk}/seats/")
    _fits(gm)
    screenshot(gm, "substitute-seats-gm", width)
    gm.fill(f"#live-offer-{offer.pk} form:has(#approve-{offer.pk}) input[name=reason]",
            "welcome aboard")
    gm.click(f"#approve-{offer.pk}")
    gm.wait_for_selector("#messages")
    assert "erin now plays seat P2." in gm.inner_text("#messages")
    assert "took over as a substitute" in gm.inner_text("#seat-P2")

    erin.goto(f"{base}/games/{game.pk}/briefing/")
    for key in ("deadline", "view", "orders", "reports"):
        erin.wait_for_selector(f"#briefing-{key}")
    assert "Turn 1 is open" in erin.inner_text("#briefing-deadline")
    _fits(erin)
    screenshot(erin, "substitute-briefing", width)
    erin.goto(f"{base}/players/erin/")
    assert erin.inner_text("#rec-taken-over") == "1"
    _fits(erin)
