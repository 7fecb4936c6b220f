"""Vacations and the "if you miss" line in a real browser, at 1280 and 375 px: a player
marks a vacation on the account (in their time zone), files "if I miss" orders on the
game's absence page, sees what a miss would play on the order card, and the other player
sees that they are away (never why)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.absence import actions as absence
from gm.absence.models import SeatAbsence, Vacation
from gm.play import actions

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page, width: int) -> None:
    w, inner = overflow(page)
    assert w <= inner, f"horizontal scrolling at {width}px: {w} > {inner}"


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_vacation_and_the_if_you_miss_line(live_server, open_page, gm_user, players,
                                           tally_engine, width):
    game = actions.create_game(gm_user, ruleset="tally", title="Away game",
                               options={"max_turns": 5})
    for user in players[:2]:
        actions.join_game(game, user)
    game = actions.start_game(game, gm_user)
    absence.configure(game, gm_user, {"grace_count": 1, "vacation_cap_days": 3})
    base = live_server.url
    bob = open_page(width)
    login(bob, base, "bob")

    # the order card says what a miss plays before anything is filed: the defaults
    bob.goto(f"{base}/games/{game.pk}/")
    assert bob.inner_text("#if-missed").startswith(
        "If you miss this deadline: the engine's default orders are played: ADD 1")

    # a vacation from the account page, in bob's own time zone (UTC here)
    bob.goto(f"{base}/account/")
    bob.click("#vacations-link")
    starts = timezone.now() + timedelta(days=1)
    bob.fill("#id_starts", starts.strftime("%Y-%m-%dT%H:%M"))
    bob.fill("#id_ends", (starts + timedelta(days=4)).strftime("%Y-%m-%dT%H:%M"))
    bob.click("#save-vacation")
    bob.wait_for_selector("#vacation-table")
    assert Vacation.objects.filter(user=players[1]).count() == 1
    _fits(bob, width)
    screenshot(bob, "absence-vacations", width)
    assert axe_violations(bob) == []

    # "if I miss" orders and the choice while away, on the game's absence page
    bob.goto(f"{base}/games/{game.pk}/")
    bob.click("#absence-link a")
    bob.fill("#id_if_miss_text", "ADD 7")
    bob.click("#save-absence")
    bob.wait_for_selector("#absence-seat-form .errorlist")
    assert "line 1" in bob.inner_text("#absence-seat-form .errorlist")
    bob.fill("#id_if_miss_text", "ADD 3")
    bob.check("input[name=away_choice][value=if_miss]")
    bob.click("#save-absence")
    bob.wait_for_selector("#if-missed")
    assert SeatAbsence.objects.get(seat__game=game, seat__name="P2").if_miss_text == "ADD 3"
    assert "Grace extensions left: 1" in bob.inner_text("#absence-mine")
    _fits(bob, width)
    screenshot(bob, "absence-game", width)
    assert axe_violations(bob) == []

    bob.goto(f"{base}/games/{game.pk}/")
    line = bob.inner_text("#if-missed")
    assert line.startswith('If you miss this deadline: your "if I miss" orders are played: '
                           "ADD 3")
    _fits(bob, width)
    screenshot(bob, "absence-order-card", width)

    # alice sees that bob is away and until when, with what plays: never why
    alice = open_page(width)
    login(alice, base, "alice")
    alice.goto(f"{base}/games/{game.pk}/")
    away = alice.inner_text("#away-lines")
    assert away.startswith("P2 is away from ") and "(their orders: if-I-miss orders)" in away
    _fits(alice, width)
    assert axe_violations(alice) == []
