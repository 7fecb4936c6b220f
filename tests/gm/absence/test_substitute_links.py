"""The absence layer and the substitutes app together: a seat that falls into civil
disorder is offered, the volunteer who takes it ends the disorder, their briefing says
what a missed deadline would play (with the seat's "if I miss" orders), and a player's
record counts the vacations they used (gm.absence.links)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.absence import actions as absence
from gm.absence.models import Vacation
from gm.play import actions
from gm.play.models import Seat, Turn
from gm.substitutes import briefing, offers, policy, reliability
from gm.substitutes.models import SeatOffer

pytestmark = pytest.mark.django_db


def _miss(game, on_commit):
    with on_commit():
        actions.submit_orders(game, game.seats.get(name="P1"), "ADD 1")
    turn = game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with on_commit():
        actions.sweep_deadlines()
    game.refresh_from_db()


def test_a_substitute_ends_civil_disorder_and_is_briefed_on_missed_deadlines(
        make_game, make_user, gm_user, on_commit):
    game = make_game("tally", 2, options={"max_turns": 20, "target": 100})
    absence.configure(game, gm_user, {"misses_to_disorder": 2})
    p2 = game.seats.get(name="P2")
    with on_commit():
        absence.file_if_miss(game, p2, p2.user, "ADD 2")
    policy.store(game, {"approval": "auto"})
    erin = make_user("erin")
    offers.set_volunteer(erin, ["tally"])
    _miss(game, on_commit)
    _miss(game, on_commit)
    p2 = Seat.objects.get(pk=p2.pk)
    assert p2.mode == Seat.Mode.BOT and p2.absence.disorder
    offer = SeatOffer.objects.get(seat=p2, status__in=SeatOffer.LIVE)
    with on_commit():
        offers.accept(offer.pk, erin)
    p2 = Seat.objects.get(pk=p2.pk)
    assert p2.user == erin and p2.mode == Seat.Mode.ACTIVE
    p2.absence.refresh_from_db()
    assert not p2.absence.disorder and p2.absence.misses == 0
    parts = {part["key"]: part for part in briefing.sections(game, p2)}
    assert parts["if_i_miss"]["title"] == "If you miss a deadline"
    text = parts["if_i_miss"]["markdown"]
    assert "If you miss this deadline" in text and "ADD 2" in text


def test_the_record_counts_vacations_begun(make_user):
    ann = make_user("ann")
    now = timezone.now()
    # one taken last week (stored as it was filed then), one still to come
    Vacation.objects.create(user=ann, starts=now - timedelta(days=10),
                            ends=now - timedelta(days=8))
    absence.add_vacation(ann, now + timedelta(days=3), now + timedelta(days=5))
    assert reliability.record(ann)["vacations_used"] == 1
