"""Deadlines at a human hour: the fixed local hour, excluded days, daylight saving, an
early resolution keeping the schedule, and the proposed hour."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from gm.notify import schedule
from gm.notify.models import Schedule

BERLIN = ZoneInfo("Europe/Berlin")


def at(*args, zone=UTC):
    return datetime(*args, tzinfo=zone)


@pytest.mark.parametrize("start,hours,excluded,move,expected", [
    # Tuesday 15:00 Berlin + 24 h -> Wednesday 20:00 Berlin
    (at(2026, 6, 2, 15, zone=BERLIN), 24, (), "later", at(2026, 6, 3, 20, zone=BERLIN)),
    # resolved early, Tuesday 10:00: the schedule holds (Wednesday 20:00), never shorter
    (at(2026, 6, 2, 10, zone=BERLIN), 24, (), "later", at(2026, 6, 3, 20, zone=BERLIN)),
    # exactly on the hour: kept
    (at(2026, 6, 2, 20, zone=BERLIN), 24, (), "later", at(2026, 6, 3, 20, zone=BERLIN)),
    # Friday + 24 h lands on Saturday: weekends excluded -> Monday
    (at(2026, 6, 5, 21, zone=BERLIN), 24, (5, 6), "later", at(2026, 6, 8, 20, zone=BERLIN)),
    # ... or back to Friday when that is still past half the turn's length
    (at(2026, 6, 5, 6, zone=BERLIN), 24, (5, 6), "earlier", at(2026, 6, 5, 20, zone=BERLIN)),
    # ... but not when Friday 20:00 would cut the turn below half its length
    (at(2026, 6, 5, 19, zone=BERLIN), 24, (5, 6), "earlier", at(2026, 6, 8, 20, zone=BERLIN)),
    # across the autumn change (25 October): still 20:00 local, now UTC+1
    (at(2026, 10, 24, 21, zone=BERLIN), 24, (), "later", at(2026, 10, 25, 19)),
    (at(2026, 10, 23, 18, zone=BERLIN), 24, (), "later", at(2026, 10, 24, 18)),
])
def test_fixed_local_hour(start, hours, excluded, move, expected):
    start = start.astimezone(UTC)
    got = schedule.fix(start + timedelta(hours=hours), start, hour=20, zone=BERLIN,
                       excluded=excluded, move=move)
    assert got == expected
    assert got.astimezone(BERLIN).hour == 20


def test_the_proposed_hour_puts_fewest_in_their_night():
    # Berlin and New York: 20:00 Berlin is 14:00 in New York, nobody asleep
    proposal = schedule.propose_hour(["Europe/Berlin", "America/New_York"], "Europe/Berlin",
                                     on=datetime(2026, 6, 1).date())
    assert proposal["in_night"] == 0 and proposal["hour"] == 20
    # Tokyo, Berlin, Los Angeles: somebody is always asleep at some hours; the best hour
    # leaves nobody in the night if any does
    proposal = schedule.propose_hour(["Asia/Tokyo", "Europe/Berlin", "America/Los_Angeles"],
                                     "UTC", on=datetime(2026, 6, 1).date())
    assert proposal["in_night"] == min(proposal["by_hour"].values())
    assert proposal["in_night"] <= 1


def test_a_game_with_a_schedule_opens_turns_at_its_hour(make_game, play_defaults,
                                                        tally_engine):
    game = make_game("tally", 2, turn_hours=24)
    Schedule.objects.create(game=game, hour=20, time_zone="Europe/Berlin")
    play_defaults(game)  # everyone in: resolved early, the next turn opens now
    turn = game.current_turn()
    assert turn.number == 2
    local = turn.deadline.astimezone(BERLIN)
    assert (local.hour, local.minute) == (20, 0)
    assert turn.deadline - turn.opened >= timedelta(hours=24)


def test_a_game_without_a_schedule_is_as_before(make_game, play_defaults, tally_engine):
    game = make_game("tally", 2, turn_hours=24)
    play_defaults(game)
    turn = game.current_turn()
    assert turn.deadline - turn.opened == timedelta(hours=24)
