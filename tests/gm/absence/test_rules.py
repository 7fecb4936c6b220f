"""Scenario tests of the absence rules: grace, "if I miss" orders, civil disorder, bot
seats, vacations (waits, cap, forbidden, bot), and rollback giving back a grace."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from games.core.types import OrdersInvalid
from gm.absence import actions as absence
from gm.absence.models import AwayChoice, Extension
from gm.mail.models import Outbox
from gm.play import actions, signals
from gm.play.errors import Conflict
from gm.play.models import LogEntry, Seat, Turn, TurnRecord
from gm.referee import actions as referee

pytestmark = pytest.mark.django_db


@pytest.fixture
def game2(make_game):
    return make_game("tally", 2, options={"max_turns": 20, "target": 100})


@pytest.fixture
def bot_engine(tally_engine, monkeypatch):
    """The tally engine with a bot that always adds 3 (from the view it is given)."""
    seen = []

    def seat_bot(view, prompt, seat, pick):
        seen.append((seat, sorted(view)))
        return "ADD 3"
    monkeypatch.setattr(tally_engine, "seat_bot", seat_bot, raising=False)
    return seen


def _seat(game, name):
    return Seat.objects.select_related("user").get(game=game, name=name)


def _pass_deadline(game, on_commit):
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with on_commit():
        actions.sweep_deadlines()
    game.refresh_from_db()
    return game.current_turn()


def _order(game, name, text, on_commit):
    with on_commit():
        actions.submit_orders(game, _seat(game, name), text)


def _played(game, number, name):
    record = TurnRecord.objects.get(game=game, number=number, superseded=False)
    return record.orders[name]["items"][0]["order"]["n"], name in record.defaulted


def test_grace_moves_the_deadline_once_per_turn_and_is_spent(game2, gm_user, on_commit):
    absence.configure(game2, gm_user, {"grace_count": 1, "grace_hours": 24})
    _order(game2, "P1", "ADD 2", on_commit)
    before = timezone.now()
    turn = _pass_deadline(game2, on_commit)
    assert turn.number == 1 and turn.status == Turn.Status.OPEN
    assert timedelta(hours=23) < turn.deadline - before <= timedelta(hours=24)
    entry = LogEntry.objects.filter(game=game2, action="grace").get()
    assert "P2 used a grace extension (0 left)" in entry.public
    assert absence.grace_left(game2.absence_rules, _seat(game2, "P2")) == 0
    # the same turn's moved deadline passes: no second grace on it; the turn resolves
    turn = _pass_deadline(game2, on_commit)
    assert turn.number == 2
    assert _played(game2, 1, "P2") == (1, True)
    # no grace left: turn 2 resolves at its deadline (P1, who has one, sent orders)
    _order(game2, "P1", "ADD 2", on_commit)
    assert _pass_deadline(game2, on_commit).number == 3


def test_early_processing_still_applies_after_a_grace(game2, gm_user, on_commit):
    absence.configure(game2, gm_user, {"grace_count": 2, "grace_hours": 12})
    _order(game2, "P1", "ADD 2", on_commit)
    assert _pass_deadline(game2, on_commit).number == 1
    _order(game2, "P2", "ADD 3", on_commit)
    game2.refresh_from_db()
    assert game2.current_turn().number == 2
    assert _played(game2, 1, "P2") == (3, False)


def test_a_gm_forcing_the_turn_spends_no_grace(game2, gm_user, on_commit):
    absence.configure(game2, gm_user, {"grace_count": 2})
    with on_commit():
        referee.force_resolution(game2, gm_user, "table is waiting")
    game2.refresh_from_db()
    assert game2.current_turn().number == 2
    assert not Extension.objects.exists()


def test_if_i_miss_orders_are_checked_played_and_shown(game2, on_commit, players):
    p2 = _seat(game2, "P2")
    with pytest.raises(OrdersInvalid):
        absence.file_if_miss(game2, p2, players[1], "ADD 9")
    absence.file_if_miss(game2, p2, players[1], "ADD 3")
    line = absence.if_missed_line(game2, p2)
    assert line == 'if you miss this deadline: your "if I miss" orders are played: ADD 3'
    assert absence.if_missed_line(game2, _seat(game2, "P1")) == (
        "if you miss this deadline: the engine's default orders are played: ADD 1")
    _order(game2, "P1", "ADD 2", on_commit)
    _pass_deadline(game2, on_commit)
    assert _played(game2, 1, "P2") == (3, True)
    assert LogEntry.objects.filter(game=game2, action="missed",
                                   public__contains="P2 missed the deadline of turn 1: its "
                                   "\"if I miss\" orders were played").exists()


def test_unreadable_if_i_miss_orders_are_reported_at_once(game2, on_commit, players):
    p2 = _seat(game2, "P2")
    absence.file_if_miss(game2, p2, players[1], "ADD 3")
    heard = []

    def listen(sender, **kw):
        heard.append(kw)
    signals.notable.connect(listen)
    try:
        # the engine's rules change under the order (as a new phase would): re-read at once
        p2.absence.refresh_from_db()
        type(p2.absence).objects.filter(pk=p2.absence.pk).update(if_miss_text="ADD 1\nADD 2")
        _order(game2, "P1", "ADD 1", on_commit)
        _order(game2, "P2", "ADD 1", on_commit)
    finally:
        signals.notable.disconnect(listen)
    p2.absence.refresh_from_db()
    assert "exactly one ADD" in p2.absence.if_miss_problem
    told = [h for h in heard if h["kind"] == "orders_unreadable"]
    assert told and told[0]["users"] == [players[1].pk] and told[0]["urgent"]
    # mailed at once: by the notification layer (urgent, so not held) or, without it,
    # by the absence app's own notice
    assert Outbox.objects.filter(to=players[1].email).filter(
        Q(subject__contains="if-I-miss") | Q(subject__contains="if I miss")).exists()
    line = absence.if_missed_line(game2, p2)
    assert line == ("if you miss this deadline: the engine's default orders are played "
                    "(your \"if I miss\" orders no longer read): ADD 1")


def test_civil_disorder_after_n_misses_a_bot_plays_and_the_seat_is_offered(
        game2, gm_user, on_commit, bot_engine):
    absence.configure(game2, gm_user, {"misses_to_disorder": 2})
    offered = []

    def listen(sender, seat, reason, **kw):
        offered.append((seat.name, reason))
    signals.seat_needs_player.connect(listen)
    try:
        _order(game2, "P1", "ADD 1", on_commit)
        _pass_deadline(game2, on_commit)
        assert _seat(game2, "P2").mode == Seat.Mode.ACTIVE
        _order(game2, "P1", "ADD 1", on_commit)
        _pass_deadline(game2, on_commit)
    finally:
        signals.seat_needs_player.disconnect(listen)
    p2 = _seat(game2, "P2")
    assert p2.mode == Seat.Mode.BOT and p2.absence.disorder
    assert offered == [("P2", "civil_disorder")]
    assert _played(game2, 2, "P2") == (3, True)  # the bot played the turn it fell
    assert LogEntry.objects.filter(game=game2, action="civil-disorder").exists()
    assert ("P2", ["my_secret", "over", "totals", "turn"]) in bot_engine  # its own view
    # a seat in disorder plays no human part: P1's orders alone resolve the turn
    _order(game2, "P1", "ADD 1", on_commit)
    game2.refresh_from_db()
    assert game2.current_turn().number == 4
    # the GM gives the seat to a player: out of disorder
    with on_commit():
        referee.set_seat_mode(game2, gm_user, "found someone", "P2", Seat.Mode.ACTIVE)
    p2.absence.refresh_from_db()
    assert not p2.absence.disorder and p2.absence.misses == 0


def test_misses_in_a_row_reset_when_orders_come(game2, gm_user, on_commit):
    absence.configure(game2, gm_user, {"misses_to_disorder": 2})
    _order(game2, "P1", "ADD 1", on_commit)
    _pass_deadline(game2, on_commit)
    _order(game2, "P1", "ADD 1", on_commit)
    _order(game2, "P2", "ADD 1", on_commit)
    _order(game2, "P1", "ADD 1", on_commit)
    _pass_deadline(game2, on_commit)
    assert _seat(game2, "P2").mode == Seat.Mode.ACTIVE
    assert _seat(game2, "P2").absence.misses == 1


def test_fewer_bot_seats_before_the_start_keep_the_names_in_order(gm_user, players):
    game = actions.create_game(gm_user, ruleset="tally", title="solo")
    absence.configure(game, gm_user, {"bot_seats": 2}, creating=True)
    actions.join_game(game, players[0])
    absence.configure(game, gm_user, {"bot_seats": 1})
    assert list(game.seats.order_by("id").values_list("name", "user")) == [
        ("P1", None), ("P2", players[0].pk)]
    assert actions.join_game(game, players[1]).name == "P3"


def test_bot_seats_chosen_at_creation_fill_empty_seats(gm_user, players, on_commit,
                                                      bot_engine):
    with on_commit():
        game = actions.create_game(gm_user, ruleset="tally", title="solo")
        absence.configure(game, gm_user, {"bot_seats": 2}, creating=True)
        actions.join_game(game, players[0])
        game = actions.start_game(game, gm_user, entropy=b"\x05" * 32)
    game.refresh_from_db()
    seats = {s.name: (s.user_id, s.mode) for s in game.seats.all()}
    assert seats == {"P1": (None, "bot"), "P2": (None, "bot"), "P3": (players[0].pk, "active")}
    assert game.current_turn().owing == ["P1", "P2", "P3"]
    _order(game, "P3", "ADD 2", on_commit)  # the bots are in already: resolves at once
    game.refresh_from_db()
    assert game.current_turn().number == 2
    assert _played(game, 1, "P1") == (3, True) and _played(game, 1, "P3") == (2, False)


def test_too_many_bot_seats_are_refused(gm_user):
    game = actions.create_game(gm_user, ruleset="tally", title="solo")
    with pytest.raises(Conflict, match="has 4 seats"):
        absence.configure(game, gm_user, {"bot_seats": 5}, creating=True)


def test_a_vacation_the_deadlines_wait_for_up_to_the_cap(game2, gm_user, players, on_commit):
    absence.configure(game2, gm_user, {"vacation_cap_days": 1, "misses_to_disorder": 1})
    p2 = _seat(game2, "P2")
    absence.set_away_choice(game2, p2, players[1], AwayChoice.WAIT)
    now = timezone.now()
    absence.add_vacation(players[1], now - timedelta(hours=1), now + timedelta(days=3))
    _order(game2, "P1", "ADD 1", on_commit)
    turn = _pass_deadline(game2, on_commit)
    assert turn.number == 1
    assert timedelta(hours=23) < turn.deadline - now <= timedelta(hours=24, minutes=1)
    assert LogEntry.objects.filter(game=game2, action="vacation-wait",
                                   public__contains="P2 is away").exists()
    # the cap is spent: the turn resolves; a miss while away is no step to civil disorder
    assert _pass_deadline(game2, on_commit).number == 2
    assert _seat(game2, "P2").mode == Seat.Mode.ACTIVE


def test_away_with_the_bot(game2, gm_user, players, on_commit, bot_engine):
    absence.configure(game2, gm_user, {})
    p2 = _seat(game2, "P2")
    absence.set_away_choice(game2, p2, players[1], AwayChoice.BOT)
    now = timezone.now()
    absence.add_vacation(players[1], now - timedelta(hours=1), now + timedelta(days=3))
    assert absence.if_missed_line(game2, p2) == (
        "if you miss this deadline: a bot plays for you: ADD 3")
    lines = absence.away_lines(game2)
    assert len(lines) == 1 and lines[0].startswith("P2 is away until ")
    assert lines[0].endswith("(their orders: bot)")
    _order(game2, "P1", "ADD 1", on_commit)
    _pass_deadline(game2, on_commit)
    assert _played(game2, 1, "P2") == (3, True)


def test_a_gm_can_forbid_vacations(game2, gm_user, players, on_commit):
    absence.configure(game2, gm_user, {"vacations_allowed": False, "grace_count": 0})
    p2 = _seat(game2, "P2")
    now = timezone.now()
    with pytest.raises(Conflict, match="does not allow vacations"):
        absence.add_vacation(players[1], now, now + timedelta(days=2), game=game2)
    with pytest.raises(Conflict, match="do not wait"):
        absence.set_away_choice(game2, p2, players[1], AwayChoice.WAIT)
    absence.SeatAbsence.objects.filter(seat=p2).update(away_choice=AwayChoice.WAIT)
    absence.add_vacation(players[1], now - timedelta(hours=1), now + timedelta(days=2))
    assert absence.away_lines(game2) == []
    _order(game2, "P1", "ADD 1", on_commit)
    assert _pass_deadline(game2, on_commit).number == 2  # nobody waits


def test_vacation_windows_are_checked(players):
    now = timezone.now()
    with pytest.raises(Exception, match="ends after it starts"):
        absence.add_vacation(players[0], now + timedelta(days=2), now + timedelta(days=1))
    with pytest.raises(Exception, match="already over"):
        absence.add_vacation(players[0], now - timedelta(days=2), now - timedelta(days=1))
    with pytest.raises(Exception, match="at most 90 days"):
        absence.add_vacation(players[0], now, now + timedelta(days=200))


def test_a_rollback_gives_back_a_grace_spent_on_a_turn_set_aside(game2, gm_user, on_commit):
    absence.configure(game2, gm_user, {"grace_count": 1})
    _order(game2, "P1", "ADD 1", on_commit)
    _pass_deadline(game2, on_commit)
    _pass_deadline(game2, on_commit)  # turn 1 resolves with P2's grace spent on it
    rules, p2 = game2.absence_rules, _seat(game2, "P2")
    assert absence.grace_left(rules, p2) == 0
    with on_commit():
        referee.rollback_to(game2, gm_user, "a wrong ruling", 1)
    assert absence.grace_left(rules, p2) == 1
    entry = LogEntry.objects.filter(game=game2, action="grace-returned").get()
    assert "given back to P2" in entry.public


def test_a_rollback_takes_back_misses_and_the_disorder_they_started(game2, gm_user,
                                                                    on_commit):
    absence.configure(game2, gm_user, {"misses_to_disorder": 2})
    for _ in range(2):
        _order(game2, "P1", "ADD 1", on_commit)
        _pass_deadline(game2, on_commit)
    assert _seat(game2, "P2").mode == Seat.Mode.BOT
    with on_commit():
        referee.rollback_to(game2, gm_user, "the server was down that weekend", 2)
    p2 = _seat(game2, "P2")
    assert p2.mode == Seat.Mode.ACTIVE
    assert (p2.absence.misses, p2.absence.disorder) == (1, False)
    assert LogEntry.objects.filter(game=game2, action="civil-disorder-undone",
                                   public__contains="P2").exists()


def test_orders_from_the_player_end_their_civil_disorder(game2, gm_user, on_commit,
                                                         players):
    absence.configure(game2, gm_user, {"misses_to_disorder": 1})
    _order(game2, "P1", "ADD 1", on_commit)
    _pass_deadline(game2, on_commit)
    assert _seat(game2, "P2").mode == Seat.Mode.BOT
    with on_commit():
        actions.submit_orders(game2, _seat(game2, "P2"), "ADD 2", author=players[1])
    assert _seat(game2, "P2").mode == Seat.Mode.ACTIVE
    assert LogEntry.objects.filter(game=game2, action="civil-disorder-ended").exists()
    _order(game2, "P1", "ADD 1", on_commit)
    game2.refresh_from_db()
    assert game2.current_turn().number == 3
    assert _played(game2, 2, "P2") == (2, False)
