"""Setup rules: roll for the start, champion picks, the starter's lighter deck, hands,
the opening queue and the starter's first turn."""

from __future__ import annotations

import pytest

from games.core.rng import ScriptedRng
from games.core.types import OrdersInvalid
from games.duelists import cards
from games.duelists.engine import ENGINE

IDENTITY_30 = list(range(30))
IDENTITY_28 = list(range(28))


@pytest.mark.parametrize("rolls, starter, first_picker", [
    ([5, 2], "P1", "P2"),
    ([1, 6], "P2", "P1"),
    ([4, 4, 3, 3, 2, 5], "P2", "P1"),  # ties roll again
])
def test_roll_for_start(rolls, starter, first_picker):
    state, events = ENGINE.setup(["P1", "P2"], {}, ScriptedRng(
        [("setup/start-roll", r) for r in rolls]))
    assert state["starter"] == starter
    assert state["awaiting"] == {first_picker: "champion"}
    assert len(state["rolls"]) == len(rolls) // 2
    assert events[0].kind == "start_roll" and events[0].audience is None


def _picked(first: str = "Harys", second: str = "Isdra"):
    state, _ = ENGINE.setup(["P1", "P2"], {}, ScriptedRng([6, 1]))  # P1 starts, P2 picks
    state, _ = ENGINE.resolve(state, {"P2": ENGINE.parse_orders(state, "P2", f"CHAMPION {first}")},
                              ScriptedRng([]))
    assert state["awaiting"] == {"P1": "champion"}
    order = ENGINE.parse_orders(state, "P1", f"CHAMPION {second}")
    state, events = ENGINE.resolve(state, {"P1": order},
                                   ScriptedRng([IDENTITY_28, IDENTITY_30]))
    return state, events


def test_the_other_player_picks_first_and_a_taken_champion_is_refused():
    state, _ = ENGINE.setup(["P1", "P2"], {}, ScriptedRng([6, 1]))
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "P1", "CHAMPION Isdra")  # P1 starts, so P2 picks first
    state, _ = ENGINE.resolve(state, {"P2": ENGINE.parse_orders(state, "P2", "CHAMPION harys")},
                              ScriptedRng([]))
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", "CHAMPION Harys")
    assert "taken" in exc.value.errors[0].message


def test_starter_removes_two_armor_and_both_draw_seven():
    state, events = _picked()
    p1, p2 = state["players"]["P1"], state["players"]["P2"]
    assert p1["champion"] == "isdra" and p2["champion"] == "harys"
    assert len(p1["hand"]) + len(p1["deck"]) == 28   # the starter
    assert len(p2["hand"]) + len(p2["deck"]) == 30
    assert sum(cards.is_armor(c) for c in p1["hand"] + p1["deck"]) == 8
    assert len(p1["hand"]) == len(p2["hand"]) == 7
    assert state["stage"] == "queue" and state["awaiting"] == {"P1": "queue", "P2": "queue"}
    # the hand's names reach only its owner
    assert all(e.audience == (e.data["seat"],) for e in events if e.kind == "drew_cards")


def test_opening_queue_refill_and_the_starters_first_turn():
    state, _ = _picked()
    # identity shuffles: P1 (Isdra) drew her first seven cards: 4 Quick Stab, 2 Flurry, Lunge
    orders = {"P1": ENGINE.parse_orders(state, "P1", "QUEUE Lunge, Flurry, Quick Stab"),
              "P2": ENGINE.parse_orders(state, "P2", "QUEUE Palm Strike, Palm Strike, Spirit Kick")}
    state, events = ENGINE.resolve(state, orders, ScriptedRng([]))
    p1, p2 = state["players"]["P1"], state["players"]["P2"]
    assert [cards.name(s["card"]) for s in p1["queue"]] == ["Lunge", "Flurry", "Quick Stab"]
    assert len(p1["hand"]) == 7 and len(p2["hand"]) == 7
    assert [s["up"] for s in p1["queue"]] == [True, False, False]  # the lead is revealed
    assert [s["up"] for s in p2["queue"]] == [False, False, False]
    turn = state["turn"]
    assert turn["attacker"] == "P1" and turn["first"] and turn["planned"]
    assert [e.data for e in events if e.kind == "discarded"] == []  # no preparation
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", "PLAN Quick Stab")  # no planning either
    assert "no card to plan" in exc.value.errors[0].message


def test_queue_needs_three_cards_from_the_hand():
    state, _ = _picked()
    for text in ("QUEUE Lunge, Flurry", "QUEUE Feint, Lunge, Flurry", "PLAN Lunge"):
        with pytest.raises(OrdersInvalid):
            ENGINE.parse_orders(state, "P1", text)


def test_queue_lines_add_up_so_the_forms_one_card_parts_work():
    """The order form offers `QUEUE <card>` per hand card, each adding a line: three such
    lines queue those cards, left-most first."""
    state, _ = _picked()
    prompt = ENGINE.decision(state).prompts["P1"]
    assert "QUEUE Lunge" in prompt["choices"]
    lines = "QUEUE Lunge\nQUEUE Flurry\nQUEUE Quick Stab"
    orders = {"P1": ENGINE.parse_orders(state, "P1", lines),
              "P2": ENGINE.parse_orders(state, "P2", "QUEUE Palm Strike\n"
                                        "QUEUE Palm Strike, Spirit Kick")}
    after, _ = ENGINE.resolve(state, orders, ScriptedRng([]))
    assert [cards.name(s["card"]) for s in after["players"]["P1"]["queue"]] == [
        "Lunge", "Flurry", "Quick Stab"]
    assert [cards.name(s["card"]) for s in after["players"]["P2"]["queue"]] == [
        "Palm Strike", "Palm Strike", "Spirit Kick"]
    for text, message in (("QUEUE Lunge\nQUEUE Flurry", "exactly three cards, not 2"),
                          ("QUEUE Lunge, Flurry\nQUEUE Quick Stab, Quick Stab",
                           "exactly three cards, not 4"),
                          ("QUEUE Lunge\nQUEUE Lunge", "not all in your hand")):
        with pytest.raises(OrdersInvalid) as exc:
            ENGINE.parse_orders(state, "P1", text)
        assert message in " ".join(e.message for e in exc.value.errors), text
