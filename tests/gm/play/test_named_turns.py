"""Orders name the turn they were written for; reaction windows get a short deadline.

An order for a turn that has closed is refused as late with the receipt of what stands,
never moved to the next turn (issue 17: "an order sent at the deadline is silently
applied to the next turn").
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.core.engine import Option
from games.core.types import Decision
from gm.accounts import tokens
from gm.play import actions
from gm.play.errors import Conflict, TurnClosed
from gm.play.models import Submission, Turn
from tests.gm.engines import TallyEngine

pytestmark = pytest.mark.django_db


def _seat(game, user):
    return game.seats.get(user=user)


def test_orders_for_the_open_turn_are_taken(make_game, players):
    game = make_game("tally", 2, process_early=False)
    sub = actions.submit_orders(game, _seat(game, players[0]), "ADD 2", turn_number=1)
    assert sub.turn.number == 1 and sub.version == 1


def test_orders_for_a_closed_turn_are_refused_with_what_stands(make_game, players, on_commit):
    game = make_game("tally", 2)
    p1, p2 = _seat(game, players[0]), _seat(game, players[1])
    with on_commit():
        kept = actions.submit_orders(game, p1, "ADD 3", turn_number=1)
        actions.submit_orders(game, p2, "ADD 1", turn_number=1)  # completes turn 1
    assert game.current_turn().number == 2
    with pytest.raises(TurnClosed) as exc:
        actions.submit_orders(game, p1, "ADD 2", turn_number=1)
    err = exc.value
    assert err.turn == 1 and err.open_turn == 2
    assert err.standing["receipt"] == kept.receipt and err.standing["orders"] == ["ADD 3"]
    assert f"version 1 (receipt {kept.receipt[:16]}) stands" in err.message
    assert "Turn 2 is open now" in err.message
    # Nothing was moved to turn 2.
    assert not Submission.objects.filter(turn__number=2).exists()


def test_a_seat_that_missed_the_turn_is_told_so(make_game, players, on_commit):
    game = make_game("tally", 2, process_early=False)
    actions.submit_orders(game, _seat(game, players[0]), "ADD 3", turn_number=1)
    with on_commit():
        actions.sweep_deadlines(game.current_turn().deadline)
    with pytest.raises(TurnClosed, match="You had no orders in for it") as exc:
        actions.submit_orders(game, _seat(game, players[1]), "ADD 1", turn_number=1)
    assert exc.value.standing is None and exc.value.open_turn == 2


def test_orders_at_the_deadline_name_their_turn(make_game, players):
    """Past the deadline, before the sweep: the turn is closed for orders naming it."""
    game = make_game("tally", 2, process_early=False)
    seat = _seat(game, players[0])
    first = actions.submit_orders(game, seat, "ADD 1", turn_number=1)
    Turn.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(TurnClosed) as exc:
        actions.submit_orders(game, seat, "ADD 3", turn_number=1)
    assert exc.value.standing["receipt"] == first.receipt and exc.value.open_turn is None


def test_a_turn_not_yet_open_is_refused(make_game, players):
    game = make_game("tally", 2)
    with pytest.raises(Conflict, match="turn 5 has not opened yet; the current turn is 1"):
        actions.submit_orders(game, _seat(game, players[0]), "ADD 1", turn_number=5)


def test_api_turn_field_gives_409_with_the_receipt(make_game, players, on_commit):
    game = make_game("tally", 1, options={"target": 100})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.issue(players[0])[1]}")
    url = f"/api/games/{game.pk}/orders/"
    with on_commit():
        resp = client.post(url, {"text": "ADD 2", "turn": 1}, format="json")
    assert resp.status_code == 201 and resp.json()["turn"] == 1
    resp = client.post(url, {"text": "ADD 3", "turn": 1}, format="json")
    assert resp.status_code == 409
    body = resp.json()
    assert body["turn"] == 1 and body["open_turn"] == 2
    assert body["standing"]["orders"] == ["ADD 2"]
    assert "turn 1 closed early: every seat's orders were in" in body["detail"]
    resp = client.post(url, {"text": "ADD 3", "turn": "one"}, format="json")
    assert resp.status_code == 400 and "turn" in resp.json()["errors"][0]["message"]
    with on_commit():
        assert client.post(url, {"text": "ADD 3", "turn": 2},
                           format="json").status_code == 201
    late = client.delete(url + "?turn=2")
    assert late.status_code == 409 and late.json()["standing"]["orders"] == ["ADD 3"]
    assert client.delete(url + "?turn=x").status_code == 400


class ReactionTally(TallyEngine):
    """Tally whose even turns are reaction windows."""

    name = "tally_reaction"

    def decision(self, state):
        d = super().decision(state)
        return d and Decision(d.phase, d.prompts, reaction=state["turn"] % 2 == 1)


class ReactionTallyWithOption(ReactionTally):
    name = "tally_reaction_opt"
    options = {**TallyEngine.options, "reaction_minutes": Option(default=30, min=5, max=600)}


@pytest.fixture
def reaction_engines():
    from games.core import registry

    engines = registry.engines()
    for cls in (ReactionTally, ReactionTallyWithOption):
        engines[cls.name] = cls()
    yield
    for cls in (ReactionTally, ReactionTallyWithOption):
        engines.pop(cls.name, None)


def _turn_minutes(turn: Turn) -> float:
    return (turn.deadline - turn.opened).total_seconds() / 60


def test_reaction_windows_get_the_short_deadline(make_game, players, on_commit, settings,
                                                 reaction_engines):
    settings.GM_REACTION_MINUTES = 45
    game = make_game("tally_reaction", 1, turn_hours=24)
    first = game.current_turn()
    assert "reaction" not in first.decision and _turn_minutes(first) == pytest.approx(1440, abs=1)
    with on_commit():
        actions.submit_orders(game, _seat(game, players[0]), "ADD 1", turn_number=1)
    second = game.current_turn()
    assert second.decision["reaction"] is True
    assert _turn_minutes(second) == pytest.approx(45, abs=0.1)


def test_the_game_option_overrides_the_setting_but_not_the_turn(make_game, players, on_commit,
                                                                reaction_engines):
    game = make_game("tally_reaction_opt", 1, turn_hours=24, options={"reaction_minutes": 20})
    with on_commit():
        actions.submit_orders(game, _seat(game, players[0]), "ADD 1")
    assert _turn_minutes(game.current_turn()) == pytest.approx(20, abs=0.1)
    short = make_game("tally_reaction_opt", 1, turn_hours=0, turn_minutes=10,
                      options={"reaction_minutes": 600}, title="short")
    with on_commit():
        actions.submit_orders(short, _seat(short, players[0]), "ADD 1")
    assert _turn_minutes(short.current_turn()) == pytest.approx(10, abs=0.1)
