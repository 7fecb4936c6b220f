"""A GM-adjudicated game through the service: orders, the desk, rolls, publish, reopen,
seat changes, the end, export and verify. Runs on SQLite and (with the service env) on
PostgreSQL like every tests/gm test."""

from __future__ import annotations

import pytest

from games.core.verify import verify_record
from gm.gmadj import actions as adj
from gm.play import actions
from gm.play.errors import ActionError, NotAllowed
from gm.play.models import Game, Post, Report, Turn

pytestmark = pytest.mark.django_db

ORDERS = {"France": "Army Paris to Burgundy", "England": "Fleet London to the Channel",
          "Germany": "Army Berlin holds"}


def _open(game: Game) -> Turn:
    return Turn.objects.get(game=game, superseded=False, status=Turn.Status.OPEN)


def test_seats_are_named_by_the_gm(adj_game):
    game = adj_game()
    assert sorted(game.seats.values_list("name", flat=True)) == ["England", "France",
                                                                 "Germany"]
    assert _open(game).owing == ["England", "France", "Germany"]


def test_a_turn_waits_for_the_gm_then_publishes(adj_game, send_all, gm_user, on_commit):
    game = adj_game()
    game = send_all(game, {"France": ORDERS["France"], "England": ORDERS["England"]})
    assert _open(game).owing == ["England", "France", "Germany"]  # Germany not in yet
    with on_commit():
        actions.mark_due(_open(game))
    game.refresh_from_db()
    turn = _open(game)
    assert turn.owing == ["GM"]
    desk = adj.desk(game, gm_user)
    assert [(o["seat"], o["missing"]) for o in desk["orders"]] == [
        ("France", False), ("England", False), ("Germany", True)]
    assert desk["orders"][0]["text"] == ORDERS["France"]

    got = adj.roll(game, gm_user, "battle of Burgundy", "2d6+1")
    first = got["rolls"][0]["result"]
    assert 3 <= first <= 13
    adj.save(game, gm_user, "France attacks: {battle of Burgundy}.\n@private France\n"
             "Your spies report calm.\n@sheet England\nFleets: 3")
    # a reroll is a second roll under the same label; the first stays on the record
    again = adj.roll(game, gm_user, "battle of Burgundy", "2d6+1")
    assert [r["n"] for r in again["rolls"]] == [1, 2]
    assert again["rolls"][0]["result"] == first  # fixed once made
    preview = adj.preview(game, gm_user)
    assert preview["ok"], preview
    public = preview["reports"]["public"]["markdown"]
    assert "Your spies" not in public and "Fleets: 3" not in public
    assert f"France attacks: {again['rolls'][1]['result']}." in public
    assert "Your spies report calm." in preview["reports"]["France"]["markdown"]

    with on_commit():
        adj.publish(game, gm_user)
    game.refresh_from_db()
    assert _open(game).owing == ["England", "France", "Germany"]  # turn 2's orders
    record = game.records.get(number=2, superseded=False)
    assert record.orders["GM"]["text"].startswith("@roll battle of Burgundy: 2d6+1")
    public = Report.objects.get(record=record, audience="").markdown
    assert "Your spies" not in public and ORDERS["France"] in public  # reveal after_turn
    france = Report.objects.get(record=record, audience="France").markdown
    assert "Your spies report calm." in france
    england = actions.view_for(game, game.seats.get(name="England").user)
    assert england["sheet"] == {"text": "Fleets: 3", "version": 1}
    france_view = actions.view_for(game, game.seats.get(name="France").user)
    assert france_view["sheet"]["text"] == "" and "notes" not in france_view


def test_only_the_gm_adjudicates_and_rolls_are_never_typed(adj_game, send_all, players,
                                                           gm_user, on_commit):
    game = adj_game()
    send_all(game, ORDERS)
    with pytest.raises(NotAllowed):
        adj.desk(game, players[0])
    with pytest.raises(Exception, match="Roll/Draw"):
        adj.save(game, gm_user, "@roll sneaky: d20")
    with pytest.raises(ActionError, match="keep 5 of 4"):
        adj.roll(game, gm_user, "stats", "4d6 keep 5")


