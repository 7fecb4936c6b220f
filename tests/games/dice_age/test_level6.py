"""Level 6: every "what if" and specification of the initiates' rules, one scenario each."""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.dice_age.engine import ENGINE

from .helpers import answer, drawn, face, legion_table, places, play, suspend, table


def pend(state):
    p = state["pending"]
    return p["kind"], p["seat"], p.get("window") or p.get("effect")


# 1. All dice are Legendary (copies exist once players bring their own dice: level 7)
def test_legendary_a_garden_die_whose_copy_is_in_the_field_cannot_be_rolled():
    state = legion_table({"P1": {"garden": ["SUN", "FERN"]},
                          "P2": {"garden": ["OAK"], "field": ["SUN2"]}}, number=9)
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["ROLL FERN"]
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "P1", "ROLL SUN")


def test_legendary_radiation_brings_back_one_copy_only():
    state = legion_table({"P1": {"garden": ["TANK", "FERN"], "wasteland": ["SUN"]},
                          "P2": {"garden": ["OAK"], "wasteland": ["SUN2"]}}, number=9)
    state, _ = play(state, "ROLL TANK", [face("TANK", "radiation")])
    state, events = answer(state, "RADIATION YELLOW")
    assert state["dice"]["SUN"]["place"] == "field"  # the roller's own copy has priority
    assert state["dice"]["SUN2"]["place"] == "wasteland"
    assert "a copy is in the field" in ENGINE.report(events, None)


# 2. Survival instinct
def test_survival_instinct_the_last_die_may_be_rolled_again():
    state = table(6, {"P1": {"field": ["SUN"]}, "P2": {"garden": ["FERN", "OAK"]}},
                  number=9)
    state["last"]["P1"] = "SUN"
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["ROLL SUN"]
    state5 = table(5, {"P1": {"field": ["SUN"]}, "P2": {"garden": ["FERN", "OAK"]}},
                   number=9, to_play="P2")
    state5["last"]["P1"] = "SUN"
    state5, _ = play(state5, "ROLL FERN", [face("FERN", 6)])
    assert "P1" in state5["out"]  # level 5 has no survival instinct


def test_survival_instinct_waives_legendary_unless_the_copy_is_also_a_last_die():
    from games.dice_age.state import rollable
    state = legion_table({"P1": {"garden": ["SUN"]}, "P2": {"field": ["SUN2"]}}, number=9,
                         to_play="P2")
    assert rollable(state, "P1") == []  # SUN2 is P2's last die too
    state["dice"]["FERN"] = {"owner": "P2", "place": "garden", "face": None, "pos": None,
                             "susp": None}
    assert rollable(state, "P1") == ["SUN"]


# 3. Next!
def test_next_a_player_who_cannot_play_ends_the_round_and_the_next_starts():
    state = table(6, {"P1": {"garden": ["CASTLE"], "field": ["MOSS"]},
                      "P2": {"wasteland": ["FERN"]}, "P3": {"garden": ["OAK"]}}, number=9)
    state, events = play(state, "ROLL CASTLE", [face("CASTLE", 3)])
    assert "P2" in state["out"] and state["number"] is None
    assert state["pending"] == {"kind": "roll", "seat": "P3"}
    assert places(state, "P1")["garden"] == ["MOSS", "CASTLE"] or \
        sorted(places(state, "P1")["garden"]) == ["CASTLE", "MOSS"]
    assert state["dice"]["FERN"]["place"] == "limbo"
    assert "Next! The round ends." in ENGINE.report(events, None)


# 4. Pair
def test_pair_brings_back_a_wasteland_die_showing_the_same_side():
    state = table(6, {"P1": {"garden": ["SUN"], "wasteland": ["FERN", "OAK"]},
                      "P2": {"garden": ["LILY"]}}, number=9)
    state["dice"]["FERN"]["face"] = 7
    state["dice"]["OAK"]["face"] = 6
    state, _ = play(state, "ROLL SUN", [face("SUN", 7)])
    assert pend(state) == ("react", "P1", "pair")
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["PAIR FERN", "PASS"]
    state, _ = answer(state, "PAIR FERN")
    assert sorted(places(state, "P1")["field"]) == ["FERN", "SUN"]
    assert state["number"] == 7


