"""Rerun, rollback and verify over every registered engine, through the registry only."""

import random

import pytest

from games.core import registry
from games.core.engine import REVISION, revision_of
from games.core.verify import verify_record
from gm.play import actions as play
from gm.referee import actions
from tests.gm import pseudo

ENGINES = sorted(name for name in registry.engines() if name != "toy_race")


def play_some(game, on_commit, turns: int, seed: int = 7):
    """Play up to `turns` turns with the engine's random legal orders; return their texts."""
    engine = registry.get(game.ruleset)
    rnd = random.Random(seed)
    texts = []
    for _ in range(turns):
        game.refresh_from_db()
        turn = game.current_turn()
        if turn is None or game.status != "running" or turn.status != "open":
            break
        state = engine.from_json(game.state)
        orders = {seat: engine.random_orders(state, seat, lambda seq: rnd.choice(list(seq)))
                  for seat in turn.owing}
        texts.append(orders)
        for seat, text in orders.items():
            with on_commit():
                pseudo.submit(game, seat, text)  # a pseudo seat: the GM's desk
    game.refresh_from_db()
    return texts


def hashes(game):
    return [r.after_hash for r in game.records.filter(superseded=False).order_by("number")]


def attempts(game):
    return [r.attempt for r in game.records.filter(superseded=False).order_by("number")]


@pytest.mark.parametrize("ruleset", ENGINES)
def test_rerun_and_rollback_draw_fresh_dice_and_verify(ruleset, make_game, gm_user, on_commit):
    """Every re-resolution draws from a fresh stream (issue 11), and the export verifies."""
    engine = registry.get(ruleset)
    for seed in range(20):  # a game that is still running after three turns
        game = make_game(ruleset, engine.min_seats)
        play_some(game, on_commit, 3, seed)
        if game.status == "running":
            break
    assert game.status == "running"
    before = hashes(game)
    assert len(before) >= 2, "the engine should last at least two turns"
    assert attempts(game) == [1] * len(before)
    with on_commit():
        result = actions.rerun_from(game, gm_user, "same again", 1)
    game.refresh_from_db()
    assert attempts(game)[:len(result.resolved)] == [2] * len(result.resolved)
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error
    last = game.records.filter(superseded=False).order_by("-number").first()
    orders = {seat: o["text"] for seat, o in last.orders.items() if seat not in last.defaulted}
    with on_commit():
        actions.rollback_to(game, gm_user, "again", last.number)
    game.refresh_from_db()
    assert game.current_turn().attempt == 3
    for seat, text in orders.items():  # the same orders as the rerun's record
        with on_commit():
            pseudo.submit(game, seat, text)
    game.refresh_from_db()
    again = game.records.get(superseded=False, number=last.number)
    assert again.attempt == 3 and again.orders == last.orders
    export = play.export_game(game, for_gm=True)
    assert [t["attempt"] for t in export["turns"]][last.number - 1] == 3
    verdict = verify_record(export)
    assert verdict.ok, verdict.error


def test_a_game_started_before_rules_revisions_reruns_and_verifies_by_its_own_rules(
        make_game, gm_user, on_commit, monkeypatch):
    """A game whose options carry no rules revision (started before revisions existed)
    keeps revision 1: a rerun from turn 1 replays its setup to the recorded hash (Combat
    Dice's damage_dice option, filled in at setup, used to change it) and the export
    verifies."""
    engine = registry.get("combat_dice")
    old = {"combatants": "basic", "reroll": "orders", "max_turns": 100}  # as stored then
    # Started by the code of then: no revision stamped, no damage_dice option at all.
    monkeypatch.setattr(type(engine), "new_game_options", lambda self, options: dict(old))
    monkeypatch.setattr(type(engine), "options",
                        {k: o for k, o in engine.options.items() if k != "damage_dice"})
    game = make_game("combat_dice", 2)
    monkeypatch.undo()
    assert "damage_dice" in engine.options
    assert game.options == old and REVISION not in game.state
    play_some(game, on_commit, 3)
    assert game.status == "running" and len(hashes(game)) >= 2
    with on_commit():
        actions.rerun_from(game, gm_user, "same again", 1)
    game.refresh_from_db()
    assert game.options == old and revision_of(game.state) == 1
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error


@pytest.mark.parametrize("revision", [1, 2, 3])
def test_a_dungeonquest_game_reruns_with_the_content_of_its_revision(
        revision, make_game, gm_user, on_commit, monkeypatch):
    """Dungeonquest's revisions differ in content (decks, tiles, hero sheets) and rules
    (revision 3): a game started before revisions (options without the key) is set up,
    played, rerun from turn 1 and verified with revision 1's content, a game started
    under revision 2 by revision 2's, a new game by the current revision's."""
    from games.core.engine import REVISION
    from games.dungeonquest import content

    engine = registry.get("dungeonquest")
    assert engine.revision == 3  # a new revision: add it to the parameters
    opts = {"hero_choice": "assigned", "first_hero": "barbarian"}
    if revision == 1:  # started by the code of then: no revision stamped
        monkeypatch.setattr(type(engine), "new_game_options",
                            lambda self, options: self.validate_options(options))
    elif revision < engine.revision:  # started while `revision` was the current one
        monkeypatch.setattr(type(engine), "new_game_options",
                            lambda self, options: self.validate_options(
                                {**(options or {}), REVISION: revision}))
    game = make_game("dungeonquest", 2, options=opts)
    monkeypatch.undo()
    assert revision_of(game.options) == revision and revision_of(game.state) == revision
    tables = content.for_revision(revision)
    barbarian = [c for c in game.state["chars"].values() if c["hero"] == "barbarian"]
    assert barbarian[0]["max_life"] == tables.heroes["barbarian"]["life"]
    assert engine.invariants(engine.from_json(game.state)) == []  # its own tile bag, decks
    play_some(game, on_commit, 3)
    with on_commit():
        actions.rerun_from(game, gm_user, "same again", 1)
    game.refresh_from_db()
    assert revision_of(game.state) == revision
    verdict = verify_record(play.export_game(game, for_gm=True))
    assert verdict.ok, verdict.error
