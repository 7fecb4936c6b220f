"""Substitutes end to end on the service: volunteering, a seat in civil disorder or
whose player leaves offered to volunteers, the first to accept taking it (after the GM
approves, or at once), the hand-over's record, the newcomer's time and briefing, and the
GM's own replace going the same way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q
from django.test import Client
from django.utils import timezone

from gm.mail.models import Outbox
from gm.play import signals
from gm.play.errors import Conflict
from gm.play.models import LogEntry, Turn
from gm.referee import actions as referee
from gm.substitutes import briefing, offers, policy
from gm.substitutes.handover import history
from gm.substitutes.models import SeatHolding, SeatOffer

from .conftest import hours_left

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _disorder(game, on_commit, name="P2"):
    with on_commit():
        signals.seat_needs_player.send(sender=type(game), seat=game.seats.get(name=name),
                                       reason="civil_disorder")
    return SeatOffer.objects.get(seat__game=game, seat__name=name,
                                 status__in=SeatOffer.LIVE)


def test_civil_disorder_offers_the_seat_to_volunteers_of_the_ruleset(
        tally, make_user, on_commit, notables):
    erin, fay, gus = make_user("erin"), make_user("fay"), make_user("gus")
    offers.set_volunteer(erin, ["tally"])
    offers.set_volunteer(fay, ["*"])
    offers.set_volunteer(gus, ["combat_dice"])
    offer = _disorder(tally, on_commit)
    assert offer.reason == "civil_disorder" and offer.holder.username == "bob"
    told = [n for n in notables if n["kind"] == "substitute_offer"]
    assert len(told) == 1 and sorted(told[0]["users"]) == sorted([erin.pk, fay.pk])
    # mailed once each: by the notification layer (gm.notify, under each volunteer's
    # budget), or directly where that app is not installed
    mailed = sorted(Outbox.objects.filter(Q(key__startswith="offer:")
                                          | Q(key__startswith="notify:substitute_offer:"))
                    .values_list("to", flat=True))
    assert mailed == ["erin@example.org", "fay@example.org"]
    assert LogEntry.objects.filter(game=tally, action="seat-offered").count() == 1
    # a second report of the same seat is the same offer, told once
    assert _disorder(tally, on_commit).pk == offer.pk
    assert len([n for n in notables if n["kind"] == "substitute_offer"]) == 1


@pytest.mark.parametrize("approval, filled_at_once", [("gm", False), ("auto", True)])
def test_first_to_accept_takes_the_seat_by_the_games_policy(
        tally, gm_user, make_user, on_commit, notables, approval, filled_at_once):
    policy.store(tally, {"approval": approval})
    erin, fay = make_user("erin"), make_user("fay")
    offer = _disorder(tally, on_commit)
    old_token = tally.seats.get(name="P2").mail_token
    with on_commit():
        claimed = offers.accept(offer.pk, erin)
    with pytest.raises(Conflict, match="someone else took this seat first"):
        offers.accept(offer.pk, fay)
    if not filled_at_once:
        assert claimed.status == "claimed"
        assert tally.seats.get(name="P2").user.username == "bob"
        assert any(n["kind"] == "substitute_offer" and n["users"] == [gm_user.pk]
                   and n["urgent"] for n in notables)
        with on_commit():
            offers.approve(offer.pk, gm_user, "welcome")
    seat = tally.seats.get(name="P2")
    assert seat.user == erin and seat.mail_token != old_token and seat.mode == "active"
    assert SeatOffer.objects.get(pk=offer.pk).status == "filled"
    assert [(h["player"], h["to"] is None) for h in history(seat)] == [
        ("bob", False), ("erin", True)]
    assert LogEntry.objects.filter(game=tally, action="seat-handed-over",
                                   public__contains="erin takes over seat P2").exists()
    assert any(n["kind"] == "seat_taken" for n in notables)
    assert Outbox.objects.filter(key__startswith="briefing:", to="erin@example.org").exists()


def test_the_gm_refuses_and_the_seat_is_offered_again(tally, gm_user, make_user, on_commit):
    erin, fay = make_user("erin"), make_user("fay")
    offer = _disorder(tally, on_commit)
    offers.accept(offer.pk, erin)
    offers.refuse(offer.pk, gm_user, "not this one")
    assert SeatOffer.objects.get(pk=offer.pk).status == "open"
    with on_commit():
        offers.accept(offer.pk, fay)
        offers.approve(offer.pk, gm_user)
    assert tally.seats.get(name="P2").user == fay


@pytest.mark.parametrize("who, why", [
    ("bob", "you already have a seat in this game"),
    ("alice", "you already have a seat in this game"),
    ("gamemaster", "this game's GM"),
])
def test_who_may_not_take_an_offered_seat(tally, gm_user, players, on_commit, who, why):
    offer = _disorder(tally, on_commit)
    user = {"gamemaster": gm_user, **{u.username: u for u in players}}[who]
    with pytest.raises(Conflict, match=why):
        offers.accept(offer.pk, user)


def test_a_player_asks_to_leave_with_confirmation_and_plays_on_until_taken_over(
        tally, players, make_user, on_commit, notables):
    bob = players[1]
    web = _client(bob)
    page = web.get(f"/games/{tally.pk}/leave/").content.decode()
    assert 'id="confirm-leave"' in page
    web.post(f"/games/{tally.pk}/leave/", {})  # not confirmed: nothing happens
    assert not SeatOffer.objects.exists()
    with on_commit():
        web.post(f"/games/{tally.pk}/leave/", {"confirm": "leave"})
    offer = SeatOffer.objects.get()
    assert offer.reason == "leaving" and offer.holder == bob
    assert any(n["kind"] == "seat_left" for n in notables)
    assert tally.seats.get(name="P2").user == bob  # still theirs
    # the open-seats page lists it, and a volunteer takes it there (auto policy)
    policy.store(tally, {"approval": "auto"})
    erin = make_user("erin")
    listing = _client(erin).get("/substitutes/").content.decode()
    assert f'id="offer-{offer.pk}"' in listing
    with on_commit():
        answer = _client(erin).post(f"/substitutes/offers/{offer.pk}/accept/")
    assert answer.url == f"/games/{tally.pk}/briefing/"
    assert tally.seats.get(name="P2").user == erin


def test_a_leaving_player_may_change_their_mind(tally, players, on_commit):
    web = _client(players[1])
    with on_commit():
        web.post(f"/games/{tally.pk}/leave/", {"confirm": "leave"})
        web.post(f"/games/{tally.pk}/leave/", {"cancel": "1"})
    assert SeatOffer.objects.get().status == "withdrawn"


def test_the_gms_replace_is_the_same_hand_over(tally, gm_user, make_user, on_commit):
    from gm.substitutes.signals import seat_handed_over

    erin = make_user("erin")
    heard = []
    seat_handed_over.connect(lambda sender, **kw: heard.append(kw), weak=False,
                             dispatch_uid="test_handed_over")
    try:
        with on_commit():
            referee.replace_player(tally, gm_user, "bob vanished", "P2", erin)
    finally:
        seat_handed_over.disconnect(dispatch_uid="test_handed_over")
    assert [(h["old_user"].username, h["new_user"].username, h["how"]) for h in heard] == [
        ("bob", "erin", "gm")]
    seat = tally.seats.get(name="P2")
    assert [h["player"] for h in history(seat)] == ["bob", "erin"]
    assert SeatHolding.objects.get(user=erin).how == "gm"
    assert Outbox.objects.filter(key__startswith="briefing:", to="erin@example.org").exists()
    assert LogEntry.objects.filter(game=tally, action="player-replaced").exists()


@pytest.mark.parametrize("free_turns, left_hours, expect_hours", [
    (1, 47.9, 48),   # a newcomer gets a full turn: the deadline moves to now + 48 h
    (1, 2, 48),
    (2, 2, 96),      # two full turns
    (0, 2, 2),       # the game gives none: the deadline stays
])
def test_the_newcomer_gets_full_turns_before_the_deadline_counts(
        tally, gm_user, make_user, on_commit, free_turns, left_hours, expect_hours):
    policy.store(tally, {"free_turns": free_turns})
    turn = tally.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(hours=left_hours))
    with on_commit():
        referee.replace_player(tally, gm_user, "swap", "P2", make_user("erin"))
    assert hours_left(tally) == pytest.approx(expect_hours, abs=0.05)
    moved = LogEntry.objects.filter(game=tally, action="deadline",
                                    public__contains="has a full turn")
    assert moved.exists() == (expect_hours != left_hours)


def test_the_briefing_page_and_its_sections_registry(tally, make_user, on_commit, play_defaults,
                                                    gm_user):
    for _ in range(4):
        play_defaults(tally)
    erin = make_user("erin")
    with on_commit():
        referee.replace_player(tally, gm_user, "swap", "P2", erin)
    extra = briefing.Section("extra", "Test section", lambda g, s, now: f"hello {s.name}", 35)
    briefing.SECTIONS.append(extra)
    try:
        page = _client(erin).get(f"/games/{tally.pk}/briefing/").content.decode()
    finally:
        briefing.SECTIONS.remove(extra)
    for key in ("deadline", "view", "orders", "extra", "reports"):
        assert f'id="briefing-{key}"' in page
    assert page.index("briefing-orders") < page.index("briefing-extra") < \
        page.index("briefing-reports")
    assert "hello P2" in page and "my_secret" in page
    # the last three reports, newest first, never the first
    assert "Turn 4: public report" in page and "Turn 2: public report" in page
    assert "Turn 1: public report" not in page
    assert "Turn 5 is open" in page
    # only the seat's own view: the other seat's secret die is not there
    assert '"secret"' not in page
    # nobody seatless reads it
    assert _client(make_user("nosy")).get(f"/games/{tally.pk}/briefing/").status_code == 404


def test_seat_history_page_and_gm_controls(tally, gm_user, make_user, on_commit):
    erin = make_user("erin")
    offer = _disorder(tally, on_commit)
    offers.accept(offer.pk, erin)
    desk = _client(gm_user)
    page = desk.get(f"/games/{tally.pk}/seats/").content.decode()
    assert f'id="approve-{offer.pk}"' in page and 'id="policy"' in page
    with on_commit():
        desk.post(f"/games/{tally.pk}/seats/offers/{offer.pk}/approve/", {"reason": "ok"})
    page = _client(erin).get(f"/games/{tally.pk}/seats/").content.decode()
    assert "erin" in page and "took over as a substitute" in page and 'id="policy"' not in page
    desk.post(f"/games/{tally.pk}/seats/policy/", {"approval": "auto", "free_turns": "2",
                                                   "min_finished": "0",
                                                   "min_met_percent": "0", "reason": "r"})
    assert policy.policy_of(tally).approval == "auto"
    assert LogEntry.objects.filter(game=tally, action="seat-policy").exists()


def test_a_players_seat_cannot_be_offered_outside_a_running_game(make_game, players):
    game = make_game("tally", 2, start=False)
    assert offers.offer_seat(game.seats.get(name="P1"), "civil_disorder") is None


def test_a_section_that_fails_does_not_stop_the_hand_over(tally, gm_user, make_user,
                                                          on_commit):
    def broken(game, seat, now):
        raise KeyError("engine trouble")

    section = briefing.Section("broken", "Broken", broken, 15)
    briefing.SECTIONS.append(section)
    try:
        with on_commit():
            referee.replace_player(tally, gm_user, "swap", "P2", make_user("erin"))
    finally:
        briefing.SECTIONS.remove(section)
    mail = Outbox.objects.get(key__startswith="briefing:")
    assert "This part cannot be shown just now" in mail.body_text
    assert "## Your seat now" in mail.body_text
