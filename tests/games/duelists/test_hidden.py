"""No-leak: hands, face-down queue cards, deck order, discard contents, kept orders and the
pending guesses never reach the other side's view or report."""

from __future__ import annotations

import random

import pytest

from games.core.canonical import canonical_json, clone, state_hash
from games.core.replay import secret_rng
from games.duelists import hidden
from games.duelists.engine import ENGINE

from .helpers import duel, play, seat
from .test_turn import P1_HAND, P2_HAND, standard


def _positions(seed: int, turns: int = 40) -> list[dict]:
    """States along a random game (bots and random orders mixed)."""
    rnd = random.Random(seed)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    state, _ = ENGINE.setup(["P1", "P2"], {}, secret_rng("ab" * 32, None))
    out = [state]
    for number in range(1, turns):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        orders = {s: ENGINE.parse_orders(state, s, (ENGINE.random_orders if number % 2 else
                                                    ENGINE.bot_orders)(state, s, pick))
                  for s in decision.seats}
        state, _ = ENGINE.resolve(state, orders, secret_rng("ab" * 32, number))
        out.append(state)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_kind_of_secret_is_invisible_to_the_other_side(seed):
    """Apply each perturbation hidden.options() lists, one by one, for every viewer."""
    rnd = random.Random(seed)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    covered = set()
    for state in _positions(seed):
        for viewer in (None, "P1", "P2"):
            before = canonical_json(ENGINE.view(state, viewer))
            for func, owner, arg in hidden.options(state, viewer):
                changed = clone(state)
                if arg is None:
                    func(changed, owner, pick)
                else:
                    func(changed, owner, pick, arg)
                assert state_hash(changed) != state_hash(state)
                assert ENGINE.invariants(changed) == []
                assert canonical_json(ENGINE.view(changed, viewer)) == before, (func, arg)
                covered.add((func.__name__, arg))
    assert {("_reverse_deck", None), ("_swap", "hand"), ("_swap", "queue"),
            ("_standing", None), ("_kept_orders", None)} <= covered


def test_views_show_my_secrets_and_placeholders_for_theirs():
    state = standard()
    mine = ENGINE.view(state, "P1")["players"]
    assert [c["name"] for c in mine["P1"]["hand"]] == sorted(P1_HAND, key=lambda n: [
        "Quick Stab", "Flurry", "Lunge", "Armor"].index(n))
    assert "hand" not in mine["P2"] and mine["P2"]["hand_count"] == 7
    assert mine["P2"]["queue"][0]["card"]["name"] == "Fur Guard"
    assert mine["P2"]["queue"][1] == {"face_up": False, "defended": False, "card": None}
    assert mine["P1"]["queue"][1]["card"]["name"] == "Feint"  # my own face-down card
    assert mine["P2"]["deck_count"] == 7 and "deck" not in mine["P2"]
    assert "deck" not in mine["P1"]  # not even my own deck order
    assert isinstance(mine["P2"]["exhausted"], list)
    assert mine["P1"]["tokens"] == {"power": 0, "disarmed": 0, "blinded": 0}
    public = ENGINE.view(state, None)["players"]
    assert "hand" not in public["P1"] and "hand" not in public["P2"]
    assert ENGINE.view(state, "*")["players"]["P2"]["deck"][0] == "Spear Thrust"


def _reports(state, orders):
    after, events = play(state, orders)
    return {v: ENGINE.report(events, v) for v in (None, "P1", "P2")}, after


def test_the_planned_card_and_hand_reach_only_their_owner():
    orders = {"P1": "PLAN Flurry\nSET 3", "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"}
    a, after_a = _reports(standard(), orders)
    b, after_b = _reports(standard(), {**orders, "P1": "PLAN Lunge\nSET 3"})
    assert a["P2"] == b["P2"] and a[None] == b[None]
    assert a["P1"] != b["P1"] and "Flurry" in a["P1"]
    assert ENGINE.view(after_a, "P2") == ENGINE.view(after_b, "P2")


