"""Orders for a turn that takes no more are refused with the reason as it happened: its
deadline passed, the GM forced it, or every seat was in (and a held turn says so); a
turn number nobody could have been sent (a hand-edited form) is named as such."""

from __future__ import annotations

from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from gm.play import actions
from gm.play.errors import ActionError, LateOrders, TurnClosed
from gm.play.models import Game, Turn
from gm.referee import actions as referee

pytestmark = pytest.mark.django_db


def _seat(game, name):
    return game.seats.select_related("user").get(name=name)


def test_a_turn_past_its_deadline(make_game):
    game = make_game("tally", 2)
    Turn.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(LateOrders, match="^the deadline for turn 1 has passed; those orders"):
        actions.submit_orders(game, _seat(game, "P1"), "ADD 1", turn_number=1)


def test_a_turn_closed_early_because_everyone_was_in(make_game, on_commit):
    game = make_game("tally", 2, options={"target": 100})
    for name in ("P1", "P2"):
        with on_commit():
            actions.submit_orders(game, _seat(game, name), "ADD 1", turn_number=1)
    with pytest.raises(TurnClosed) as caught:
        actions.submit_orders(game, _seat(game, "P1"), "ADD 2", turn_number=1)
    message = caught.value.message
    assert message.startswith("turn 1 closed early: every seat's orders were in; those "
                              "orders were not kept."), message
    assert "deadline" not in message and "Turn 2 is open now" in message


def test_a_turn_the_gm_forced(make_game, gm_user):
    game = make_game("tally", 2)
    referee.force_resolution(game, gm_user, "P2 is away")
    for number in (None, 1):
        with pytest.raises(TurnClosed) as caught:
            actions.submit_orders(game, _seat(game, "P1"), "ADD 1", turn_number=number)
        assert caught.value.message.startswith(
            "the GM closed turn 1 early for resolution; those orders were not kept."), \
            caught.value.message


def test_a_turn_held_for_review_says_so(make_game, on_commit):
    game = make_game("tally", 2, options={"target": 100}, hold_for_review=True)
    for name in ("P1", "P2"):
        with on_commit():
            actions.submit_orders(game, _seat(game, name), "ADD 1")
    assert Turn.objects.get(game=game, number=1).status == Turn.Status.HELD
    with pytest.raises(TurnClosed) as caught:
        actions.submit_orders(game, _seat(game, "P1"), "ADD 2")
    assert caught.value.message.startswith(
        "turn 1 closed early: every seat's orders were in (its report waits for the GM's "
        "review); those orders were not kept."), caught.value.message


@pytest.mark.parametrize("number", [0, -1])
def test_a_turn_number_that_cannot_be(make_game, number):
    game = make_game("tally", 2)
    with pytest.raises(ActionError) as caught:
        actions.submit_orders(game, _seat(game, "P1"), "ADD 1", turn_number=number)
    assert not isinstance(caught.value, LateOrders)
    assert caught.value.message == (f"there is no turn {number}: turns are numbered from 1, "
                                    "and the current turn is 1")
    web = Client()
    web.force_login(_seat(game, "P1").user)
    resp = web.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": number})
    page = unescape(web.get(resp["Location"]).content.decode())
    assert f"there is no turn {number}: turns are numbered from 1" in page
    assert "turn -1" not in page.replace(f"turn {number}:", "") if number == -1 else True


def test_a_paused_turn_says_paused_with_or_without_its_number(make_game, gm_user):
    game = make_game("tally", 2)
    referee.pause(game, gm_user, "lunch")
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED
    for number in (None, 1):
        with pytest.raises(ActionError, match="the GM has paused this game"):
            actions.submit_orders(game, _seat(game, "P1"), "ADD 1", turn_number=number)