def test_pair_only_once_per_turn():
    state = table(6, {"P1": {"garden": ["SUN"], "wasteland": ["FERN"]},
                      "P2": {"garden": ["LILY"]}}, number=9)
    state["paired"]["P1"] = True
    state["dice"]["FERN"]["face"] = 7
    state, _ = play(state, "ROLL SUN", [face("SUN", 7)])
    assert state["pending"]["kind"] == "roll" and state["pending"]["seat"] == "P2"


# 5. Per un pugno di dadi
def test_fistful_counts_turns_and_decides_by_value():
    state = table(6, {"P1": {"field": ["CASTLE"]}, "P2": {"field": ["TANK"]}}, number=12)
    turns = [("P1", "CASTLE", 5), ("P2", "TANK", "radiation"), ("P1", "CASTLE", 3),
             ("P2", "TANK", "radiation"), ("P1", "CASTLE", 1)]
    events = []
    for seat, die, shown in turns:  # the same die each time: survival instinct
        assert state["winner"] is None
        state, new = play(state, f"ROLL {die}", [face(die, shown)], seat)
        events += new
    assert state["winner"] == "P2"  # the Tank's value is lower than the Castle's
    text = ENGINE.report(events, None)
    assert "Per un pugno di dadi" in text and "P1 is out" in text


