"""Amend, rerun, rollback and die fixes: the timeline is rewritten, never erased."""

import pytest

from games.core.types import OrdersInvalid
from games.core.verify import verify_record
from gm.play import actions as play
from gm.play.errors import ActionError
from gm.play.models import Submission, Turn, TurnRecord
from gm.referee import actions
from gm.referee.patching import PatchError

ORDERS = [{"P1": "MOVE 2", "P2": "MOVE 1"}, {"P1": "MOVE 1", "P2": "MOVE 2"},
          {"P1": "MOVE 1", "P2": "MOVE 1"}]


@pytest.fixture
def three_turns(race, play_turn):
    for orders in ORDERS:
        play_turn(race, orders)
    assert race.current_turn().number == 4
    return race


def live(game, number):
    return game.records.get(superseded=False, number=number)


def test_amend_the_open_turn_is_a_versioned_patch(race, gm_user):
    result = actions.amend_state(race, gm_user, "misplaced counter",
                                 [{"path": "/pos/P1", "value": "4"}])
    race.refresh_from_db()
    assert race.state["pos"]["P1"] == 4
    assert result["patch"] == [{"path": "/pos/P1", "from": 0, "to": 4}]
    assert result["version"] == 1
    turn = race.current_turn()
    assert [a["to_hash"] for a in turn.amendments] == [race.state_hash]
    assert set(turn.amendments[0]) == {"author", "reason", "from_hash", "state", "to_hash"}
    assert turn.amendments[0]["author"] == "gamemaster"
    entry = race.log.get(action="amended")
    assert entry.reason == "misplaced counter"
    assert entry.private["patch"] == result["patch"]
    actions.amend_state(race, gm_user, "and P2", [{"path": "/pos/P2", "value": 1}])
    turn.refresh_from_db()
    assert len(turn.amendments) == 2
    assert turn.amendments[1]["from_hash"] == turn.amendments[0]["to_hash"]


@pytest.mark.parametrize(("changes", "message"), [
    ([{"path": "/energy/P1", "value": -1}], "P1 has negative energy"),
    ([{"path": "/energy/P1", "value": "lots"}], "expected a whole number"),
    ([{"path": "/energy/P9", "value": 1}], "no 'P9'"),
    ([{"path": "/energy", "value": 1}], "only single values"),
    ([{"path": "/pos/P1", "value": 0}], "nothing changed"),
    ([], "at least one change"),
])
def test_bad_amendments_are_refused_and_change_nothing(race, gm_user, changes, message):
    before = (race.state, race.state_hash)
    with pytest.raises(PatchError, match=message):
        actions.amend_state(race, gm_user, "try", changes)
    race.refresh_from_db()
    assert (race.state, race.state_hash) == before
    assert race.current_turn().amendments == []


def test_amend_withdraws_orders_it_makes_illegal(race, gm_user, on_commit):
    with on_commit():
        play.submit_orders(race, race.seats.get(name="P1"), "MOVE 3")
    turn = race.current_turn()
    old_deadline = turn.deadline
    actions.amend_state(race, gm_user, "P1 was exhausted", [{"path": "/energy/P1", "value": 1}])
    sub = play.latest_submission(turn, race.seats.get(name="P1"))
    assert sub.withdrawn and sub.source == Submission.Source.GM and sub.version == 2
    assert race.log.filter(action="orders-invalidated").count() == 1
    turn.refresh_from_db()
    assert turn.deadline >= old_deadline


def test_replace_orders_on_the_open_turn(race, gm_user, on_commit):
    with on_commit():
        sub = actions.replace_orders(race, gm_user, "phoned in", "P2", "MOVE 3")
    assert sub.source == Submission.Source.GM and sub.author == gm_user
    with pytest.raises(OrdersInvalid):
        actions.replace_orders(race, gm_user, "typo", "P2", "MOVE 9")


