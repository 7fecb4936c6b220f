"""Whole-game behaviour: content cross-checks, decisions, the end and the result."""

from __future__ import annotations

import pytest

from games.core.replay import secret_rng
from games.dungeonquest import content
from games.dungeonquest.engine import ENGINE
from games.dungeonquest.simulate import bot_orders, play

from .helpers import lines, make_state, place, put, run


@pytest.mark.parametrize("revision", range(1, ENGINE.revision + 1))
def test_designed_content_is_consistent(revision):
    tables = content.for_revision(revision)
    assert tables.check() == []
    assert len(tables.rings) == 7
    assert tables.dragon_counters().count("fiery") == 1
    assert tables.dragon_counters().count("sleeping") == 11
    assert set(tables.monsters) == {"goblin", "orc", "death-warrior", "troll", "champion"}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_hero_in_the_dungeon_owes_orders_until_the_end(players):
    seats = ENGINE.seat_names(players)
    state, _ = ENGINE.setup(seats, ENGINE.new_game_options({}), secret_rng("game", None))
    assert ENGINE.decision(state).seats == seats
    final = play(ENGINE, seats, "ranger", "game")
    assert ENGINE.decision(final) is None
    assert final["turn"] <= 27
    assert all(c["status"] in ("escaped", "dead") for c in final["chars"].values())
    result = ENGINE.result(final)
    escaped = {s for s, c in final["chars"].items() if c["status"] == "escaped"}
    assert set(result["winners"]) <= escaped


def test_slash_then_escape():
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "C1", "room-cross", "E")
    put(st, "P1", "C1", "W", "B1",
        pending={"type": "monster", "kind": "troll", "life": 6, "ambush": False,
                 "no_escape": False, "square": "C1"})
    # ESCAPE: d6 4, minus the troll's menace 1 = 3: it slashes (3, -1 plate) as you go
    new, events = run(st, {"P1": "ESCAPE"}, [("reaction/P1", 4)])
    assert new["chars"]["P1"]["pos"] == "B1" and new["chars"]["P1"]["life"] == 14
    assert "slashes as you get away" in lines(events)


def test_bot_orders_always_parse():
    state, _ = ENGINE.setup(["P1", "P2"], ENGINE.new_game_options({}), secret_rng("bot", None))
    for seat in ("P1", "P2"):
        assert ENGINE.parse_orders(state, seat, bot_orders(state, seat)).items


def test_options_choose_the_first_hero():
    state, _ = ENGINE.setup(["P1", "P2"], ENGINE.new_game_options({"first_hero": "adventurer", "hero_choice": "assigned"}),
                            secret_rng("opt", None))
    assert [c["hero"] for c in state["chars"].values()] == ["adventurer", "knight"]


def test_simulation_prints_survival_and_treasure(capsys):
    from games.dungeonquest.simulate import main
    main(["--games", "4", "--players", "1", "2", "--seed", "smoke"])
    out = capsys.readouterr().out
    assert "solo: 4 games" in out and "2 players: 4 games" in out
    assert out.count("(rulebook: about 15%)") == 2 and "knight" in out
    assert out.count("heroes who reached the treasure chamber") == 2
    assert out.count("causes of death") == 2
