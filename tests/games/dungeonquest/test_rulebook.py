"""Rulebook readings that had no scenario of their own (the README's "Rules and their
tests" maps every rule to the tests that check it). State + orders -> expected outcome."""

from __future__ import annotations

from games.core.replay import secret_rng
from games.dungeonquest.board import START_TOWERS
from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack


def chamber_state(players: int = 1):
    st = make_state(players)
    place(st, "E6", "room-cross", "S")
    place(st, "F8", "room-cross", "N")
    put(st, "P1", "E6", "N", "E5")
    if players > 1:
        put(st, "P2", "F8", "S", "F9")
    st["hoard"] = sorted(st["hoard"], reverse=True)
    st["dragon"]["pool"] = sorted(st["dragon"]["pool"], reverse=True)  # sleeping first
    return st


def test_each_hero_starts_in_a_corner_of_his_own():
    """The Tower Room: every player starts in a different corner."""
    state, _ = ENGINE.setup(ENGINE.seat_names(4), ENGINE.new_game_options({"hero_choice": "assigned"}),
                            secret_rng("corners", None))
    starts = [state["chars"][s]["pos"] for s in state["seats"]]
    assert starts == START_TOWERS and len(set(starts)) == 4


def test_a_decision_that_kills_the_hero_stops_his_movement():
    """The decision is resolved first; its outcome may stop the turn's move (at worst
    the hero dies): here an orc from last turn kills him and he never steps east."""
    st = make_state()
    place(st, "B1", "room-cross", "E")
    put(st, "P1", "B1", "W", "A1", life=1,
        pending={"type": "monster", "kind": "orc", "life": 4, "ambush": False,
                 "no_escape": False, "square": "B1"})
    bag = list(st["bag"])
    new, events = run(st, {"P1": "ATTACK\nMOVE EAST"}, [("reaction/P1", 4), ("combat/P1", 1)])
    ch = new["chars"]["P1"]
    assert ch["status"] == "dead" and ch["pos"] == "B1"
    assert new["bag"] == bag and "C1" not in new["board"]  # no step, no tile


def test_a_room_may_be_searched_again_on_a_later_visit():
    """Twice a visit; back in the room later, it is searched as on a first visit."""
    st = make_state()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "room-cross", "S")
    put(st, "P1", "B2", "N", "B1", searches=2)
    _, events = run(st, {"P1": "SEARCH"}, [])
    assert "searched twice" in lines(events)
    stack(st, "room", "empty")
    away, _ = run(st, {"P1": "MOVE NORTH"}, [])
    assert away["chars"]["P1"]["pos"] == "B1"
    stack(away, "room", "empty")
    back, _ = run(away, {"P1": "MOVE SOUTH"}, [])
    assert back["chars"]["P1"]["pos"] == "B2" and back["chars"]["P1"]["searches"] == 0
    stack(back, "search", "empty")
    after, events = run(back, {"P1": "SEARCH"}, [])
    assert after["chars"]["P1"]["searches"] == 1
    assert after["decks"]["search"]["discard"] == ["empty"]


def test_a_hero_may_come_back_into_the_treasure_chamber_and_loot_again():
    """Leaving is a normal move with no counters; coming back later costs nothing more
    and loots as on the first entry."""
    st = chamber_state()
    inside, _ = run(st, {"P1": "MOVE SOUTH"}, [])
    assert [t["value"] for t in inside["chars"]["P1"]["treasure"]] == [300, 200]
    stack(inside, "room", "empty")
    out, _ = run(inside, {"P1": "MOVE NORTH"}, [("dragon/return", list(range(12)))])
    assert out["chars"]["P1"]["pos"] == "E6" and len(out["chars"]["P1"]["treasure"]) == 2
    assert out["dragon"]["drawn"] == [] and len(out["dragon"]["pool"]) == 12
    out["dragon"]["pool"] = sorted(out["dragon"]["pool"], reverse=True)  # sleeping first
    again, _ = run(out, {"P1": "MOVE SOUTH"}, [])
    ch = again["chars"]["P1"]
    assert ch["pos"] == "E7" and ch["life"] == ch["max_life"]
    assert [t["value"] for t in ch["treasure"]] == [300, 200, 200, 150]  # the hoard's next two
    assert again["dragon"]["drawn"] == ["sleeping"]


def test_dragon_counters_stay_out_until_the_last_hero_leaves_the_chamber():
    st = chamber_state(2)
    put(st, "P1", "E7", "N", "E6")
    put(st, "P2", "F7", "S", "F8")
    st["dragon"]["drawn"] = [st["dragon"]["pool"].pop(0) for _ in range(4)]
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE NORTH", "P2": "LOOT"}, [])  # no shuffle drawn
    assert new["chars"]["P1"]["pos"] == "E6" and new["chars"]["P2"]["pos"] == "F7"
    assert new["dragon"]["drawn"] == ["sleeping"] * 5  # P2 alone now: one counter
    assert "shuffled back" not in lines(events)
    stack(new, "room", "empty")
    last, events = run(new, {"P1": "STAY", "P2": "MOVE SOUTH"},
                       [("dragon/return", list(range(12)))])
    assert last["dragon"]["drawn"] == [] and "shuffled back" in lines(events)


def test_the_escaped_hero_with_the_most_treasure_wins_and_a_tie_shares_it():
    st = make_state(3)
    gold = {"P1": 120, "P2": 300, "P3": 300}
    for seat, value in gold.items():
        st["chars"][seat].update(status="escaped", treasure=[{"name": "x", "value": value}])
    st["chars"]["P3"]["status"] = "dead"  # the dead hero's gold counts for nothing
    assert ENGINE.result(st)["winners"] == ["P2"]
    st["chars"]["P3"]["status"] = "escaped"
    assert ENGINE.result(st)["winners"] == ["P2", "P3"]


def test_the_readmes_map_of_rules_to_tests_names_real_tests():
    """games/dungeonquest/README.md, "Rules and their tests": every test it names exists."""
    import fnmatch
    import re
    from pathlib import Path

    here = Path(__file__).parent
    readme = (here.parents[2] / "games" / "dungeonquest" / "README.md").read_text()
    table = readme.split("## Rules and their tests", 1)[1].split("\n## ", 1)[0]
    tests = {p.stem: set(re.findall(r"^def (test_\w+)", p.read_text(), re.M))
             for p in here.glob("test_*.py")}
    named = 0
    for row in (r for r in table.splitlines() if r.startswith("| ")):
        module = None
        for ref in re.findall(r"`([^`]+)`", row):
            if "::" not in ref:
                assert ref.split()[0] in tests, ref
                continue
            mod, name = ref.split("::")
            module = module if mod == "…" else mod
            assert any(fnmatch.fnmatch(t, name) for t in tests.get(module, ())), ref
            named += 1
    assert named > 50