def test_amend_and_rerun_over_several_turns_keeps_later_orders(three_turns, gm_user):
    game = three_turns
    old = {n: live(game, n) for n in (1, 2, 3)}
    old_state = game.state
    result = actions.rerun_from(game, gm_user, "P1 was at 50 after turn 1", 2,
                                changes=[{"path": "/pos/P1", "value": 50}])
    game.refresh_from_db()
    assert result.resolved == [2, 3]
    assert result.reorder == [] and result.open_turn == 4
    expected = {"P1": 50, "P2": old[1].state_after["pos"]["P2"]}
    for n in (2, 3):
        new = live(game, n)
        assert new.orders == old[n].orders  # later orders kept
        # Re-resolved turns draw from a fresh stream (attempt 2): same dice asked for,
        # new results, so nobody knew them when the orders were given.
        assert new.attempt == 2
        assert [d["label"] for d in new.draws] == [d["label"] for d in old[n].draws]
        assert new.after_hash != old[n].after_hash
        for d in new.draws:
            seat = d["label"].split("/")[1]
            expected[seat] += d["result"] + new.orders[seat]["items"][0]
    assert game.state["pos"] == expected
    assert old_state["pos"] != expected or old[2].draws != live(game, 2).draws
    assert live(game, 1).pk == old[1].pk
    # History is kept: the old records and turns are superseded, not deleted.
    assert TurnRecord.objects.filter(pk__in=[old[2].pk, old[3].pk], superseded=True).count() == 2
    assert Turn.objects.filter(game=game, superseded=True, number__in=[2, 3, 4]).count() == 3
    assert live(game, 2).amendments[0]["reason"] == "P1 was at 50 after turn 1"
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error
    assert verdict.notes == [
        "turn 2: state amended by gamemaster (P1 was at 50 after turn 1)",
        "turn 2: resolved again after the GM set it aside (dice stream attempt 2)",
        "turn 3: resolved again after the GM set it aside (dice stream attempt 2)"]
    assert "reran the game from turn 2" in game.log.get(action="rerun").public


def test_rerun_stops_where_orders_became_illegal(three_turns, gm_user, on_commit):
    game = three_turns
    result = actions.rerun_from(game, gm_user, "P2 had less energy", 2,
                                changes=[{"path": "/energy/P2", "value": 1}])
    game.refresh_from_db()
    assert result.resolved == []
    assert (result.open_turn, result.reorder) == (2, ["P2"])
    turn = game.current_turn()
    assert (turn.number, turn.status) == (2, Turn.Status.OPEN)
    p1 = play.latest_submission(turn, game.seats.get(name="P1"))
    assert p1.text == "MOVE 1" and p1.source == Submission.Source.GM
    assert play.latest_submission(turn, game.seats.get(name="P2")) is None
    assert "new orders needed from P2" in game.log.get(action="rerun").public
    with on_commit():
        play.submit_orders(game, game.seats.get(name="P2"), "MOVE 1")
    game.refresh_from_db()
    assert live(game, 2).orders["P2"]["text"] == "MOVE 1"
    assert game.current_turn().number == 3


def test_replace_orders_on_a_past_turn_reruns(three_turns, gm_user):
    game = three_turns
    result = actions.replace_orders(game, gm_user, "email got lost", "P1", "MOVE 3",
                                    turn_number=2)
    assert result.resolved == [2, 3]
    game.refresh_from_db()
    assert live(game, 2).orders["P1"]["text"] == "MOVE 3"
    assert live(game, 3).orders["P1"]["text"] == "MOVE 1"
    assert game.state["energy"]["P1"] == 9 - 2 - 3 - 1


def test_rerun_with_nothing_changed_draws_fresh_dice_and_verifies(three_turns, gm_user):
    game = three_turns
    old = {n: live(game, n) for n in (1, 2, 3)}
    actions.rerun_from(game, gm_user, "check", 1)
    for n in (1, 2, 3):
        new = live(game, n)
        assert (new.attempt, new.orders) == (2, old[n].orders)
    assert [live(game, n).draws for n in (1, 2, 3)] != [old[n].draws for n in (1, 2, 3)]
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error