# 6. Doubled effects
def test_doubled_smile_keeps_two_d6():
    state = table(6, {"P1": {"garden": ["SUN", "CASTLE"], "field": ["STAR"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL SUN", [face("SUN", "smile"), ("smile/d6", 2)])
    state, _ = answer(state, "DOUBLE", [("smile/d6", 5)])
    assert state["dice"]["SUN"]["susp"]["d6"] == [2, 5]


def test_doubled_smile_d6s_used_one_after_the_other_on_one_number():
    state = table(6, {"P1": {"garden": ["TANK"], "field": ["SUN"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    suspend(state, "SUN", "smile", uses=2, d6=[2, 5])
    state, _ = play(state, "ROLL TANK", [face("TANK", 15)])
    state, _ = answer(state, "SMILE - 5")
    assert pend(state) == ("react", "P1", "smile")
    state, _ = answer(state, "SMILE - 2")
    assert state["number"] == 8 and state["dice"]["SUN"]["susp"] is None


def test_doubled_blank_two_players_skip():
    state = table(6, {"P1": {"garden": ["TURTLE", "SUN"], "field": ["STAR"]},
                      "P2": {"garden": ["FERN"]}, "P3": {"garden": ["OAK"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL TURTLE", [face("TURTLE", "blank")])
    state, _ = answer(state, "DOUBLE")
    state, _ = answer(state, "SKIP P2")
    state, _ = answer(state, "SKIP P3")
    assert state["pending"] == {"kind": "roll", "seat": "P1"}


def test_doubled_radiation_two_colours():
    state = table(6, {"P1": {"garden": ["TANK", "SUN"], "field": ["STAR"],
                             "wasteland": ["FERN", "BARREL"]},
                      "P2": {"garden": ["OAK"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL TANK", [face("TANK", "radiation")])
    state, _ = answer(state, "DOUBLE")
    state, _ = answer(state, "RADIATION GREEN")
    state, _ = answer(state, "RADIATION RED")
    assert "wasteland" not in places(state, "P1")


def test_doubled_chaos_rolls_twice_and_keeps_the_lowest():
    state = table(6, {"P1": {"garden": ["CASTLE"], "field": ["SUN", "STAR"]},
                      "P2": {"garden": ["OAK"]}}, number=12)
    suspend(state, "STAR", "double-arrow")
    state, events = play(state, "ROLL CASTLE", [face("CASTLE", "chaos")])
    state, events = answer(state, "DOUBLE", [
        drawn("chaos", "SUN", 6), drawn("chaos", "STAR", 11), drawn("chaos", "CASTLE", 5),
        drawn("chaos", "SUN", 9), drawn("chaos", "STAR", 10), drawn("chaos", "CASTLE", "chaos")])
    assert state["number"] == 5
    text = ENGINE.report(events, None)
    assert "rolls again" in text and "Chaos fizzles" in text


# 3) maxed out
def test_an_effect_with_nothing_to_act_on_is_maxed_out():
    state = table(6, {"P1": {"garden": ["TANK", "SUN"]}, "P2": {"garden": ["FERN"]}},
                  number=9)
    state, events = play(state, "ROLL TANK", [face("TANK", "radiation")])
    assert "The radiation is maxed out" in ENGINE.report(events, None)
    assert state["pending"] == {"kind": "roll", "seat": "P2"}


# 7) equalising the Number
def test_equalising_the_number_rests_the_die_on_the_ledges():
    state = table(6, {"P1": {"garden": ["CASTLE", "SUN"]}, "P2": {"garden": ["FERN"]}},
                  number=5)
    state, events = play(state, "ROLL CASTLE", [face("CASTLE", 5)])
    assert state["number"] == 5
    assert state["dice"]["CASTLE"]["susp"]["effect"] is None
    assert "rests on the Ledges" in ENGINE.report(events, None)
    state, _ = play(state, "ROLL FERN", [face("FERN", 8)])  # P2 loses the round
    assert state["dice"]["CASTLE"]["place"] == "field"  # resting dice stay


# 9) rolling a suspended die
def test_rolling_a_suspended_die_unsuspends_it_at_level_six():
    state = table(6, {"P1": {"garden": ["TANK"], "field": ["CONJURER"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    suspend(state, "CONJURER", "nut")
    state, _ = play(state, "ROLL CONJURER", [face("CONJURER", 4)])
    assert state["dice"]["CONJURER"]["susp"] is None and state["number"] == 4


# 10) chaos timing
def test_a_gear_may_void_any_chaos_die_once_all_are_rolled():
    state = table(6, {"P1": {"garden": ["CASTLE"], "field": ["MINE"]},
                      "P2": {"garden": ["FERN"], "field": ["OAK"]}}, number=9)
    suspend(state, "OAK", "gear")
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", "chaos")])
    assert pend(state) == ("react", "P2", "gear")  # after the main roll itself: no
    state, _ = answer(state, "PASS", [drawn("chaos", "CASTLE", 1), drawn("chaos", "MINE", 8)])
    assert pend(state) == ("react", "P2", "gear")  # after all the chaos dice
    assert state["pending"]["legal"] == ["GEAR CASTLE", "GEAR MINE", "PASS"]
    state, _ = answer(state, "GEAR CASTLE")  # the 1 turns over to the castle's gear
    assert state["number"] == 8


# 11) suspension happens at once
def test_a_gear_just_rolled_may_void_its_own_roll():
    state = table(6, {"P1": {"garden": ["OAK", "SUN"]}, "P2": {"garden": ["FERN"]}},
                  number=9)
    state, _ = play(state, "ROLL OAK", [face("OAK", "gear")])
    assert pend(state) == ("react", "P1", "gear")
    state, _ = answer(state, "GEAR")
    assert state["dice"]["OAK"]["face"] == 6 and state["number"] == 6


def test_doubled_square_can_be_played_twice():
    state = table(6, {"P1": {"garden": ["FERN", "SUN"], "field": ["STAR"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL FERN", [face("FERN", "square")])
    state, _ = answer(state, "DOUBLE")
    assert state["dice"]["FERN"]["susp"]["uses"] == 2
    state, _ = play(state, "ROLL OAK", [face("OAK", 7)])
    state, _ = play(state, "ROLL SUN\nSQUARE P2 TANK", [face("SUN", 6)])
    assert state["forced"]["P2"] == ["TANK"] and state["dice"]["FERN"]["susp"]["uses"] == 1


def test_doubled_cannon_two_duels():
    state = table(6, {"P1": {"garden": ["BARREL", "SUN", "MOSS"], "field": ["STAR"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL BARREL", [face("BARREL", "cannon")])
    state, _ = answer(state, "DOUBLE")
    for mine, theirs, lose in (("SUN", "TANK", 9), ("MOSS", "OAK", 5)):
        state, _ = answer(state, "CANNON P2")
        state, _ = answer(state, f"DEFEND {theirs}")
        state, _ = answer(state, f"ATTACK {mine}", [drawn("duel/1", mine, 10),
                                                    drawn("duel/1", theirs, lose)])
    assert state["dice"]["TANK"]["place"] == "limbo" and state["dice"]["OAK"]["place"] == "limbo"


def test_a_square_order_whose_die_was_lost_meanwhile_is_reported():
    state = table(6, {"P1": {"garden": ["SUN", "MOSS"], "field": ["FERN"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=5)
    suspend(state, "FERN", "square")
    state, events = play(state, "ROLL SUN\nSQUARE P2 TANK", [face("SUN", 6)])  # 6 > 5
    assert state["forced"]["P2"] == []
    assert "Square order cannot be played now: you hold no suspended Square" in \
        ENGINE.report(events, None)
