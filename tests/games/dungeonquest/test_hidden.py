"""Hidden information: the bag, decks, rings, hoard and dragon counters never show."""

from __future__ import annotations

import pytest

from games.core.canonical import canonical_json
from games.dungeonquest.engine import ENGINE
from games.dungeonquest.state import hidden_pile, hidden_piles

from .helpers import make_state, run, stack, stack_tiles


@pytest.mark.parametrize("pile", hidden_piles(make_state()))
def test_reordering_any_hidden_pile_leaves_every_view_unchanged(pile):
    st = make_state(2)
    stack_tiles(st, "room-cross")
    stack(st, "room", "treasure:bracelet")
    st, _ = run(st, {"P1": "MOVE EAST"}, [])
    other = ENGINE.from_json(ENGINE.to_json(st))
    items = hidden_pile(other, pile)
    j = next(k for k in range(len(items)) if items[k] != items[0])
    items[0], items[j] = items[j], items[0]
    assert canonical_json(other) != canonical_json(st)
    for viewer in (None, "P1", "P2"):
        assert ENGINE.view(other, viewer) == ENGINE.view(st, viewer)


def test_private_things_stay_private():
    st = make_state(2)
    stack_tiles(st, "room-cross")
    stack(st, "room", "treasure:bracelet")
    st, events = run(st, {"P1": "MOVE EAST"}, [])
    public = canonical_json(ENGINE.view(st, None))
    theirs = canonical_json(ENGINE.view(st, "P2"))
    mine = ENGINE.view(st, "P1")
    assert "bracelet" not in public and "bracelet" not in theirs
    assert mine["me"]["treasure_total"] == 40
    assert "me" not in ENGINE.view(st, None)
    for viewer in (None, "P2"):
        assert "bracelet" not in ENGINE.report(events, viewer)
    assert "bracelet" in ENGINE.report(events, "P1")
    assert "Moves east to B1" in ENGINE.report(events, None)


def test_perturb_hidden_changes_the_state_but_no_view():
    st = make_state(3)
    seq = iter(range(10**6))

    def pick(items):
        items = list(items)
        return items[next(seq) % len(items)]

    other = ENGINE.perturb_hidden(st, "P1", pick)
    assert canonical_json(other) != canonical_json(st)
    assert ENGINE.invariants(other) == []
    for viewer in (None, "P1", "P2", "P3"):
        assert ENGINE.view(other, viewer) == ENGINE.view(st, viewer)