def test_seats_added_and_removed_between_turns_and_the_end(adj_game, send_all, gm_user,
                                                          on_commit, players):
    game = adj_game(decks="omens: raven, comet, eclipse")
    send_all(game, ORDERS)
    adj.roll(game, gm_user, "omen", "omens", draw=True)
    adj.save(game, gm_user, "The omen is {omen}.\n@remove Germany\n@add Villager 4")
    with on_commit():
        adj.publish(game, gm_user)
    game.refresh_from_db()
    assert _open(game).owing == ["England", "France", "Villager 4"]
    assert game.seats.filter(name="Villager 4", user=None).exists()
    log = list(game.log.values_list("action", flat=True))
    assert "seat_added" in log and "seat_removed" in log
    send_all(game, {"France": "hold", "England": "hold"})
    with on_commit():
        actions.mark_due(_open(game))
    game.refresh_from_db()
    adj.roll(game, gm_user, "fate", "d100", secret=True)
    adj.save(game, gm_user, "The end.\n@end")
    with on_commit():
        adj.publish(game, gm_user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    export = actions.export_game(game)
    verdict = verify_record(export)
    assert verdict.ok and verdict.secret_checked
    draws = [d for t in export["turns"] for d in t["draws"]]
    assert [d["label"] for d in draws] == ["draw 1: omen#1", "roll 2: fate#1"]


def test_late_adjudication_waits_and_reopen(adj_game, send_all, gm_user, on_commit,
                                            mailoutbox, settings):
    settings.SITE_URL = "http://gm.example"
    game = adj_game()
    send_all(game, ORDERS)
    turn = _open(game)
    adj.save(game, gm_user, "Weather: {weather}.")
    rolled = adj.roll(game, gm_user, "weather", "d6")["rolls"][0]["result"]
    with on_commit():
        actions.mark_due(turn)  # the adjudication deadline passes
    game.refresh_from_db()
    late = _open(game)
    assert late.owing == ["GM"] and late.number == turn.number + 1
    # the roll made before the deadline is public in the log, so a late GM cannot
    # reroll silently; the draft's words come to the new window, its rolls do not
    entry = game.log.get(action="adjudication_late").public
    assert f"weather = {rolled}" in entry
    reminder = [m for m in mailoutbox if gm_user.email in m.to]
    assert reminder and "adjudication of turn 1 is late" in reminder[-1].subject
    desk = adj.desk(game, gm_user)
    assert desk["text"] == "Weather: {weather}." and desk["rolls_made"] == []
    adj.save(game, gm_user, "All quiet.")
    with on_commit():
        adj.publish(game, gm_user)
    game.refresh_from_db()
    assert _open(game).owing == ["England", "France", "Germany"]
    with on_commit():
        adj.reopen(game, gm_user, "forgot the weather")
    game.refresh_from_db()
    reopened = _open(game)
    assert reopened.owing == ["GM"] and reopened.number == late.number
    assert adj.desk(game, gm_user)["text"] == "All quiet."  # the words come back
    # the thread tells the players their orders stand (not "send your orders again")
    post = Post.objects.filter(game=game, kind=Post.Kind.GM).latest("pk")
    assert "reopened the adjudication" in post.markdown and "Your orders stand" in post.markdown
    assert "send your orders" not in post.markdown


def test_a_rerun_from_the_orders_reopens_the_adjudication(adj_game, send_all, gm_user,
                                                          on_commit):
    from gm.referee import actions as referee

    game = adj_game()
    send_all(game, ORDERS)
    adj.roll(game, gm_user, "weather", "d6")
    adj.save(game, gm_user, "Weather {weather}.")
    with on_commit():
        adj.publish(game, gm_user)
    game.refresh_from_db()
    with on_commit():
        result = referee.rerun_from(game, gm_user, "a wrong order was read", 1)
    game.refresh_from_db()
    # turn 1's orders resolve again; the adjudication (turn 2) waits for the GM, with
    # its words and new dice (a fresh stream: the old roll stays in the old draft)
    assert result.resolved == [1] and result.open_turn == 2 and result.reorder == ["GM"]
    desk = adj.desk(game, gm_user)
    assert desk["turn"] == 2 and desk["text"] == "Weather {weather}."
    assert desk["rolls_made"] == []
    assert [o["text"] for o in desk["orders"]][:2] == [ORDERS["France"], ORDERS["England"]]
