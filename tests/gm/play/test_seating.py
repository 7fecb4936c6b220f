"""gm.play.actions.seating: creating a game (ruleset, options, rules revision), joining and
starting it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import registry
from games.core.engine import REVISION, revision_of
from gm.play import actions
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, Turn

pytestmark = pytest.mark.django_db


def test_create_validates_ruleset_and_options(gm_user):
    with pytest.raises(ActionError, match="unknown ruleset 'chess'; known rulesets: "):
        actions.create_game(gm_user, ruleset="chess", title="x")
    with pytest.raises(ActionError, match=r"option 'target': 2 is outside 5\.\.100"):
        actions.create_game(gm_user, ruleset="tally", title="x", options={"target": 2})
    with pytest.raises(ActionError, match="unknown option 'colour'; this game's options are: "
                                          "max_turns, target"):
        actions.create_game(gm_user, ruleset="tally", title="x", options={"colour": "red"})
    game = actions.create_game(gm_user, ruleset="tally", title="  T  ")
    assert game.title == "T" and game.options == {"target": 12, "max_turns": 6,
                                                  REVISION: 1}
    assert game.status == Game.Status.OPEN


def test_a_game_plays_by_the_rules_revision_it_starts_with(gm_user, players):
    """Created before a rules revision (its options without the key, or an older one),
    a game starts at the current revision, in its options, its state and its export."""
    engine = registry.get("combat_dice")
    game = actions.create_game(gm_user, ruleset="combat_dice", title="R")
    assert game.options[REVISION] == engine.revision and game.options["damage_dice"] == "on"
    Game.objects.filter(pk=game.pk).update(options={"combatants": "basic", "reroll": "orders",
                                                    "max_turns": 100})
    for user in players[:2]:
        actions.join_game(game, user)
    actions.start_game(game, gm_user, entropy=b"\x03" * 32)
    game.refresh_from_db()
    assert game.options[REVISION] == engine.revision and game.options["damage_dice"] == "on"
    assert revision_of(game.state) == engine.revision
    assert actions.export_game(game, for_gm=True)["options"][REVISION] == engine.revision


def test_join_and_start_rules(gm_user, players, make_game):
    game = make_game("tally", 0, start=False, max_seats=2)
    a, b, c = players[:3]
    assert actions.join_game(game, a).name == "P1"
    with pytest.raises(Conflict, match="already have a seat"):
        actions.join_game(game, a)
    actions.join_game(game, b)
    with pytest.raises(Conflict, match="every seat is taken"):
        actions.join_game(game, c)
    with pytest.raises(NotAllowed, match="only the game's GM"):
        actions.start_game(game, a)
    actions.start_game(game, gm_user, entropy=b"\x02" * 32)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert len(game.secret_sha256) == 64 and game.secret not in game.secret_sha256
    turn = game.current_turn()
    assert turn.number == 1 and turn.status == Turn.Status.OPEN
    assert turn.owing == ["P1", "P2"]
    assert timedelta(hours=47) < turn.deadline - timezone.now() <= timedelta(hours=48)
    with pytest.raises(Conflict, match="already started"):
        actions.join_game(game, c)


def test_start_needs_enough_players(gm_user, make_game):
    game = make_game("tally", 0, start=False)
    with pytest.raises(Conflict, match="needs at least 1 players; 0 joined"):
        actions.start_game(game, gm_user)
