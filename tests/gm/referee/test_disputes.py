"""A dispute from filing to ruling, with a second opinion."""

import pytest

from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Post
from gm.referee import disputes, signals
from gm.referee.models import Dispute


@pytest.fixture
def played(race, play_turn):
    play_turn(race, {"P1": "MOVE 2", "P2": "MOVE 1"})
    play_turn(race, {"P1": "MOVE 1", "P2": "MOVE 1"})
    return race


@pytest.fixture
def caught():
    got = []

    def listener(sender, **kwargs):
        got.append((sender, kwargs))
    for sig in (signals.dispute_filed, signals.dispute_ruled,
                signals.second_opinion_requested, signals.second_opinion_given):
        sig.connect(listener, weak=False)
    yield got
    for sig in (signals.dispute_filed, signals.dispute_ruled,
                signals.second_opinion_requested, signals.second_opinion_given):
        sig.disconnect(listener)


def test_dispute_upheld_with_a_correction(played, players, gm_user, on_commit, caught):
    alice, bob = players[0], players[1]
    with on_commit():
        d = disputes.file_dispute(played, bob, 1, "My P2 counter should have started at 3.")
    assert caught[-1][1]["dispute"] == d
    assert d.record == played.records.get(superseded=False, number=1)
    entry = played.log.get(action="dispute-filed")
    assert "My P2 counter" not in entry.public and entry.private["text"].startswith("My P2")
    # Only the GM and the filer read the complaint; everyone sees it exists.
    assert "text" in disputes.dispute_json(d, bob)
    assert "text" not in disputes.dispute_json(d, alice)
    assert "text" in disputes.dispute_json(d, gm_user)
    old_pos = played.state["pos"]["P2"]
    with on_commit():
        disputes.rule(d, gm_user, upheld=True, reasons="Correct: the setup was wrong.",
                      correction={"turn": 1, "changes": [{"path": "/pos/P2", "value": 3}]})
    d.refresh_from_db()
    played.refresh_from_db()
    assert d.status == Dispute.Status.UPHELD and d.ruled_by == gm_user
    assert d.correction["applied"]["rerun"]["resolved"] == [1, 2]
    assert played.state["pos"]["P2"] == old_pos + 3
    ruling = played.log.get(action="dispute-ruled")
    assert ruling.reason == "Correct: the setup was wrong."
    assert "upheld dispute" in ruling.public and "rerun from turn 1" in ruling.public
    post = played.posts.filter(kind=Post.Kind.GM).last()
    assert "Ruling on dispute" in post.markdown and "upheld" in post.markdown
    assert caught[-1][0] is Dispute and caught[-1][1]["dispute"].pk == d.pk
    # The frozen record the player disputed is kept, superseded.
    d.record.refresh_from_db()
    assert d.record.superseded
    with pytest.raises(Conflict, match="already ruled"):
        disputes.rule(d, gm_user, upheld=False, reasons="changed my mind")


def test_dispute_rejected_then_second_opinion(played, players, gm_user, staff, co_gm,
                                              on_commit, caught):
    bob = players[1]
    d = disputes.file_dispute(played, bob, 2, "The die was loaded.")
    with pytest.raises(ActionError, match="needs a correction"):
        disputes.rule(d, gm_user, upheld=True, reasons="yes")
    before = played.state_hash
    disputes.rule(d, gm_user, upheld=False, reasons="The dice come from the published secret.")
    played.refresh_from_db()
    assert played.state_hash == before
    with pytest.raises(NotAllowed):
        disputes.request_second_opinion(d, gm_user)
    with on_commit():
        disputes.request_second_opinion(d, bob, "please check")
    assert caught[-1][1]["dispute"].opinion_status == Dispute.Opinion.REQUESTED
    assert list(disputes.pending_opinions(staff)) == [d]
    assert list(disputes.pending_opinions(players[0])) == []
    with pytest.raises(NotAllowed):
        disputes.give_second_opinion(d, co_gm, "fine")  # a co-GM of this game is not neutral
    with on_commit():
        disputes.give_second_opinion(d, staff, "The GM is right.")
    d.refresh_from_db()
    assert (d.opinion_status, d.opinion_by, d.opinion_text) == (
        Dispute.Opinion.GIVEN, staff, "The GM is right.")
    assert played.log.filter(action="opinion-given").count() == 1
    assert played.posts.filter(kind=Post.Kind.GM, markdown__contains="Second opinion").exists()
    # After a second opinion the GM may rule again.
    disputes.rule(d, gm_user, upheld=False, reasons="Confirmed by a second opinion.")


def test_only_players_file_and_only_published_turns(played, gm_user, make_user, players):
    with pytest.raises(NotAllowed):
        disputes.file_dispute(played, make_user("outsider"), 1, "hm")
    with pytest.raises(Conflict, match="turn 3 has no published"):
        disputes.file_dispute(played, players[0], 3, "too early")
    with pytest.raises(ActionError, match="cannot be empty"):
        disputes.file_dispute(played, players[0], 1, "   ")


def test_players_cannot_rule(played, players):
    d = disputes.file_dispute(played, players[1], 1, "x")
    with pytest.raises(NotAllowed):
        disputes.rule(d, players[0], upheld=False, reasons="no")
    with pytest.raises(NotAllowed):
        disputes.rule(d, players[1], upheld=False, reasons="no")


def test_a_game_with_disputes_can_still_be_deleted(played, players):
    disputes.file_dispute(played, players[0], 1, "x")
    played.delete()
    assert Dispute.objects.count() == 0


def test_upheld_correction_on_the_open_turn_amends_it(played, players, gm_user):
    d = disputes.file_dispute(played, players[0], 2, "my energy is wrong")
    disputes.rule(d, gm_user, upheld=True, reasons="Energy restored.",
                  correction={"turn": 3, "changes": [{"path": "/energy/P1", "value": 9}]})
    played.refresh_from_db()
    assert played.state["energy"]["P1"] == 9
    assert played.current_turn().number == 3
    assert played.current_turn().amendments[0]["reason"].startswith(f"dispute #{d.pk}")
    assert "amendment 1" in played.log.get(action="dispute-ruled").public
    assert played.records.filter(superseded=True).count() == 0
