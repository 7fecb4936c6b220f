"""gm.mail.notice_rows: each plain-SQL read of a notice batch gives what the ORM queries it
replaced gave (values, deferred columns, cached relations), and the Notice mark marks
what the ORM's UPDATE marked; on SQLite and on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.accounts.models import Profile
from gm.mail import compose, notice_rows, prefs
from gm.mail.models import Kind, MailPreference
from gm.play.models import Notice, Report, Seat, Turn, TurnRecord

from .publications import play_turn


def values(obj) -> dict:
    """Every loaded column of `obj` by attname (deferred ones left out)."""
    deferred = obj.get_deferred_fields()
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if f.attname not in deferred}


def same(ours, theirs) -> None:
    assert type(ours) is type(theirs)
    assert ours.get_deferred_fields() == theirs.get_deferred_fields()
    assert values(ours) == values(theirs)
    assert ours._state.adding is theirs._state.adding is False
    assert ours._state.db == theirs._state.db


@pytest.fixture
def played(tally_game, on_commit):
    play_turn(tally_game, on_commit)
    return tally_game


def test_a_record_with_its_reports_is_what_the_orm_read(played, django_assert_num_queries):
    record_pk = TurnRecord.objects.get(game=played, number=1).pk
    with django_assert_num_queries(1):
        record, reports = notice_rows.record_with_reports(record_pk)
    orm = (TurnRecord.objects.select_related("game")
           .defer("game__state", "game__setup_record", "state_before", "state_after",
                  "draws", "events", "orders").get(pk=record_pk))
    same(record, orm)
    same(record.game, orm.game)
    theirs = sorted(orm.reports.all(), key=lambda r: r.pk)
    assert len(reports) == len(theirs) >= 3  # public, each seat's, the GM's
    for ours, expected in zip(reports, theirs):
        same(ours, expected)
    with django_assert_num_queries(0):  # the relations come cached, as the ORM left them
        assert record.game.title == played.title
        assert all(r.record is record for r in reports)


def test_a_record_without_reports_and_no_record(played):
    record = TurnRecord.objects.get(game=played, number=1)
    Report.objects.filter(record=record).delete()
    found, reports = notice_rows.record_with_reports(record.pk)
    assert found.pk == record.pk and reports == []
    assert notice_rows.record_with_reports(10**9) is None


def test_a_turn_with_its_game_is_what_the_orm_read(played, django_assert_num_queries):
    turn_pk = Turn.objects.get(game=played, number=2).pk
    with django_assert_num_queries(1):
        turn = notice_rows.turn_with_game(turn_pk)
    orm = (Turn.objects.select_related("game").defer("game__state", "game__setup_record")
           .get(pk=turn_pk))
    same(turn, orm)
    same(turn.game, orm.game)
    assert turn.decision == orm.decision and turn.owing == orm.owing
    assert notice_rows.turn_with_game(10**9) is None


def test_the_seats_with_players_profiles_and_switches_are_what_the_orm_read(
        make_game, players, django_assert_num_queries):
    game = make_game("tally", 4)
    # a profile for two of the players (one unconfirmed, one with a zone), none for the
    # others; switches for three, several for one; a seat that plays defaults is left out
    Profile.objects.create(user=players[0], time_zone="Europe/Paris")
    Profile.objects.create(user=players[2], email_confirmed=False)
    prefs.set_pref(players[0], Kind.REPORT, False)
    prefs.set_pref(players[0], Kind.TURN_OPENED, True)
    prefs.set_pref(players[0], Kind.GAME_OVER, False)
    prefs.set_pref(players[1], Kind.REPORT, True)
    prefs.set_pref(players[3], Kind.REMINDER, False)
    Seat.objects.filter(game=game, user=players[3]).update(mode=Seat.Mode.DEFAULT)
    with django_assert_num_queries(1):
        seats, switches = notice_rows.active_seats(game)
    orm = list(game.seats.select_related("user", "user__profile")
               .filter(mode=Seat.Mode.ACTIVE, user__isnull=False))
    assert [s.pk for s in seats] == [s.pk for s in orm] and len(seats) == 3
    for ours, theirs in zip(seats, orm):
        same(ours, theirs)
        same(ours.user, theirs.user)
        # select_related's "no profile" is a cached None (the attribute then raises)
        mine, expected = (s.user._state.fields_cache["profile"] for s in (ours, theirs))
        if expected is None:
            assert mine is None
        else:
            same(mine, expected)
            assert mine.user is ours.user
    stored = MailPreference.objects.filter(user_id__in=[s.user_id for s in orm])
    assert switches == {(u, k): e for u, k, e in stored.values_list("user_id", "kind",
                                                                     "enabled")}
    assert all(type(v) is bool for v in switches.values())
    with django_assert_num_queries(0):  # what the notices read of a seat, cached
        for seat in seats:
            assert seat.game is game
            theirs = next(s for s in orm if s.pk == seat.pk).user
            assert prefs.confirmed(seat.user) == prefs.confirmed(theirs)
            assert compose.zone_for(seat.user) == compose.zone_for(theirs)


def test_a_seat_without_a_player_is_left_out(tally_game):
    Seat.objects.filter(game=tally_game, name="P2").update(user=None)
    seats, _switches = notice_rows.active_seats(tally_game)
    assert [s.name for s in seats] == ["P1"]


def test_the_notice_mark_is_the_orm_update(played):
    now = timezone.now()
    events = list(Notice.objects.filter(game=played).values_list("kind", "object_id"))
    assert len(events) >= 2
    Notice.objects.filter(game=played).update(handled=None)
    Notice.objects.filter(game=played, kind=events[0][0], object_id=events[0][1]).update(
        handled=now - timedelta(hours=1))  # handled before: left as it was
    marked = notice_rows.mark_handled([*events, events[1]], now)
    assert marked == len(events) - 1
    handled = {(kind, pk): at for kind, pk, at in
               Notice.objects.filter(game=played).values_list("kind", "object_id", "handled")}
    assert handled[events[0]] == now - timedelta(hours=1)
    assert all(handled[event] == now for event in events[1:])
    assert notice_rows.mark_handled([], now) == 0
