"""Exhausting armor to draw, at each moment it can matter: the start of the turn, before a
hit is absorbed (and how that meets ABSORB HAND), and a deck too short to draw from."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.core.canonical import canonical_json
from games.core.types import OrdersInvalid
from games.duelists.engine import ENGINE
from games.duelists.orders import GRAMMAR
from tests.games.golden import assert_golden

from .helpers import duel, kinds, names, play, seat
from .test_turn import P1_HAND, P2_HAND, standard

GOLDEN = Path(__file__).parent / "golden"
P2_DECK = ["Spear Thrust", "Spear Thrust", "Armor", "Fur Guard", "Haft Strike", "Haft Strike",
           "Spear Thrust"]
HIT_4 = "PLAN Flurry\nSET 1"  # Quick Stab (1-4)+3: 4 damage unless 1 is guessed
GUARD_3_4 = "DEFEND LEFT GUESS 3 4\n"  # Fur Guard, Stab 2: guesses 3 and 4 miss the 1


def _p2(hand=P2_HAND, deck=P2_DECK, **kw):
    return seat("nathrax", hand=hand, deck=deck,
                queue=[{"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"], **kw)


def _order_of(events, *wanted):
    """The kinds of `events` restricted to `wanted`, in the order they happened."""
    return [e.kind for e in events if e.kind in wanted]


# -- before absorbing ---------------------------------------------------------------
@pytest.mark.parametrize("orders, exchanged, from_hand, from_deck", [
    # armor turned into fresh cards, the damage then comes off the deck
    ("EXHAUST ARMOR 2 BEFORE ABSORB\nABSORB FROM DECK", 2, [],
     ["Armor", "Fur Guard", "Haft Strike", "Haft Strike"]),
    # ALL keeps back the armor ABSORB HAND will use: one exchanged, one absorbs
    ("EXHAUST ARMOR ALL BEFORE ABSORB\nABSORB HAND Armor", 1, ["Armor"],
     ["Spear Thrust", "Armor", "Fur Guard"]),
    # ... and a count is cut down the same way: both armor absorb, none exchanged
    ("EXHAUST ARMOR 2 BEFORE ABSORB\nABSORB HAND Armor, Armor", 0, ["Armor", "Armor"],
     ["Spear Thrust", "Spear Thrust"]),
    # the card the exchange draws (Spear Thrust) can absorb when ABSORB HAND names it
    ("EXHAUST ARMOR 1 BEFORE ABSORB\nABSORB HAND Spear Thrust, Armor", 1,
     ["Spear Thrust", "Armor"], ["Spear Thrust", "Armor"]),
    # conditional on the damage (4 here)
    ("IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB\nABSORB FROM DECK", 2, [],
     ["Armor", "Fur Guard", "Haft Strike", "Haft Strike"]),
    ("IF DAMAGE > 4 THEN EXHAUST ARMOR ALL BEFORE ABSORB ELSE EXHAUST ARMOR 1 BEFORE ABSORB"
     "\nABSORB FROM DECK", 1, [], ["Spear Thrust", "Armor", "Fur Guard", "Haft Strike"]),
    # conditional on the cards left to draw (7 here)
    ("IF DECK < 5 THEN EXHAUST ARMOR ALL BEFORE ABSORB\nABSORB FROM DECK", 0, [],
     ["Spear Thrust", "Spear Thrust", "Armor", "Fur Guard"]),
    # a standing exchange works like a line for this hit
    ("STANDING EXHAUST ARMOR 1 BEFORE ABSORB\nABSORB FROM DECK", 1, [],
     ["Spear Thrust", "Armor", "Fur Guard", "Haft Strike"]),
])
def test_armor_exchanged_once_the_hit_is_known_then_the_hit_is_absorbed(
        orders, exchanged, from_hand, from_deck):
    after, events = play(standard(), {"P1": HIT_4, "P2": GUARD_3_4 + orders})
    done = [e for e in kinds(events, "armor_exhausted") if e["count"]]
    assert [e["count"] for e in done] == ([exchanged] if exchanged else [])
    assert all(e["moment"] == "absorb" for e in done)
    if exchanged:
        assert _order_of(events, "strike", "armor_exhausted", "absorbed") == [
            "strike", "armor_exhausted", "absorbed"]
        drawn = [e.data["cards"] for e in events if e.kind == "drew_cards"][0]
        assert drawn == P2_DECK[:exchanged]
    absorbed = kinds(events, "absorbed")[0]
    assert (absorbed["hand"], absorbed["deck"]) == (from_hand, from_deck)
    p2 = after["players"]["P2"]
    assert names(p2["exhausted"]).count("Armor") >= exchanged + from_hand.count("Armor")


def test_a_blocked_attack_leaves_the_exchange_unmade():
    after, events = play(standard(), {"P1": "PLAN Flurry\nSET 1", "P2":
                                      "DEFEND LEFT GUESS 1\nEXHAUST ARMOR ALL BEFORE ABSORB"})
    assert kinds(events, "strike")[0]["blocked"] and not kinds(events, "armor_exhausted")
    assert names(after["players"]["P2"]["hand"]).count("Armor") == 2


def test_each_hit_of_a_double_attack_has_its_own_exchange():
    p1 = seat("isdra", hand=["Lunge"] * 3 + ["Armor"] * 4, deck=["Slashing Arc"],
              queue=[{"name": "Crossed Blades", "up": True}, "Flurry", "Feint"])
    # Flurry: (1-3)+2 Stab then (1-3)+3 Stab; Spear Thrust Stab 2 (guesses 3, 1)
    state = standard(p1=p1, p2=_p2(deck=P2_DECK + ["Armor"] * 7))
    after, events = play(state, {
        "P1": "PLAN Lunge\nSET 2\nSET 2",
        "P2": "DEFEND SECOND GUESS 3\nDEFEND SECOND GUESS 3\n"
              "EXHAUST ARMOR 1 BEFORE ABSORB\nIF DAMAGE > 4 THEN EXHAUST ARMOR 1 BEFORE ABSORB"
              "\nSTANDING ABSORB FROM DECK"})
    assert [s["damage"] for s in kinds(events, "strike")] == [4, 5]
    assert _order_of(events, "strike", "armor_exhausted", "absorbed") == [
        "strike", "armor_exhausted", "absorbed"] * 2
    assert [e["count"] for e in kinds(events, "armor_exhausted")] == [1, 1]


def test_an_absorb_asked_for_waits_and_the_answer_may_bring_its_own_exchange():
    mid, events = play(standard(), {"P1": HIT_4, "P2": GUARD_3_4
                                    + "EXHAUST ARMOR 1 BEFORE ABSORB"})
    assert mid["awaiting"] == {"P2": "absorb"} and not kinds(events, "armor_exhausted")
    assert ENGINE.view(mid, "P2")["turn"]["orders_kept"]["P2"]["before_absorb"] == [
        "EXHAUST ARMOR 1 BEFORE ABSORB"]
    _, plain = play(mid, {"P2": "ABSORB FROM DECK"})
    assert [e["count"] for e in kinds(plain, "armor_exhausted")] == [1]
    _, answered = play(mid, {"P2": "EXHAUST ARMOR ALL BEFORE ABSORB\nABSORB FROM DECK"})
    assert [e["count"] for e in kinds(answered, "armor_exhausted")] == [2]


def test_a_spear_charge_hit_offers_no_exchange_since_the_hand_cannot_absorb():
    p1 = seat("nathrax", hand=P2_HAND, deck=P2_DECK,
              queue=[{"name": "Fur Guard", "up": True}, "Spear Charge", "Haft Strike"])
    p2 = seat("isdra", hand=P1_HAND, deck=["Quick Stab", "Slashing Arc", "Armor", "Armor",
                                           "Slashing Arc", "Armor"],
              queue=[{"name": "Quick Stab", "up": True}, "Power Up Daggers", "Feint"])
    after, events = play(duel(p1, p2), {
        "P1": "PLAN Harpoon Lunge\nSET 1",
        "P2": "DEFEND SECOND GUESS 3\nEXHAUST ARMOR ALL BEFORE ABSORB\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["damage"] == 6  # Spear Charge (1-3)+5
    assert not kinds(events, "armor_exhausted")
    assert names(after["players"]["P2"]["hand"]).count("Armor") == 2


def test_a_kept_exchange_is_hidden_from_the_attacker():
    a, _ = play(standard(), {"P1": "PLAN Flurry", "P2": "DEFEND LEFT GUESS 1 2\n"
                                                       "EXHAUST ARMOR ALL BEFORE ABSORB"})
    b, _ = play(standard(), {"P1": "PLAN Flurry", "P2": "DEFEND LEFT GUESS 1 2"})
    assert a["awaiting"] == {"P1": "set"}
    for viewer in ("P1", None):
        assert canonical_json(ENGINE.view(a, viewer)) == canonical_json(ENGINE.view(b, viewer))


# -- the start of the turn ------------------------------------------------------------
def test_a_standing_start_exchange_runs_once_per_game_turn_for_both_duelists():
    hand = ["Armor"] * 4 + ["Harpoon Lunge", "Patient Stance", "Spear Charge"]
    state = standard(p2=_p2(hand=hand))
    # P1's turn: the standing order comes in with P2's orders and applies at once
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 1\nSTANDING EXHAUST ARMOR 1"})
    assert [(e["seat"], e["count"]) for e in kinds(events, "armor_exhausted")] == [("P2", 1)]
    assert after["turn"]["attacker"] == "P2"
    # P2's turn: again once at its start; the die it leaves open is asked for
    mid, events = play(after, {"P2": "PLAN Harpoon Lunge",
                               "P1": "DEFEND LEFT GUESS 4 3 2 1\nABSORB FROM DECK"})
    assert mid["awaiting"] == {"P2": "set"}
    assert [(e["seat"], e["count"]) for e in kinds(events, "armor_exhausted")] == [("P2", 1)]
    # answering a decision is not a new turn: the standing exchange does not run again
    _, events = play(mid, {"P2": "SET 4"})
    assert kinds(events, "strike")[0]["blocked"] and not kinds(events, "armor_exhausted")
    assert names(mid["players"]["P2"]["hand"]).count("Armor") == 2


def test_a_standing_start_exchange_runs_for_a_defender_who_owes_no_orders():
    p1 = seat("isdra", hand=P1_HAND, deck=["Feint"],
              queue=[{"name": "Power Up Daggers", "up": True}, "Crossed Blades", "Quick Stab"])
    state = standard(p1=p1)
    assert state["awaiting"] == {"P1": "turn"}
    state["players"]["P2"]["standing"] = [GRAMMAR.parse_line("IF DECK > 3 THEN EXHAUST "
                                                             "ARMOR 1", None)]
    _, events = play(state, {"P1": "PLAN Lunge"})
    assert [(e["seat"], e["count"]) for e in kinds(events, "armor_exhausted")] == [("P2", 1)]


@pytest.mark.parametrize("line, count", [
    ("IF DECK > 6 THEN EXHAUST ARMOR ALL", 2),
    ("IF DECK > 7 THEN EXHAUST ARMOR ALL ELSE EXHAUST ARMOR 1", 1),
    ("IF DECK > 7 THEN EXHAUST ARMOR ALL", 0),
])
def test_the_start_exchange_may_depend_on_the_cards_left_to_draw(line, count):
    _, events = play(standard(), {"P1": HIT_4, "P2": f"DEFEND LEFT GUESS 3\n{line}"})
    assert [e["count"] for e in kinds(events, "armor_exhausted")] == ([count] if count else [])


# -- a deck too short -----------------------------------------------------------------
@pytest.mark.parametrize("deck, discard, order, count, short", [
    (["Spear Thrust"], [], "EXHAUST ARMOR ALL", 1, 1),
    ([], ["Spear Thrust"], "EXHAUST ARMOR 2", 1, 1),  # the discard pile is reshuffled
    ([], [], "EXHAUST ARMOR 2", 0, 2),
    (["Spear Thrust"], [], "EXHAUST ARMOR ALL BEFORE ABSORB", 1, 1),
])
def test_an_exchange_stops_at_the_cards_left_and_never_loses_the_duel(deck, discard, order,
                                                                     count, short):
    hit = "BEFORE" in order
    state = standard(p2=_p2(deck=deck, discard=discard))
    script = [("deck/P2/reshuffle", [0])] if discard or hit else []
    after, events = play(state, {
        "P1": "PLAN Flurry\nSET 1",
        "P2": f"DEFEND LEFT GUESS {'3 2' if hit else '1'}\n{order}\n"
              + ("ABSORB HAND Spear Thrust, Harpoon Lunge" if hit else "")}, script)
    (done,) = kinds(events, "armor_exhausted")
    assert (done["count"], done["short"]) == (count, short)
    if hit:  # the drawn Spear Thrust absorbs with Harpoon Lunge; the duel is lost
        # later, at the refill the rulebook orders, not by the exchange
        assert kinds(events, "absorbed")[0]["hand"] == ["Spear Thrust", "Harpoon Lunge"]
        assert [s["why"] for s in kinds(events, "surrender")] == ["refill"]
    else:
        assert after["stage"] == "turn" and after["winner"] is None
        assert "surrender" not in [e.kind for e in events]


# -- the order language -----------------------------------------------------------------
@pytest.mark.parametrize("text, canonical", [
    ("exhaust armor 2 before absorb", "EXHAUST ARMOR 2 BEFORE ABSORB"),
    ("EXHAUST ARMOR BEFORE ABSORB", "EXHAUST ARMOR ALL BEFORE ABSORB"),
    ("if damage>3 then exhaust armor all before absorb",
     "IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB"),
    ("IF DECK > 5 THEN EXHAUST ARMOR 1 ELSE EXHAUST ARMOR 2",
     "IF DECK > 5 THEN EXHAUST ARMOR 1 ELSE EXHAUST ARMOR 2"),
    ("standing if deck >= 4 then exhaust armor all before absorb",
     "STANDING IF DECK >= 4 THEN EXHAUST ARMOR ALL BEFORE ABSORB"),
    ("STANDING EXHAUST ARMOR 1", "STANDING EXHAUST ARMOR 1"),
    ("IF DECK < 3 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK",
     "IF DECK < 3 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK"),
])
def test_exchange_orders_read_into_canonical_text(text, canonical):
    orders = ENGINE.parse_orders(standard(), "P2", text)
    assert orders.text == canonical
    assert ENGINE.parse_orders(standard(), "P2", orders.text).items == orders.items


@pytest.mark.parametrize("who, text, message, hint", [
    ("P1", "EXHAUST ARMOR 1 BEFORE ABSORB", "not yours", "for the defender"),
    ("P2", "EXHAUST ARMOR 1 BEFORE ABSORD", "unknown moment", "did you mean ABSORB"),
    ("P2", "EXHAUST ARMOR 1 BEFORE", "BEFORE needs one moment", "start of the turn"),
    ("P2", "EXHAUST ARMOR 1 2", "EXHAUST reads", "EXHAUST ARMOR 2"),
    ("P2", "EXHAUST Lunge", "EXHAUST reads", "only Armor"),
    ("P2", "IF DAMAGE > 3 THEN EXHAUST ARMOR ALL", "only decides", "add BEFORE ABSORB"),
    ("P2", "IF DECK > 3 THEN SET 2", "only decides", "IF DECK > 6"),
    ("P2", "IF DAMAGE > 3 THEN EXHAUST ARMOR ALL BEFORE ABSORB ELSE EXHAUST ARMOR 1",
     "same kind of order", "ELSE EXHAUST ARMOR 1 BEFORE ABSORB"),
    ("P2", "EXHAUST ARMOR 1 BEFORE ABSORB\nEXHAUST ARMOR 1 BEFORE ABSORB", "than attacks",
     "one line per hit"),
    ("P2", "EXHAUST ARMOR 1\nEXHAUST ARMOR 1", "only one EXHAUST ARMOR per turn",
     "add BEFORE ABSORB"),
    ("P1", "PLAN Armor\nEXHAUST ARMOR 2", "one of them planned", "EXHAUST ARMOR ALL"),
])
def test_bad_exchange_orders_are_refused_with_hints(who, text, message, hint):
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(standard(), who, text)
    first = exc.value.errors[0]
    assert message in first.message and hint in first.hint, (first.message, first.hint)


def test_the_prompts_offer_the_moments():
    decision = ENGINE.decision(standard())

    def forms(seat):
        return [c.split(" — ")[0] for c in decision.prompts[seat]["choices"]]
    assert "EXHAUST ARMOR <n>|ALL BEFORE ABSORB" in forms("P2")
    assert "IF DECK > <n> THEN EXHAUST ARMOR ALL" in forms("P1")
    assert "EXHAUST ARMOR <n>|ALL BEFORE ABSORB" not in forms("P1")


def test_random_orders_use_every_exchange_form():
    """The conformance suite plays what random_orders writes: every form must show up."""
    seen = set()
    for seed in range(300):
        rnd = random.Random(seed)

        def pick(seq, rnd=rnd):
            items = list(seq)
            return items[rnd.randrange(len(items))]

        for who in ("P1", "P2"):
            text = ENGINE.random_orders(standard(), who, pick)
            ENGINE.parse_orders(standard(), who, text)
            for line in text.splitlines():
                if "EXHAUST" in line:
                    seen.add(("STANDING " if line.startswith("STANDING") else "")
                             + ("IF " if "IF " in line else "")
                             + ("BEFORE" if "BEFORE" in line else "START"))
    assert {"START", "IF START", "BEFORE", "IF BEFORE", "STANDING BEFORE",
            "STANDING IF START", "STANDING IF BEFORE"} <= seen


# -- the golden report of the moments -----------------------------------------------------
def moments_reports() -> dict[str, str]:
    """A short deck at both moments: the start exchange stops at the one card left, the
    one before absorbing finds none; the hand absorbs, and it is the refill that loses."""
    state = standard(p2=_p2(hand=["Armor"] * 4 + ["Harpoon Lunge", "Patient Stance",
                                                  "Spear Charge"], deck=["Spear Thrust"]))
    _, events = play(state, {"P1": HIT_4, "P2": GUARD_3_4 + "EXHAUST ARMOR 2\n"
                                                "EXHAUST ARMOR ALL BEFORE ABSORB\n"
                                                "ABSORB HAND Armor, Armor, Spear Thrust, "
                                                "Harpoon Lunge"},
                     [("deck/P2/reshuffle", [0])])
    return {v: ENGINE.report(events, None if v == "public" else v)
            for v in ("P1", "P2", "public")}


@pytest.mark.parametrize("viewer", ["P1", "P2", "public"])
def test_the_moments_report_matches_its_golden_file(viewer):
    text = moments_reports()[viewer]
    assert_golden(GOLDEN / f"armor_moments_{viewer}.md", text)
    assert "(1 more kept: no card left to draw" in text
    assert "keeps 1 Armor card before absorbing the hit" in text
    if viewer != "P2":
        assert "draws (armor exhausted):" not in text
