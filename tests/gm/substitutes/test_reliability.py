"""The reliability record: deadlines met and missed from the turn records, a
substitute counted only from the turns they held, the providers registry, the profile
page, and a game's minimum record checked when joining."""

from __future__ import annotations

import pytest
from django.test import Client

from gm.play import actions
from gm.play.errors import Conflict
from gm.referee import actions as referee
from gm.substitutes import policy, reliability

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("p2_sends, p2_met, p2_missed", [
    ([True, True, True], 3, 0),
    ([False, True, False], 1, 2),
    ([False, False, False], 0, 3),
])
def test_deadlines_met_and_missed(tally, players, miss, p2_sends, p2_met, p2_missed):
    game = tally
    for sends in p2_sends:
        game = miss(game, {"P1": "ADD 2", **({"P2": "ADD 1"} if sends else {})})
    rec = reliability.record(players[1])
    assert (rec["deadlines_met"], rec["misses"]) == (p2_met, p2_missed)
    assert reliability.record(players[0])["deadlines_met"] == 3
    assert rec["met_percent"] == round(100 * p2_met / 3)


def test_a_substitute_is_counted_from_the_turn_after_they_took_over(
        tally, players, gm_user, make_user, miss, on_commit):
    game = miss(tally, {"P1": "ADD 1"})            # bob misses turn 1
    erin = make_user("erin")
    with on_commit():
        referee.replace_player(game, gm_user, "bob vanished", "P2", erin)
    game = miss(game, {"P1": "ADD 1"})             # turn 2, open at the takeover: nobody's
    game = miss(game, {"P1": "ADD 1"})             # erin misses turn 3
    game = miss(game, {"P1": "ADD 1", "P2": "ADD 2"})  # and meets turn 4
    assert (reliability.record(players[1])["misses"],
            reliability.record(players[1])["deadlines_met"]) == (1, 0)
    rec = reliability.record(erin)
    assert (rec["misses"], rec["deadlines_met"], rec["seats_taken_over"]) == (1, 1, 0)


def test_games_finished_and_civil_disorders(make_game, players, play_defaults, on_commit):
    from gm.play import signals

    game = make_game("tally", 2, options={"max_turns": 2, "target": 100})
    with on_commit():
        signals.seat_needs_player.send(sender=type(game), seat=game.seats.get(name="P2"),
                                       reason="civil_disorder")
    play_defaults(game)
    play_defaults(game)
    game.refresh_from_db()
    assert game.status == "finished"
    assert reliability.record(players[0])["games_finished"] == 1
    assert reliability.record(players[1])["civil_disorders"] == 1


def test_other_apps_add_counts_through_providers(players):
    def vacations(user):
        return {"vacations_used": 2}

    reliability.PROVIDERS.append(vacations)
    try:
        assert reliability.record(players[0])["vacations_used"] == 2
    finally:
        reliability.PROVIDERS.remove(vacations)


def test_profile_page_and_api(tally, players, miss):
    miss(tally, {"P1": "ADD 1"})
    page = Client().get("/players/bob/").content.decode()
    assert '<td id="rec-misses">1</td>' in page
    assert '<td id="rec-deadlines-met">0 (0%)</td>' in page
    data = Client().get("/api/players/alice/record/").json()
    assert data["deadlines_met"] == 1 and data["misses"] == 0 and data["player"] == "alice"
    assert Client().get("/players/nobody/").status_code == 404


@pytest.mark.parametrize("needs, finished, met, ok", [
    ({"min_finished": 1}, 0, 0, False),
    ({"min_finished": 1}, 1, 0, True),
    ({"min_met_percent": 80}, 1, 0, True),     # 1 of 1 met
    ({"min_met_percent": 80}, 0, 0, False),    # no deadlines yet
])
def test_a_game_may_require_a_minimum_record_to_join(
        make_game, gm_user, make_user, play_defaults, needs, finished, met, ok):
    newbie = make_user("newbie")
    if finished:  # newbie finishes a one-turn game, meeting its one deadline
        done = actions.create_game(gm_user, ruleset="tally", title="warm-up",
                                   options={"max_turns": 1})
        actions.join_game(done, newbie)
        done = actions.start_game(done, gm_user, entropy=b"\x02" * 32)
        play_defaults(done)
    game = make_game("tally", 1, start=False)
    policy.store(game, needs)
    if ok:
        actions.join_game(game, newbie)
    else:
        with pytest.raises(Conflict, match="this game asks for at least"):
            actions.join_game(game, newbie)
    # the GM may always take a seat in the game they made (where nothing is hidden)
    assert reliability.join_check(game, gm_user) == ""