def test_rollback_same_orders_different_dice_and_verify_passes(three_turns, gm_user,
                                                              play_turn):
    """Issue 11: players re-ordering after a rollback must not know the dice."""
    game = three_turns
    old = {n: live(game, n) for n in (2, 3)}
    turn = actions.rollback_to(game, gm_user, "wrong map", 2)
    game.refresh_from_db()
    assert (turn.number, turn.status) == (2, Turn.Status.OPEN)
    assert game.state_hash == live(game, 1).after_hash
    assert not game.records.filter(superseded=False, number__gte=2).exists()
    assert game.records.filter(superseded=True).count() == 2
    assert turn.attempt == 2
    play_turn(game, ORDERS[1])
    play_turn(game, ORDERS[2])
    new = {n: live(game, n) for n in (2, 3)}
    assert [new[n].orders for n in (2, 3)] == [old[n].orders for n in (2, 3)]
    assert [new[n].attempt for n in (2, 3)] == [2, 2]
    assert [new[n].draws for n in (2, 3)] != [old[n].draws for n in (2, 3)]
    assert new[2].draws[0]["label"] == old[2].draws[0]["label"]
    export = play.export_game(game, for_gm=True)
    assert [t["attempt"] for t in export["turns"]] == [1, 2, 2]
    export["secret"] = game.secret  # as published at the end: every die recomputed
    verdict = verify_record(export)
    assert verdict.ok and verdict.secret_checked, verdict.error
    # The attempt is part of what the verifier recomputes: claiming attempt 1 fails.
    export["turns"][1]["attempt"] = 1
    assert not verify_record(export).ok


def test_fix_a_die_reruns_and_shows_in_the_export(three_turns, gm_user):
    game = three_turns
    old2 = live(game, 2)
    draw = old2.draws[0]
    value = 1 if draw["result"] != 1 else 2
    actions.fix_die(game, gm_user, "die fell off the table", 2, 0, value)
    rec = live(game, 2)
    assert rec.draws[0]["result"] == value and rec.draws[0]["computed"] == draw["result"]
    assert rec.overrides == {"0": value}
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error
    # The fixed turn keeps its stream (the fix applies to the known dice); turn 3, resolved
    # again after it, draws fresh ones.
    assert rec.attempt == 1 and live(game, 3).attempt == 2
    assert [d["result"] for d in rec.draws[1:]] == [d["result"] for d in old2.draws[1:]]
    assert verdict.notes == [f"turn 2: draw 0 set to {value} by the GM",
                             "turn 3: resolved again after the GM set it aside "
                             "(dice stream attempt 2)"]
    with pytest.raises(Exception, match="d6 result"):
        actions.fix_die(game, gm_user, "bad", 2, 0, 7)
    actions.fix_die(game, gm_user, "undo", 2, 0, None)
    assert live(game, 2).draws[0] == draw


def test_fixing_a_die_of_a_turn_without_dice_says_so(three_turns, gm_user):
    rec = live(three_turns, 2)
    TurnRecord.objects.filter(pk=rec.pk).update(draws=[])
    with pytest.raises(ActionError, match="turn 2 drew no dice") as exc:
        actions.fix_die(three_turns, gm_user, "x", 2, 0, 1)
    assert "-1" not in str(exc.value)


def test_hold_release_and_change_before_the_report(race, gm_user, play_turn):
    actions.set_hold(race, gm_user, "tournament final", True)
    play_turn(race, ORDERS[0])
    turn = race.current_turn()
    assert turn.status == Turn.Status.HELD
    record = live(race, 1)
    assert not record.published and not record.reports.exists()
    assert play.reports_for(race, race.seats.get(name="P1").user) == []
    # Change: fix a die in the held turn; it is resolved again and held again.
    result = actions.fix_die(race, gm_user, "table rule", 1, 1, 6)
    assert result.held == 1
    record = live(race, 1)
    assert record.draws[1]["result"] == 6 and not record.published
    actions.release(race, gm_user, "looks right")
    race.refresh_from_db()
    assert live(race, 1).published
    assert race.current_turn().number == 2
    with pytest.raises(Exception, match="no turn is held"):
        actions.release(race, gm_user, "again")


def test_rerun_in_review_mode_publishes_the_corrected_turns(three_turns, gm_user):
    game = three_turns
    actions.set_hold(game, gm_user, "review from now on", True)
    result = actions.rerun_from(game, gm_user, "recheck", 2,
                                changes=[{"path": "/pos/P2", "value": 20}])
    assert result.resolved == [2, 3] and result.held is None and result.open_turn == 4
    assert all(live(game, n).published for n in (1, 2, 3))
    assert game.current_turn().status == Turn.Status.OPEN