def test_the_defenders_unused_hand_cards_never_show():
    hand_b = P2_HAND[:-1] + ["Harpoon Lunge"]
    p2_b = seat("nathrax", hand=hand_b, deck=["Spear Thrust", "Spear Thrust", "Armor",
                                               "Fur Guard", "Haft Strike", "Haft Strike",
                                               "Spear Thrust"],
                queue=[{"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    orders = {"P1": "PLAN Flurry\nSET 3", "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"}
    a, _ = _reports(standard(), orders)
    b, _ = _reports(standard(p2=p2_b), orders)
    assert a["P1"] == b["P1"] and a[None] == b[None]


def test_a_face_down_queue_card_and_deep_deck_order_do_not_leak():
    def p2(third, deck_tail):
        return seat("nathrax", hand=P2_HAND, deck=["Spear Thrust", "Spear Thrust", "Armor",
                                                   "Fur Guard"] + deck_tail,
                    queue=[{"name": "Fur Guard", "up": True}, "Spear Thrust", third])
    # 4 damage: the four known deck cards go, the tail stays unseen
    orders = {"P1": "PLAN Flurry\nSET 1", "P2": "DEFEND LEFT GUESS 3 4\nABSORB FROM DECK"}
    a, after_a = _reports(standard(p2=p2("Haft Strike", ["Harpoon Lunge", "Haft Strike"])),
                          orders)
    b, after_b = _reports(standard(p2=p2("Harpoon Lunge", ["Haft Strike", "Haft Strike"])),
                          orders)
    assert a["P1"] == b["P1"] and a[None] == b[None]
    assert canonical_json(ENGINE.view(after_a, "P1")) == canonical_json(
        ENGINE.view(after_b, "P1"))


def test_a_pending_die_setting_and_pending_guesses_stay_secret():
    p1 = seat("isdra", hand=P1_HAND, deck=["Slashing Arc"],
              queue=[{"name": "Crossed Blades", "up": True}, "Quick Stab", "Feint"])
    state = standard(p1=p1)
    # P1's SET is kept while P2 is asked to defend: P2's view and report cannot tell 1 from 3
    a, _ = play(state, {"P1": "PLAN Flurry\nSET 1", "P2": ""})
    b, _ = play(state, {"P1": "PLAN Flurry\nSET 3", "P2": ""})
    assert a["awaiting"] == {"P2": "defend"}
    assert ENGINE.view(a, "P2") == ENGINE.view(b, "P2")
    assert ENGINE.view(a, "P1")["turn"]["orders_kept"]["P1"]["set"] == ["SET 1"]
    # P2's guesses are kept while P1 is asked for the die
    c, ev_c = play(state, {"P1": "PLAN Flurry", "P2": "DEFEND LEFT GUESS 1 2"})
    d, ev_d = play(state, {"P1": "PLAN Flurry", "P2": "DEFEND LEFT GUESS 3 2"})
    assert ENGINE.view(c, "P1") == ENGINE.view(d, "P1")
    assert ENGINE.report(ev_c, "P1") == ENGINE.report(ev_d, "P1")
    assert ENGINE.view(c, "P2") != ENGINE.view(d, "P2")


def test_the_first_opponent_view_of_a_fresh_duel_hides_both_hands():
    p1 = seat("isdra", hand=P1_HAND, deck=["Feint"],
              queue=[{"name": "Quick Stab"}, "Slashing Arc", "Power Up Daggers"])
    p2 = seat("nathrax", hand=P2_HAND, deck=["Fur Guard"],
              queue=["Fur Guard", "Spear Thrust", "Haft Strike"])
    state = duel(p1, p2, first=True)
    theirs = ENGINE.view(state, "P2")["players"]["P1"]
    assert [slot["card"] for slot in theirs["queue"]][1:] == [None, None]
    assert theirs["queue"][0]["card"]["name"] == "Quick Stab"
