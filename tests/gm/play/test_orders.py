"""gm.play.actions.orders: orders stored as versions with receipts and errors; late orders
refused with the reason.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core.types import OrdersInvalid
from gm.play import actions
from gm.play.errors import Conflict, LateOrders
from gm.play.models import Turn

pytestmark = pytest.mark.django_db


def _seat(game, user):
    return game.seat_of(user)


def test_orders_versions_receipts_and_errors(make_game, players):
    game = make_game("tally", 2, process_early=False)
    seat = _seat(game, players[0])
    first = actions.submit_orders(game, seat, "add 2  # careful")
    assert first.version == 1 and len(first.receipt) == 64
    with pytest.raises(OrdersInvalid) as exc:
        actions.submit_orders(game, seat, "ad 2")
    assert [(e.line, e.message, e.hint) for e in exc.value.errors] == [
        (1, "unknown order 'ad'", "did you mean ADD?")]
    # The accepted version is untouched by the rejected one.
    assert actions.my_orders(game, seat) == first
    second = actions.submit_orders(game, seat, "ADD 3")
    assert second.version == 2 and second.receipt != first.receipt
    again = actions.submit_orders(game, seat, "add   3")
    assert again.receipt == second.receipt  # same orders, same receipt
    withdrawn = actions.withdraw_orders(game, seat)
    assert withdrawn.withdrawn and withdrawn.version == 4
    with pytest.raises(Conflict, match="no orders to withdraw"):
        actions.withdraw_orders(game, seat)
    assert game.current_turn().submissions.count() == 4


def test_late_orders_are_refused_with_a_clear_message(make_game, players, on_commit):
    game = make_game("tally", 2)
    seat = _seat(game, players[0])
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(LateOrders, match="the deadline for turn 1 has passed; those orders "
                                         "were not kept"):
        actions.submit_orders(game, seat, "ADD 1")
    assert turn.submissions.count() == 0
