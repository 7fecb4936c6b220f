"""Verification of exports: honest passes; a tampered draw, order or state is pinpointed."""

import copy
import json

import pytest

from games.core.verify import verify_record
from gm.play import actions as play
from gm.play.models import Game
from gm.referee import actions
from gm.referee.reading import verify_upload


@pytest.fixture
def finished(make_game, play_turn, gm_user):
    game = make_game("toy_race", 2, options={"rounds": 3})
    play_turn(game, {"P1": "MOVE 2", "P2": "MOVE 1"})
    actions.amend_state(game, gm_user, "bumped", [{"path": "/pos/P2", "value": 9}])
    play_turn(game, {"P1": "MOVE 1", "P2": "MOVE 3"})
    play_turn(game, {"P1": "REST", "P2": "MOVE 1"})
    assert game.status == Game.Status.FINISHED
    return play.export_game(game)


def test_honest_export_verifies_with_the_secret(finished):
    verdict = verify_record(finished)
    assert verdict.ok and verdict.secret_checked and verdict.checked_turns == 3
    assert verdict.notes == ["turn 2: state amended by gamemaster (bumped)"]


def test_tampered_draw_is_pinpointed(finished):
    record = copy.deepcopy(finished)
    draw = record["turns"][2]["draws"][1]
    draw["result"] = draw["result"] % 6 + 1
    verdict = verify_record(record)
    assert not verdict.ok
    assert verdict.error.startswith("turn 3: draw 1 (boost/P2) recorded")


def test_tampered_order_is_pinpointed(finished):
    record = copy.deepcopy(finished)
    record["turns"][0]["orders"]["P1"]["items"] = [3]
    verdict = verify_record(record)
    assert verdict.error == ("turn 1: state after the turn does not match its hash "
                             "(orders or draws were changed)")


def test_tampered_state_is_pinpointed(finished):
    record = copy.deepcopy(finished)
    record["turns"][1]["amendments"][0]["state"]["pos"]["P1"] = 40
    assert verify_record(record).error == "turn 2: an amended state does not match its hash"


def test_upload_helper_reports_unreadable_files(finished):
    assert verify_upload(json.dumps(finished).encode()).ok
    assert "not a JSON file" in verify_upload(b"{oops").error
    assert verify_upload(b"[1]").error == "not a game export (expected a JSON object)"
