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
    call_command("demo", "--force", stdout=out)
    call_command("demo", "--force", stdout=StringIO())  # idempotent
    running = Game.objects.exclude(title="Demo: open table (join me)")
    assert running.count() == len(registry.engines())
    assert all(g.status == "running" for g in running)
    # and a table a newcomer can join: open, one seat taken, room for more
    table = Game.objects.get(title="Demo: open table (join me)")
    assert table.status == "open" and table.ruleset == "dungeonquest"
    assert list(table.seats.values_list("user__username", flat=True)) == ["carol"]
    assert "demo-pass-123" in out.getvalue()


def test_a_newcomer_finds_the_demo_s_open_table_and_joins_it(tally_engine, make_user):
    """Signed up after `make run`: the lobby's "Open games" lists the table (it said "No
    game is waiting for players" before), and its invite page seats the newcomer."""
    from django.test import Client

    call_command("demo", "--force", stdout=StringIO())
    newcomer = make_user("newcomer")
    client = Client()
    client.force_login(newcomer)
    lobby = client.get("/").content.decode()
    table = Game.objects.get(title="Demo: open table (join me)")
    open_cards = lobby.split('id="open-h"', 1)[1].split("</section>", 1)[0]
    assert f'href="/games/{table.pk}/invite/"' in open_cards
    assert client.post(f"/games/{table.pk}/join/").status_code == 302
    assert table.seats.filter(user=newcomer).exists()


def test_demo_refuses_without_debug_unless_forced(settings):
    """Issue 29: the demo's superuser gm / demo-pass-123 never lands on a real site by
    mistake: without DEBUG=1 (LOCAL_DEV) the command refuses and creates nobody."""
    from django.contrib.auth import get_user_model
    from django.core.management.base import CommandError

    settings.LOCAL_DEV, settings.DEBUG = False, False
    with pytest.raises(CommandError, match="refusing to seed demo users without DEBUG=1"):
        call_command("demo", stdout=StringIO())
    assert not get_user_model().objects.filter(username="gm").exists()
    assert not Game.objects.exists()
    settings.LOCAL_DEV = True  # `make run` sets DEBUG=1
    call_command("demo", stdout=StringIO())
    assert get_user_model().objects.get(username="gm").is_superuser
