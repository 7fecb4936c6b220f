"""gm.play.actions.turns: a turn resolved early when all orders are in or at the deadline
(defaults for the missing), published, and a game played to its end.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.core.verify import verify_record
from gm.play import actions
from gm.play.errors import Conflict
from gm.play.models import Game, LogEntry, Post, Report, TurnRecord

pytestmark = pytest.mark.django_db


def _seat(game, user):
    return game.seat_of(user)


def test_all_orders_in_resolves_early_and_publishes(make_game, players, on_commit):
    game = make_game("tally", 2)
    p1, p2 = (_seat(game, u) for u in players[:2])
    with on_commit():
        actions.submit_orders(game, p1, "ADD 2")
    assert game.current_turn().number == 1  # P2 still owes
    assert actions.owing_summary(game) == {"turn": 1, "owing": ["P2"], "in": ["P1"]}
    with on_commit():
        actions.submit_orders(game, p2, "ADD 3")
    record = TurnRecord.objects.get(game=game, number=1)
    assert record.defaulted == [] and record.published
    assert {r.audience for r in record.reports.all()} == {"", "*", "P1", "P2"}
    public = record.reports.get(audience="").markdown
    assert "P1 adds 2" in public and "P2 adds 3" in public
    assert "secret die" not in public
    assert "your secret die" in record.reports.get(audience="P1").markdown
    assert Post.objects.filter(game=game, kind=Post.Kind.REPORT, turn_number=1).exists()
    assert game.current_turn().number == 2


def test_process_early_off_waits_for_deadline(make_game, players, on_commit):
    game = make_game("tally", 1, process_early=False)
    with on_commit():
        actions.submit_orders(game, _seat(game, players[0]), "ADD 1")
    assert game.current_turn().number == 1
    turn = game.current_turn()
    with on_commit():
        assert actions.sweep_deadlines(turn.deadline - timedelta(seconds=1)) == []
        assert actions.sweep_deadlines(turn.deadline) == [turn.pk]
    assert game.current_turn().number == 2


def test_missed_deadline_gets_default_orders_and_the_report_says_so(make_game, players,
                                                                     on_commit):
    game = make_game("tally", 2)
    with on_commit():
        actions.submit_orders(game, _seat(game, players[0]), "ADD 3")
    turn = game.current_turn()
    with on_commit():
        actions.sweep_deadlines(turn.deadline + timedelta(seconds=1))
    record = TurnRecord.objects.get(game=game, number=1)
    assert record.defaulted == ["P2"]
    assert record.orders["P2"]["default"] is True
    public = Report.objects.get(record=record, audience="").markdown
    assert "*P2 sent no orders in time; default orders were used.*" in public
    mine = Report.objects.get(record=record, audience="P2").markdown
    assert "default orders were used: ADD 1." in mine


def test_full_game_to_the_end_then_export_verifies(make_game, players, on_commit):
    game = make_game("tally", 2, options={"target": 100, "max_turns": 3})
    for _ in range(3):
        with on_commit():
            for user in players[:2]:
                actions.submit_orders(game, _seat(game, user), "ADD 3")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["summary"].endswith("won with " + str(max(
        game.state["totals"].values())) + ".")
    assert LogEntry.objects.filter(game=game, action="finished").exists()
    with pytest.raises(Conflict):
        actions.submit_orders(game, _seat(game, players[0]), "ADD 1")
    export = actions.export_game(game)
    assert export["secret"] == game.secret and len(export["turns"]) == 3
    verdict = verify_record(export)
    assert verdict.ok and verdict.secret_checked and verdict.checked_turns == 3
