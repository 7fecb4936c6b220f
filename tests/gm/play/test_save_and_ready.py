"""Save beside ready (issue 28): a saved, not ready version stands at the deadline like any
orders but does not close the turn early; early processing waits for every owing seat's
latest version to be ready. Scenario table: each row is a sequence of sends and what the
turn does after it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.play import actions
from gm.play.models import TurnRecord

pytestmark = pytest.mark.django_db

# (seat index, text, ready) sends in order; then whether turn 1 closed early
SCENARIOS = [
    pytest.param([(0, "ADD 2", True), (1, "ADD 3", True)], True, id="all-ready-closes"),
    pytest.param([(0, "ADD 2", True), (1, "ADD 3", False)], False,
                 id="last-sender-saves-stays-open"),
    pytest.param([(0, "ADD 2", False), (1, "ADD 3", True)], False,
                 id="first-saved-stays-open"),
    pytest.param([(0, "ADD 2", False), (1, "ADD 3", True), (0, "ADD 2", True)], True,
                 id="later-ready-version-closes"),
    pytest.param([(0, "ADD 2", True), (1, "ADD 3", False), (1, "ADD 1", True)], True,
                 id="saved-then-ready-by-same-seat"),
    pytest.param([(0, "ADD 2", True), (0, "ADD 1", False), (1, "ADD 3", True)], False,
                 id="ready-then-saved-unreadies"),
]


@pytest.mark.parametrize(("sends", "closes"), SCENARIOS)
def test_early_processing_waits_for_every_seat_ready(make_game, players, on_commit,
                                                    sends, closes):
    game = make_game("tally", 2)
    seats = [game.seat_of(u) for u in players[:2]]
    for index, text, ready in sends:
        with on_commit():
            sub = actions.submit_orders(game, seats[index], text, ready=ready)
        assert sub.ready is ready
        assert actions.receipt_json(sub)["ready"] is ready
    assert (game.current_turn().number == 2) is closes
    if not closes:  # saved orders are in (they count) but the turn waits
        assert actions.owing_summary(game)["owing"] == []


def test_saved_orders_count_at_the_deadline(make_game, players, on_commit):
    game = make_game("tally", 2)
    p1, p2 = (game.seat_of(u) for u in players[:2])
    with on_commit():
        actions.submit_orders(game, p1, "ADD 2", ready=False)
        actions.submit_orders(game, p2, "ADD 3")
    turn = game.current_turn()
    assert turn.number == 1
    with on_commit():
        assert actions.sweep_deadlines(turn.deadline + timedelta(seconds=1)) == [turn.pk]
    record = TurnRecord.objects.get(game=game, number=1)
    assert record.defaulted == []  # the saved orders stood, no defaults
    public = record.reports.get(audience="").markdown
    assert "P1 adds 2" in public and "P2 adds 3" in public


def test_orders_are_ready_unless_saved(make_game, players, on_commit):
    """Every path that does not ask (mail, GM, old callers) sends ready orders."""
    game = make_game("tally", 2, process_early=False)
    sub = actions.submit_orders(game, game.seat_of(players[0]), "ADD 1")
    assert sub.ready is True
    sub.refresh_from_db()
    assert sub.ready is True
