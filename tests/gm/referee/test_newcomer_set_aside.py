"""Issue 28: turns set aside by a rerun are kept in the history with pages of their own,
linked from the thread; in review mode a rerun holds only its last turn, and the log says
so (it no longer says "held for the GM's review" of turns it published at once)."""

from __future__ import annotations

import html

from django.test import Client

from gm.play.models import LogEntry, Turn
from gm.referee import actions

ORDERS = [{"P1": "MOVE 2", "P2": "MOVE 1"}, {"P1": "MOVE 1", "P2": "MOVE 2"}]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_set_aside_turns_have_pages_and_the_thread_links_them(race, play_turn, gm_user,
                                                              players):
    for orders in ORDERS:
        play_turn(race, orders)
    actions.rerun_from(race, gm_user, "wrong dice", 1)
    alice = _client(players[0])
    page = html.unescape(alice.get(f"/games/{race.pk}/").content.decode())
    thread = page.split('id="thread-list"', 1)[1]
    assert thread.count('class="set-aside-link"') == 2
    assert f'href="/games/{race.pk}/turns/1/set-aside/1/"' in thread
    assert f'href="/games/{race.pk}/turns/2/set-aside/1/"' in thread
    old = alice.get(f"/games/{race.pk}/turns/1/set-aside/1/")
    assert old.status_code == 200
    text = html.unescape(old.content.decode())
    assert "set aside" in text and 'id="turn-report"' in text and 'id="live-turn"' in text
    # the live version's address leads to the turn page; a version never published is 404
    assert alice.get(f"/games/{race.pk}/turns/1/set-aside/2/")["Location"] == \
        f"/games/{race.pk}/turns/1/"
    assert alice.get(f"/games/{race.pk}/turns/1/set-aside/3/").status_code == 404
    assert alice.get(f"/games/{race.pk}/turns/9/set-aside/1/").status_code == 404


def test_a_rerun_in_review_mode_holds_only_its_last_turn_and_says_so(race, play_turn,
                                                                     gm_user, on_commit):
    play_turn(race, ORDERS[0])
    actions.set_hold(race, gm_user, "check each turn", True)
    play_turn(race, ORDERS[1])  # turn 2 held for review
    assert race.turns.get(superseded=False, number=2).status == Turn.Status.HELD
    held_before = LogEntry.objects.filter(game=race, action="held").count()
    with on_commit():
        result = actions.rerun_from(race, gm_user, "wrong dice", 1)
    assert result.resolved == [1, 2] and result.held == 2
    held = list(LogEntry.objects.filter(game=race, action="held").order_by("pk"))
    # "held" is logged of turn 2 only: turn 1 went out at once, as the rerun's own act
    assert [e.turn_number for e in held[held_before:]] == [2]
    assert race.records.get(superseded=False, number=1).published
    assert not race.records.get(superseded=False, number=2).published
    assert race.turns.get(superseded=False, number=2).status == Turn.Status.HELD
    rerun = LogEntry.objects.filter(game=race, action="rerun").latest("pk")
    assert "turn 2 is held for the GM's review" in rerun.public


def test_a_rerun_in_review_mode_up_to_an_open_turn_logs_no_hold(race, play_turn, gm_user,
                                                                on_commit):
    """The turn after the rerun's last was open: the rerun publishes its turns to reopen
    it with the orders already in, and no "held" is logged of turns that were not."""
    for orders in ORDERS:
        play_turn(race, orders)
    actions.set_hold(race, gm_user, "check each turn", True)
    held_before = LogEntry.objects.filter(game=race, action="held").count()
    with on_commit():
        result = actions.rerun_from(race, gm_user, "wrong dice", 1)
    assert result.resolved == [1, 2] and result.held is None and result.open_turn == 3
    assert LogEntry.objects.filter(game=race, action="held").count() == held_before
    assert all(race.records.get(superseded=False, number=n).published for n in (1, 2))
