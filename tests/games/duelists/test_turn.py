"""The turn, rule by rule: preparation, planning, reveal, defence, guesses, damage,
absorbing, armor exhaust-to-draw, decisions arising, defaults and surrender."""

from __future__ import annotations

import pytest

from games.core.rng import ScriptedRng
from games.core.types import OrdersInvalid
from games.duelists.engine import ENGINE

from .helpers import duel, kinds, names, play, queue_names, seat

P1_HAND = ["Lunge", "Lunge", "Lunge", "Flurry", "Flurry", "Armor", "Armor"]
P2_HAND = ["Armor", "Armor", "Harpoon Lunge", "Patient Stance", "Spear Charge",
           "Disarming Strike", "Tripping Attack"]


def standard(p1: dict | None = None, p2: dict | None = None, **kw):
    """P1 (Isdra) attacks with Quick Stab (1-4)+3 Stab; P2 (Nathrax) has Fur Guard
    (Stab 2) face up on the left and Spear Thrust (Stab 2) face down second."""
    p1 = p1 or seat("isdra", hand=P1_HAND, deck=["Slashing Arc", "Armor", "Armor"],
                    queue=[{"name": "Crossed Blades", "up": True}, "Quick Stab", "Feint"])
    p2 = p2 or seat("nathrax", hand=P2_HAND, deck=["Spear Thrust", "Spear Thrust", "Armor",
                                                   "Fur Guard", "Haft Strike", "Haft Strike",
                                                   "Spear Thrust"],
                    queue=[{"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    return duel(p1, p2, **kw)


def test_preparation_discards_the_left_most_card_and_its_token_then_refills():
    p1 = seat("isdra", hand=P1_HAND[:5], deck=["Slashing Arc", "Armor", "Feint"],
              queue=[{"name": "Crossed Blades", "up": True, "defended": True}, "Quick Stab",
                     "Power Up Daggers"])
    state = standard(p1=p1)
    me = state["players"]["P1"]
    assert names(me["discard"]) == ["Crossed Blades"]
    assert not any(slot["defended"] for slot in me["queue"])
    assert len(me["hand"]) == 7 and names(me["deck"]) == ["Feint"]
    assert queue_names(state, "P1") == ["Quick Stab", "Power Up Daggers"]
    assert me["queue"][0]["up"] and not me["queue"][1]["up"]


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discard_pile():
    p1 = seat("isdra", hand=P1_HAND[:5], deck=["Feint"], discard=["Slashing Arc"],
              queue=[{"name": "Crossed Blades", "up": True}, "Quick Stab", "Power Up Daggers"])
    # Feint is drawn, the deck is empty: Crossed Blades + Flurry shuffle into a new deck
    state = standard(p1=p1, script=[("deck/P1/reshuffle", [1, 0])])
    me = state["players"]["P1"]
    assert len(me["hand"]) == 7 and me["discard"] == [] and len(me["deck"]) == 1


def test_a_player_who_cannot_refill_surrenders():
    p2 = seat("nathrax", hand=P2_HAND[:4], deck=[], queue=[
        {"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    p1 = seat("isdra", hand=P1_HAND, deck=["Feint"],
              queue=[{"name": "Crossed Blades", "up": True}, {"name": "Crossed Blades"},
                     "Power Up Daggers"])
    state = duel(p1, p2)  # P1 leads with Crossed Blades: no attack
    assert state["awaiting"] == {"P1": "turn"}
    after, events = play(state, {"P1": "PLAN Lunge"}, [("deck/P2/reshuffle", [0])])
    assert after["stage"] == "over" and after["winner"] == "P1"
    assert kinds(events, "surrender")[0]["loser"] == "P2"
    assert ENGINE.decision(after) is None
    assert ENGINE.result(after)["winners"] == ["P1"]


def test_planning_puts_the_card_face_down_on_the_right():
    state = standard()
    after, events = play(state, {"P1": "PLAN Flurry\nSET 2", "P2": "DEFEND LEFT GUESS 2"})
    # the turn ended; P1's queue is as planned (P2's turn has begun)
    assert queue_names(after, "P1") == ["Quick Stab", "Feint", "Flurry"]
    assert after["players"]["P1"]["queue"][2]["up"] is False
    public = [e for e in events if e.kind == "planned"]
    assert public and "card" not in public[0].data
    assert [e.audience for e in events if e.kind == "planned_card"] == [("P1",)]


def test_revealed_armor_is_exhausted_and_replaced_until_a_maneuver_shows():
    p1 = seat("isdra", hand=P1_HAND, deck=["Armor", "Feint", "Slashing Arc"],
              queue=[{"name": "Crossed Blades", "up": True}, "Armor", "Power Up Daggers"])
    state = standard(p1=p1)
    me = state["players"]["P1"]
    assert queue_names(state, "P1") == ["Feint", "Power Up Daggers"] and me["queue"][0]["up"]
    assert names(me["exhausted"]).count("Armor") >= 2
    assert names(me["deck"]) == ["Slashing Arc"]


def test_a_lead_card_without_attack_means_no_attack_and_only_the_attacker_orders():
    p1 = seat("isdra", hand=P1_HAND, deck=["Feint"],
              queue=[{"name": "Power Up Daggers", "up": True}, "Crossed Blades", "Quick Stab"])
    state = standard(p1=p1)
    assert state["turn"]["attacks"] == [] and state["awaiting"] == {"P1": "turn"}
    after, _ = play(state, {"P1": "PLAN Lunge"})
    assert after["turn"]["attacker"] == "P2"


@pytest.mark.parametrize("defend, guesses, die, blocked, card, token_on", [
    ("DEFEND LEFT GUESS 1 2", [1, 2], 2, True, "Fur Guard", None),
    ("DEFEND LEFT GUESS 1 2", [1, 2], 3, False, "Fur Guard", None),
    ("DEFEND LEFT GUESS 3 2 1", [3, 2], 1, False, "Fur Guard", None),  # only 2 guesses count
    ("DEFEND LEFT GUESS 3", [3, 1], 1, True, "Fur Guard", None),   # topped up from the bottom
    ("DEFEND SECOND GUESS 3 1", [3, 1], 2, False, "Spear Thrust", 1),  # Stab 2 there
    ("DEFEND SECOND GUESS 3 1", [3, 1], 1, True, "Spear Thrust", 1),
])
def test_defence_card_guess_count_and_the_defended_token(defend, guesses, die, blocked, card,
                                                         token_on):
    state = standard()
    after, events = play(state, {"P1": f"PLAN Flurry\nSET {die}",
                                 "P2": defend + "\nABSORB FROM DECK"})
    (strike,) = kinds(events, "strike")
    assert strike["guesses"] == guesses and strike["blocked"] is blocked
    assert kinds(events, "defence")[0]["card"] == card
    p2 = after["players"]["P2"]  # P2's turn began: its left-most card (with token) is gone
    if token_on == 1:
        assert kinds(events, "discarded")[-1] == {"seat": "P2", "card": "Fur Guard",
                                                  "token": False}
        assert p2["queue"][0]["defended"]  # Spear Thrust, now left-most, keeps the token
    else:
        assert not any(slot["defended"] for slot in p2["queue"])


def test_a_left_most_card_holding_the_token_cannot_defend_again():
    p2 = seat("nathrax", hand=P2_HAND, deck=["Spear Thrust"] * 2, queue=[
        {"name": "Fur Guard", "up": True, "defended": True}, "Spear Thrust", "Haft Strike"])
    state = standard(p2=p2)
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P2", "DEFEND LEFT GUESS 1")
    assert "Defended!" in exc.value.errors[0].message
    assert "DEFEND SECOND" in ENGINE.default_orders(state, "P2").text
    # a standing DEFEND LEFT is carried out on the second card
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1",
                                 "P2": "STANDING DEFEND LEFT GUESS 1\nABSORB FROM DECK"})
    defence = kinds(events, "defence")[0]
    assert defence["forced"] and defence["pos"] == "SECOND"
    assert kinds(events, "strike")[0]["blocked"]


@pytest.mark.parametrize("absorb, from_hand, from_deck", [
    ("ABSORB HAND Armor, Armor", ["Armor", "Armor"], ["Spear Thrust", "Spear Thrust"]),
    ("ABSORB HAND Armor, Fur Guard, Patient Stance", ["Armor", "Patient Stance"],
     ["Spear Thrust", "Spear Thrust"]),  # Fur Guard is not in hand
    ("ABSORB FROM DECK", [], ["Spear Thrust", "Spear Thrust", "Armor", "Fur Guard"]),
    ("ABSORB HAND Armor, Armor, Patient Stance, Spear Charge, Harpoon Lunge",
     ["Armor", "Armor", "Patient Stance", "Spear Charge"], []),
    ("IF DAMAGE > 3 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK", ["Armor"],
     ["Spear Thrust", "Spear Thrust", "Armor"]),
    ("IF DAMAGE > 4 THEN ABSORB HAND Armor ELSE ABSORB FROM DECK", [],
     ["Spear Thrust", "Spear Thrust", "Armor", "Fur Guard"]),
])
def test_damage_is_die_plus_modifier_absorbed_from_hand_first_then_deck(absorb, from_hand,
                                                                       from_deck):
    state = standard()
    # Quick Stab (1-4)+3 set to 1: 4 damage
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1", "P2": "DEFEND LEFT GUESS 3 4\n"
                                 + absorb})
    assert kinds(events, "strike")[0]["damage"] == 4
    got = kinds(events, "absorbed")[0]
    assert (got["hand"], got["deck"]) == (from_hand, from_deck)
    assert names(after["players"]["P2"]["exhausted"])[-4:] == from_hand + from_deck


@pytest.mark.parametrize("defend, die", [("DEFEND LEFT GUESS 1", 3), ("DEFEND SECOND GUESS 1", 1)])
def test_the_die_may_depend_on_the_defenders_choice(defend, die):
    state = standard()
    after, events = play(state, {"P1": "PLAN Flurry\nIF DEFEND LEFT THEN SET 3 ELSE SET 1",
                                 "P2": defend + "\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["die"] == die


@pytest.mark.parametrize("condition, die", [("GUESSES >= 2", 3), ("GUESSES < 2", 1)])
def test_the_die_may_depend_on_the_number_of_guesses(condition, die):
    state = standard()
    after, events = play(state, {"P1": f"PLAN Flurry\nIF {condition} THEN SET 3 ELSE SET 1",
                                 "P2": "DEFEND LEFT GUESS 2\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["die"] == die


def test_a_die_no_order_covers_is_asked_for_with_the_guesses_kept_secret():
    state = standard()
    mid, events = play(state, {"P1": "PLAN Flurry\nIF DEFEND SECOND THEN SET 3",
                               "P2": "DEFEND LEFT GUESS 3 2\nABSORB FROM DECK"})
    assert mid["awaiting"] == {"P1": "set"}
    assert ENGINE.decision(mid).phase == "set"
    assert kinds(events, "asked") == [{"seat": "P1", "kind": "set", "attack": 1}]
    assert "guesses" not in ENGINE.view(mid, "P1")["turn"]["current"]
    assert ENGINE.view(mid, "P2")["turn"]["current"]["guesses"] == [3, 2]
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(mid, "P1", "PLAN Lunge")  # the answer must be a SET
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(mid, "P1", "SET 5")  # outside (1-4)
    after, events = play(mid, {"P1": "SET 1"})
    strike = kinds(events, "strike")[0]
    assert (strike["die"], strike["guesses"], strike["damage"]) == (1, [3, 2], 4)


def test_missing_defence_and_absorb_orders_become_decisions():
    state = standard()
    mid, _ = play(state, {"P1": "PLAN Flurry\nSET 3", "P2": ""})
    assert mid["awaiting"] == {"P2": "defend"}
    mid, _ = play(mid, {"P2": "DEFEND LEFT GUESS 1 2"})
    assert mid["awaiting"] == {"P2": "absorb"}
    assert "6 damage" in ENGINE.decision(mid).prompts["P2"]["help"]  # (1-4)+3 set to 3
    after, events = play(mid, {"P2": "ABSORB HAND Armor"})
    assert kinds(events, "absorbed")[0]["hand"] == ["Armor"]
    assert after["turn"]["attacker"] == "P2"


def test_a_standing_absorb_order_covers_every_hit_until_cancelled():
    state = standard()
    after, events = play(state, {"P1": "PLAN Flurry\nSET 3",
                                 "P2": "DEFEND LEFT GUESS 1\nSTANDING ABSORB FROM DECK"})
    assert kinds(events, "absorbed")[0]["deck"] and after["awaiting"].get("P2") != "absorb"
    assert ENGINE.view(after, "P2")["players"]["P2"]["standing"] == ["ABSORB FROM DECK"]
    assert "standing" not in ENGINE.view(after, "P1")["players"]["P2"]


def test_exhausting_armor_draws_a_card_for_each():
    state = standard()
    after, events = play(state, {"P1": "PLAN Flurry\nSET 3\nEXHAUST ARMOR 2",
                                 "P2": "DEFEND LEFT GUESS 3\nABSORB FROM DECK\nEXHAUST ARMOR 1"})
    assert kinds(events, "armor_exhausted") == [
        {"seat": "P1", "count": 2, "moment": "start", "short": 0},
        {"seat": "P2", "count": 1, "moment": "start", "short": 0}]
    p1 = after["players"]["P1"]
    assert names(p1["hand"]).count("Armor") == 1 and "Slashing Arc" in names(p1["hand"])
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "P1", "EXHAUST ARMOR 3")


def test_exhaust_all_keeps_an_armor_card_that_is_being_planned():
    state = standard()
    after, events = play(state, {"P1": "PLAN Armor\nSET 3\nEXHAUST ARMOR ALL",
                                 "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"})
    assert [e["count"] for e in kinds(events, "armor_exhausted")] == [1]
    assert queue_names(after, "P1")[-1] == "Armor"


def test_missed_deadline_defaults():
    state = standard()
    assert ENGINE.default_orders(state, "P1").text == "PLAN Flurry\nSET 4"
    assert ENGINE.default_orders(state, "P2").text == (
        "DEFEND LEFT GUESS 1 2 3 4\nABSORB HAND Armor, Armor")
    # 7 damage: two Armor from the hand, five off the deck; P2's refill then empties it
    after, events = ENGINE.resolve(state, {}, ScriptedRng([("deck/P2/reshuffle", [0])]))
    assert [e.data["seat"] for e in events if e.kind == "defaulted"] == ["P1", "P2"]
    assert kinds(events, "strike")[0]["guesses"] == [1, 2] and kinds(events, "strike")[0][
        "die"] == 4


def test_damage_beyond_deck_and_discard_is_exhausted_from_the_hand():
    """Exhausting is not drawing: with deck and discard gone, the rest of a hit comes
    from the hand (Armor first, then card order) and nobody surrenders yet. The
    surrender comes when P2 must refill and cannot draw."""
    p2 = seat("nathrax", hand=P2_HAND, deck=["Spear Thrust"], queue=[
        {"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    state = standard(p2=p2)
    # Quick Stab (1-4)+3 set to 1: 4 damage; one card in the deck
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 3 4\nABSORB FROM DECK"},
                         [("deck/P2/reshuffle", [0])])
    absorbed = kinds(events, "absorbed")[0]
    assert absorbed["deck"] == ["Spear Thrust"]
    assert absorbed["short"] == ["Armor", "Armor", "Harpoon Lunge"]
    assert absorbed["lost"] == 0
    kinds_seen = [e.kind for e in events]
    # the turn ran to its end and P2's preparation began before anyone surrendered
    assert kinds_seen.index("turn_over") < kinds_seen.index("surrender")
    assert kinds(events, "surrender") == [{"loser": "P2", "winner": "P1", "why": "refill"}]
    assert after["winner"] == "P1"
    gone = len(after["players"]["P2"]["exhausted"]) - len(state["players"]["P2"]["exhausted"])
    assert gone == 4
    assert "Deck and discard pile are empty: the rest comes from the hand Armor, Armor, " \
        "Harpoon Lunge." in ENGINE.report(events, None)


def test_an_absorb_hand_list_still_goes_first_when_the_deck_is_gone():
    p2 = seat("nathrax", hand=P2_HAND, deck=[], queue=[
        {"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    state = standard(p2=p2)
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 3 4\nABSORB HAND Tripping Attack"},
                         [("deck/P2/reshuffle", [0])])
    absorbed = kinds(events, "absorbed")[0]
    assert absorbed["hand"] == ["Tripping Attack"] and absorbed["deck"] == []
    assert absorbed["short"] == ["Armor", "Armor", "Harpoon Lunge"]


def test_damage_beyond_every_card_is_lost_and_the_next_draw_surrenders():
    p2 = seat("nathrax", hand=["Armor", "Patient Stance"], deck=[], queue=[
        {"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    state = standard(p2=p2)
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 3 4\nABSORB FROM DECK"},
                         [("deck/P2/reshuffle", [0])])
    absorbed = kinds(events, "absorbed")[0]
    assert (absorbed["short"], absorbed["lost"]) == (["Armor", "Patient Stance"], 2)
    assert after["players"]["P2"]["hand"] == [] or after["stage"] == "over"
    assert kinds(events, "surrender")[0]["why"] == "refill"
    assert "and 2 more find no card left." in ENGINE.report(events, None)


def test_a_second_hit_on_an_empty_deck_comes_from_the_hand_too():
    """A double attack: the duel is not over after the first hit empties the deck."""
    p1 = seat("isdra", hand=["Lunge", "Lunge", "Lunge", "Quick Stab", "Armor", "Armor"],
              deck=["Slashing Arc", "Armor", "Armor"],
              queue=[{"name": "Crossed Blades", "up": True}, "Flurry", "Feint"])
    p2 = seat("nathrax", hand=P2_HAND, deck=["Spear Thrust"], queue=[
        {"name": "Fur Guard", "up": True}, "Spear Thrust", "Haft Strike"])
    state = duel(p1, p2)
    # Flurry (1-3)+2 then (1-3)+3, both set to 2 against Spear Thrust's 2 guesses 3, 1
    after, events = play(state, {"P1": "PLAN Lunge\nSET 2\nSET 2",
                                 "P2": "DEFEND SECOND GUESS 3\nDEFEND SECOND GUESS 3\n"
                                       "ABSORB FROM DECK\nABSORB FROM DECK"},
                         [("deck/P2/reshuffle", [0])])
    first, second = kinds(events, "absorbed")
    assert (first["damage"], first["deck"]) == (4, ["Spear Thrust"])
    assert first["short"] == ["Armor", "Armor", "Harpoon Lunge"]
    assert (second["damage"], second["deck"]) == (5, [])
    assert second["short"] == ["Patient Stance", "Spear Charge", "Disarming Strike",
                               "Tripping Attack"]
    assert second["lost"] == 1
    assert kinds(events, "surrender")[0]["why"] == "refill"


def test_a_hit_always_deals_at_least_one():
    p1 = seat("isdra", hand=P1_HAND, deck=["Feint"], tokens={"disarmed": 1},
              queue=[{"name": "Crossed Blades", "up": True}, "Power Up Daggers", "Quick Stab"])
    state = standard(p1=p1)
    # Power Up Daggers (1-4)+2 set to 1, Disarmed! -3: 0, but a hit deals 1
    after, events = play(state, {"P1": "PLAN Flurry\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 3 4\nABSORB FROM DECK"})
    strike = kinds(events, "strike")[0]
    assert sum(n for _, n in strike["parts"]) == 0 and strike["damage"] == 1
    assert after["players"]["P1"]["tokens"]["disarmed"] == 0


def test_a_missing_plan_is_asked_for_before_the_attack():
    state = standard()
    mid, events = play(state, {"P1": "SET 3", "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"})
    assert mid["awaiting"] == {"P1": "plan"} and not kinds(events, "strike")
    prompt = ENGINE.decision(mid).prompts["P1"]
    assert prompt["title"].startswith("Decision arising") and "PLAN Lunge" in prompt["choices"]
    after, events = play(mid, {"P1": "PLAN Lunge"})
    assert kinds(events, "strike")[0]["die"] == 3  # the kept SET still applies
    assert queue_names(after, "P1")[-1] == "Lunge"


def test_the_set_prompt_tells_the_attacker_the_defence_chosen():
    mid, _ = play(standard(), {"P1": "PLAN Lunge", "P2": "DEFEND SECOND GUESS 1"})
    help_text = ENGINE.decision(mid).prompts["P1"]["help"]
    assert "SECOND (Spear Thrust, 2 guesses)" in help_text
