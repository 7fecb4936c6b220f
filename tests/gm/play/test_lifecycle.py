"""A game's life through gm.play.actions: create, join, start, order, resolve, finish."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import registry
from games.core.engine import REVISION, revision_of
from games.core.types import OrdersInvalid
from games.core.verify import verify_record
from gm.play import actions
from gm.play.errors import ActionError, Conflict, LateOrders, NotAllowed
from gm.play.models import Game, LogEntry, Post, Report, Turn, TurnRecord

pytestmark = pytest.mark.django_db


def _seat(game, user):
    return game.seat_of(user)


def test_create_validates_ruleset_and_options(gm_user):
    with pytest.raises(ActionError, match="unknown ruleset 'chess'; known rulesets: "):
        actions.create_game(gm_user, ruleset="chess", title="x")
    with pytest.raises(ActionError, match=r"option 'target': 2 is outside 5\.\.100"):
        actions.create_game(gm_user, ruleset="tally", title="x", options={"target": 2})
    with pytest.raises(ActionError, match="unknown option 'colour'; this game's options are: "
                                          "max_turns, target"):
        actions.create_game(gm_user, ruleset="tally", title="x", options={"colour": "red"})
    game = actions.create_game(gm_user, ruleset="tally", title="  T  ")
    assert game.title == "T" and game.options == {"target": 12, "max_turns": 6,
                                                  REVISION: 1}
    assert game.status == Game.Status.OPEN


def test_a_game_plays_by_the_rules_revision_it_starts_with(gm_user, players):
    """Created before a rules revision (its options without the key, or an older one),
    a game starts at the current revision, in its options, its state and its export."""
    engine = registry.get("combat_dice")
    game = actions.create_game(gm_user, ruleset="combat_dice", title="R")
    assert game.options[REVISION] == engine.revision and game.options["damage_dice"] == "on"
    Game.objects.filter(pk=game.pk).update(options={"combatants": "basic", "reroll": "orders",
                                                    "max_turns": 100})
    for user in players[:2]:
        actions.join_game(game, user)
    actions.start_game(game, gm_user, entropy=b"\x03" * 32)
    game.refresh_from_db()
    assert game.options[REVISION] == engine.revision and game.options["damage_dice"] == "on"
    assert revision_of(game.state) == engine.revision
    assert actions.export_game(game, for_gm=True)["options"][REVISION] == engine.revision


def test_join_and_start_rules(gm_user, players, make_game):
    game = make_game("tally", 0, start=False, max_seats=2)
    a, b, c = players[:3]
    assert actions.join_game(game, a).name == "P1"
    with pytest.raises(Conflict, match="already have a seat"):
        actions.join_game(game, a)
    actions.join_game(game, b)
    with pytest.raises(Conflict, match="every seat is taken"):
        actions.join_game(game, c)
    with pytest.raises(NotAllowed, match="only the game's GM"):
        actions.start_game(game, a)
    actions.start_game(game, gm_user, entropy=b"\x02" * 32)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert len(game.secret_sha256) == 64 and game.secret not in game.secret_sha256
    turn = game.current_turn()
    assert turn.number == 1 and turn.status == Turn.Status.OPEN
    assert turn.owing == ["P1", "P2"]
    assert timedelta(hours=47) < turn.deadline - timezone.now() <= timedelta(hours=48)
    with pytest.raises(Conflict, match="already started"):
        actions.join_game(game, c)


def test_start_needs_enough_players(gm_user, make_game):
    game = make_game("tally", 0, start=False)
    with pytest.raises(Conflict, match="needs at least 1 players; 0 joined"):
        actions.start_game(game, gm_user)


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


def test_late_orders_are_refused_with_a_clear_message(make_game, players, on_commit):
    game = make_game("tally", 2)
    seat = _seat(game, players[0])
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(LateOrders, match="the deadline for turn 1 has passed; those orders "
                                         "were not kept"):
        actions.submit_orders(game, seat, "ADD 1")
    assert turn.submissions.count() == 0


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


def test_export_is_private_until_the_end(make_game):
    game = make_game("tally", 1)
    with pytest.raises(Conflict, match="published when the game is over"):
        actions.export_game(game)
    gm_export = actions.export_game(game, for_gm=True)
    assert "secret" not in gm_export


def test_thread_posts_are_sanitised(make_game, players, make_user):
    game = make_game("tally", 1)
    post = actions.post_message(game, players[0], "**hi** <script>alert(1)</script>")
    assert "<strong>hi</strong>" in post.html and "<script>" not in post.html
    stranger = make_user("stranger")
    with pytest.raises(NotAllowed):
        actions.post_message(game, stranger, "hello")
    with pytest.raises(ActionError, match="cannot be empty"):
        actions.post_message(game, players[0], "   ")
