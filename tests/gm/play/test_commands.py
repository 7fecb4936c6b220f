"""Management commands of the play app: run_deadlines (and its periodic jobs), demo."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from gm.play.models import Game, Turn, TurnRecord
from gm.play.periodic import Loop

pytestmark = pytest.mark.django_db(transaction=True)


def test_run_deadlines_resolves_due_turns(make_game):
    game = make_game("tally", 2)
    Turn.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))
    out = StringIO()
    call_command("run_deadlines", stdout=out)
    assert out.getvalue().strip() == "1 turn(s) due"
    assert TurnRecord.objects.filter(game=game, number=1).count() == 1
    assert sorted(TurnRecord.objects.get(game=game).defaulted) == ["P1", "P2"]


def test_loop_runs_periodic_jobs_on_their_interval(settings, monkeypatch):
    calls = []
    monkeypatch.setattr("tests.gm.play.test_commands.job", lambda: calls.append(1),
                        raising=False)
    settings.GM_PERIODIC = {"tests.gm.play.test_commands.job": 3600,
                            "tests.gm.play.test_commands.broken": 0}
    loop = Loop()
    loop.tick()
    loop.tick()
    assert calls == [1]  # once per hour, not once per sweep; the broken job did not stop it


def broken():
    raise RuntimeError("boom")


def test_demo_seeds_users_and_a_game_per_ruleset(tally_engine):
    from games.core import registry

    out = StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=StringIO())  # idempotent
    assert Game.objects.count() == len(registry.engines())
    assert all(g.status == "running" for g in Game.objects.all())
    assert "demo-pass-123" in out.getvalue()
