"""Level 5: the thirteen effects, suspension, white dice and out-of-turn reactions.

Each test lays a table by hand, scripts the dice, and checks the outcome the rulebook's
table of effects gives (in our words in the test names).
"""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.dice_age.engine import ENGINE

from .helpers import answer, drawn, face, places, play, suspend, table


def pend(state):
    p = state["pending"]
    return p["kind"], p["seat"], p.get("window") or p.get("effect")


# -- 1 pit ----------------------------------------------------------------------------
def test_pit_sends_the_chosen_field_die_to_its_owners_wasteland():
    state = table(5, {"P1": {"garden": ["LILY", "SUN"]},
                      "P2": {"garden": ["FERN"], "field": ["TANK"]}}, number=9)
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    assert pend(state) == ("target", "P2" if False else "P1", "pit")
    assert "PIT TANK" in ENGINE.decision(state).prompts["P1"]["choices"]
    state, events = answer(state, "PIT TANK")
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert state["number"] == 9 and pend(state) == ("roll", "P2", None)
    assert "The pit swallows P2's Tank (orange)" in ENGINE.report(events, None)


# -- 2 nut ----------------------------------------------------------------------------
def _nut_table():
    state = table(5, {"P1": {"garden": ["LILY", "SUN"]},
                      "P2": {"garden": ["FERN"], "field": ["TANK", "CONJURER"]}}, number=9)
    return suspend(state, "CONJURER", "nut")


def test_rolling_a_nut_suspends_the_die():
    state = table(5, {"P1": {"garden": ["CONJURER", "SUN"]}, "P2": {"garden": ["FERN"]}},
                  number=9)
    state, _ = play(state, "ROLL CONJURER", [face("CONJURER", "nut")])
    assert state["dice"]["CONJURER"]["susp"]["effect"] == "nut"
    assert state["number"] == 9


def test_nut_protects_the_only_target_and_is_spent():
    state, _ = play(_nut_table(), "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT TANK")
    decision = ENGINE.decision(state)
    assert decision.reaction and decision.seats == ["P2"] and pend(state)[2] == "nut"
    state, events = answer(state, "NUT")
    assert sorted(places(state, "P2")["field"]) == ["CONJURER", "TANK"]
    assert state["dice"]["CONJURER"]["susp"] is None  # back in the Valley
    assert "protected from P1's pit" in ENGINE.report(events, None)


def test_a_standing_nut_answers_without_asking():
    state = _nut_table()
    state["standing"]["P2"] = ENGINE.parse_orders(
        state, "P2", "STANDING NUT WHEN TARGETED BY PIT").items
    state["standing"]["P2"] = [{k: v for k, v in i.items() if k != "standing"}
                               for i in state["standing"]["P2"]]
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, events = answer(state, "PIT TANK")
    assert sorted(places(state, "P2")["field"]) == ["CONJURER", "TANK"]
    assert pend(state) == ("roll", "P2", None)
    assert "NUT WHEN TARGETED BY PIT" in ENGINE.report(events, "P2")
    assert "NUT WHEN TARGETED" not in ENGINE.report(events, "P1")


def test_a_standing_nut_for_another_effect_passes_without_asking():
    state = _nut_table()
    state["standing"]["P2"] = [{"order": {"op": "nut", "cond": None,
                                          "when": {"targeted": True, "by": "cannon"}}}]
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT TANK")
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert state["dice"]["CONJURER"]["susp"]["effect"] == "nut"


def test_a_missed_reaction_deadline_is_no_reaction_and_reported():
    state, _ = play(_nut_table(), "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT TANK")
    orders = {"P2": ENGINE.default_orders(state, "P2")}
    assert orders["P2"].text == "PASS" and orders["P2"].default
    from games.core.rng import ScriptedRng
    state, events = ENGINE.resolve(state, orders, ScriptedRng([]))
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert "P2 did not answer in time: no Nut." in ENGINE.report(events, None)


def test_no_nut_window_when_the_target_is_yourself():
    state = table(5, {"P1": {"garden": ["LILY", "SUN"], "field": ["CONJURER"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    suspend(state, "CONJURER", "nut")
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT LILY")
    assert places(state, "P1")["wasteland"] == ["LILY"]


# -- 3 triangle -----------------------------------------------------------------------
def test_triangle_adds_a_die_rolls_both_and_the_kept_result_is_the_main_roll():
    state = table(5, {"P1": {"garden": ["PYRAMID", "SUN", "MOSS"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    state, _ = play(state, "ROLL PYRAMID", [face("PYRAMID", "triangle")])
    assert pend(state)[0] == "triangle"
    state, _ = answer(state, "TRIANGLE SUN", [drawn("triangle", "PYRAMID", 10),
                                              drawn("triangle", "SUN", 7)])
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["KEEP PYRAMID", "KEEP SUN"]
    state, events = answer(state, "KEEP SUN")
    assert state["number"] == 7
    assert sorted(places(state, "P1")["field"]) == ["PYRAMID", "SUN"]  # both in the Valley
    assert "keeps the Sun (yellow)'s **7** as his main roll" in ENGINE.report(events, None)


def test_a_second_triangle_adds_another_die():
    state = table(5, {"P1": {"garden": ["PYRAMID", "SUN", "MOSS"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    state, _ = play(state, "ROLL PYRAMID", [face("PYRAMID", "triangle")])
    state, _ = answer(state, "TRIANGLE SUN", [drawn("triangle", "PYRAMID", "triangle"),
                                              drawn("triangle", "SUN", 10)])
    assert "TRIANGLE MOSS" in state["pending"]["legal"]
    state, _ = answer(state, "TRIANGLE MOSS", [drawn("triangle", "PYRAMID", 6),
                                               drawn("triangle", "SUN", 10),
                                               drawn("triangle", "MOSS", 2)])
    state, _ = answer(state, "KEEP MOSS")
    assert state["number"] == 2


# -- 4 smile --------------------------------------------------------------------------
def test_smile_keeps_a_d6_and_later_saves_an_overshoot():
    state = table(5, {"P1": {"garden": ["SUN", "TANK"]}, "P2": {"garden": ["FERN", "OAK"]}},
                  number=9)
    state, events = play(state, "ROLL SUN", [face("SUN", "smile"), ("smile/d6", 4)])
    assert state["dice"]["SUN"]["susp"] == {"effect": "smile", "uses": 1, "d6": [4],
                                            "roll": state["dice"]["SUN"]["susp"]["roll"]}
    assert "with a d6 showing 4" in ENGINE.report(events, None)
    state, _ = play(state, "ROLL FERN", [face("FERN", 8)])
    state, _ = play(state, "ROLL TANK", [face("TANK", 12)])
    assert pend(state) == ("react", "P1", "smile")
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["SMILE + 4", "SMILE - 4",
                                                                "PASS"]
    state, events = answer(state, "SMILE -")
    assert state["number"] == 8 and places(state, "P1")["field"] == ["SUN", "TANK"] or \
        state["number"] == 8
    assert state["dice"]["SUN"]["susp"] is None
    assert "the roll counts 8" in ENGINE.report(events, None)


def test_smile_can_make_zero_or_less():
    state = table(5, {"P1": {"garden": ["CASTLE"], "field": ["SUN"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    suspend(state, "SUN", "smile", d6=[6])
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", 3)])
    state, _ = answer(state, "SMILE - 6")
    assert state["number"] == -3


# -- 5 double arrow -------------------------------------------------------------------
def test_double_arrow_makes_a_pit_strike_twice():
    state = table(5, {"P1": {"garden": ["LILY"], "field": ["STAR"]},
                      "P2": {"garden": ["FERN"], "field": ["TANK", "MINE"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    assert pend(state) == ("react", "P1", "double")
    state, events = answer(state, "DOUBLE")
    state, _ = answer(state, "PIT TANK")
    state, _ = answer(state, "PIT MINE")
    assert sorted(places(state, "P2")["wasteland"]) == ["MINE", "TANK"]
    assert "The pit is doubled" in ENGINE.report(events, None)


def test_an_opponent_may_double_an_effect():
    state = table(5, {"P1": {"garden": ["MINE", "SUN"], "field": ["FERN"]},
                      "P2": {"garden": ["OAK"], "field": ["STAR"]}}, number=9)
    suspend(state, "STAR", "double-arrow")
    state, _ = play(state, "ROLL MINE", [face("MINE", "cross")])
    assert pend(state) == ("react", "P2", "double")
    state, events = answer(state, "DOUBLE")
    assert "maxed out" in ENGINE.report(events, None)  # a second cross finds nothing


# -- 6 square -------------------------------------------------------------------------
def test_square_names_the_next_die_a_player_rolls():
    state = table(5, {"P1": {"garden": ["CASTLE"], "field": ["FERN"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=9)
    suspend(state, "FERN", "square")
    state, events = play(state, "ROLL CASTLE\nSQUARE P2 TANK", [face("CASTLE", 3)])
    assert state["forced"]["P2"] == ["TANK"]
    assert ENGINE.decision(state).prompts["P2"]["choices"] == ["ROLL TANK"]
    assert "P2 must roll the Tank (orange) next" in ENGINE.report(events, None)
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "P2", "ROLL OAK")


def test_square_may_not_name_the_die_a_player_just_played():
    state = table(5, {"P1": {"garden": ["CASTLE"], "field": ["FERN"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=9)
    suspend(state, "FERN", "square")
    state["last"]["P2"] = "TANK"
    with pytest.raises(OrdersInvalid, match="just played"):
        ENGINE.parse_orders(state, "P1", "ROLL CASTLE\nSQUARE P2 TANK")


# -- 7 skip (blank) -------------------------------------------------------------------
def test_blank_makes_the_chosen_player_skip():
    state = table(5, {"P1": {"garden": ["TURTLE", "SUN"]}, "P2": {"garden": ["FERN"]},
                      "P3": {"garden": ["OAK"]}}, number=9)
    state, _ = play(state, "ROLL TURTLE", [face("TURTLE", "blank")])
    state, _ = answer(state, "SKIP P2")
    assert pend(state) == ("roll", "P3", None)


# -- 8 Roman numeral ------------------------------------------------------------------
def test_roman_numeral_is_a_number_and_captures_a_die_showing_it():
    state = table(5, {"P1": {"garden": ["CASTLE"]},
                      "P2": {"garden": ["OAK"], "field": ["FERN"]}}, number=9)
    state["dice"]["FERN"]["face"] = 7
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", "VII")])
    assert state["number"] == 7
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["CAPTURE FERN", "PASS"]
    state, events = answer(state, "CAPTURE FERN")
    assert places(state, "P1")["field"] == ["FERN", "CASTLE"]
    assert "P1 captures P2's Fern (green)" in ENGINE.report(events, None)


# -- 9 chaos --------------------------------------------------------------------------
def test_chaos_rolls_the_valley_lowest_number_counts_and_each_icon_once():
    state = table(5, {"P1": {"garden": ["CASTLE"], "field": ["SUN", "MOSS"]},
                      "P2": {"garden": ["OAK"], "field": ["TANK"]}}, number=9)
    state, events = play(state, "ROLL CASTLE", [
        face("CASTLE", "chaos"), drawn("chaos", "SUN", 8), drawn("chaos", "MOSS", 3),
        drawn("chaos", "CASTLE", 5)])
    assert state["number"] == 3
    text = ENGINE.report(events, None)
    assert "Chaos result: lowest number 3" in text


def test_chaos_icons_apply_before_the_round_is_lost():
    state = table(5, {"P1": {"garden": ["CASTLE", "SUN"], "field": ["LILY"]},
                      "P2": {"garden": ["OAK"], "field": ["TANK"]}}, number=2)
    state, _ = play(state, "ROLL CASTLE", [
        face("CASTLE", "chaos"), drawn("chaos", "LILY", "pit"), drawn("chaos", "CASTLE", 5)])
    state, _ = answer(state, "PIT TANK")  # the pit first ...
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert sorted(places(state, "P1")["wasteland"]) == ["CASTLE", "LILY"]  # 5 > 2 loses
    assert state["number"] is None


def test_a_second_chaos_fizzles():
    state = table(5, {"P1": {"garden": ["CASTLE"], "field": ["HYDRA"]},
                      "P2": {"garden": ["OAK"]}}, number=9)
    state, events = play(state, "ROLL CASTLE", [
        face("CASTLE", "chaos"), drawn("chaos", "CASTLE", 3), drawn("chaos", "HYDRA", "chaos")])
    assert "Chaos fizzles" in ENGINE.report(events, None)
    assert state["number"] == 3


# -- 10 cross -------------------------------------------------------------------------
def test_cross_sends_every_unsuspended_field_die_to_the_wastelands():
    state = table(5, {"P1": {"garden": ["MINE", "SUN"], "field": ["FERN"]},
                      "P2": {"garden": ["OAK"], "field": ["TANK", "CONJURER"]}}, number=9)
    suspend(state, "CONJURER", "nut")
    state, _ = play(state, "ROLL MINE", [face("MINE", "cross")])
    assert places(state, "P1")["wasteland"] == ["FERN", "MINE"]
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert places(state, "P2")["field"] == ["CONJURER"]  # the Ledges are spared


# -- 11 duel (cannon) -----------------------------------------------------------------
def test_cannon_duel_the_lower_die_goes_to_limbo_icons_count_zero():
    state = table(5, {"P1": {"garden": ["BARREL", "SUN"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=9)
    state, _ = play(state, "ROLL BARREL", [face("BARREL", "cannon")])
    state, _ = answer(state, "CANNON P2")
    decision = ENGINE.decision(state)
    assert decision.phase == "defend" and decision.seats == ["P2"] and decision.reaction
    state, _ = answer(state, "DEFEND TANK")
    state, events = answer(state, "ATTACK SUN", [
        drawn("duel/1", "SUN", 8), drawn("duel/1", "TANK", 9 if False else "radiation"),
    ])
    assert state["dice"]["TANK"]["place"] == "limbo"
    assert state["dice"]["SUN"]["place"] == "garden"  # back where it was
    assert "loses the duel and goes to Limbo" in ENGINE.report(events, None)


def test_a_tied_duel_is_rolled_again():
    state = table(5, {"P1": {"garden": ["BARREL", "SUN"]},
                      "P2": {"garden": ["TANK", "OAK"]}}, number=9)
    state, _ = play(state, "ROLL BARREL", [face("BARREL", "cannon")])
    state, _ = answer(state, "CANNON P2")
    state, _ = answer(state, "DEFEND OAK")
    state, _ = answer(state, "ATTACK SUN", [
        drawn("duel/1", "SUN", 6), drawn("duel/1", "OAK", 6),
        drawn("duel/2", "SUN", 6), drawn("duel/2", "OAK", 7)])
    assert state["dice"]["SUN"]["place"] == "limbo"


# -- 12 gear --------------------------------------------------------------------------
def test_gear_voids_the_roll_and_turns_the_die_over():
    state = table(5, {"P1": {"garden": ["MINE"], "field": ["OAK"]},
                      "P2": {"garden": ["FERN"]}}, number=12)
    suspend(state, "OAK", "gear")
    state, _ = play(state, "ROLL MINE", [face("MINE", 16)])
    assert pend(state) == ("react", "P1", "gear")
    state, events = answer(state, "GEAR")
    assert state["number"] == 10  # 16's bottom side
    assert state["dice"]["OAK"]["susp"] is None
    assert "turned over it shows **10**" in ENGINE.report(events, None)


def test_an_opponents_gear_after_any_roll():
    state = table(5, {"P1": {"garden": ["CASTLE", "SUN"]},
                      "P2": {"garden": ["FERN"], "field": ["OAK"]}}, number=9)
    suspend(state, "OAK", "gear")
    state, _ = play(state, "ROLL CASTLE", [face("CASTLE", 1)])
    assert pend(state) == ("react", "P2", "gear")
    state, _ = answer(state, "GEAR")
    assert state["dice"]["CASTLE"]["face"] == "gear"  # 1's bottom side is the castle's gear
    assert state["dice"]["CASTLE"]["susp"]["effect"] == "gear"


@pytest.mark.parametrize("rolled,geared", [(15, True), (5, False)])
def test_standing_gear_if_roll_above_number(rolled, geared):
    state = table(5, {"P1": {"garden": ["TANK", "CASTLE"]},
                      "P2": {"garden": ["FERN"], "field": ["OAK"]}}, number=9)
    suspend(state, "OAK", "gear")
    state["standing"]["P2"] = [{"order": {"op": "gear", "die": None, "when": None,
                                          "cond": {"test": "compare", "name": "ROLL",
                                                   "op": ">", "value": "NUMBER"}}}]
    die = "TANK" if rolled == 15 else "CASTLE"
    state, _ = play(state, f"ROLL {die}", [face(die, rolled)])
    assert (state["dice"]["OAK"]["susp"] is None) == geared
    assert state["pending"]["kind"] == "roll"  # P2 was never asked


# -- 13 radiation ---------------------------------------------------------------------
def test_radiation_brings_a_colour_back_from_every_wasteland():
    state = table(5, {"P1": {"garden": ["TANK", "SUN"], "wasteland": ["FERN"]},
                      "P2": {"garden": ["OAK"], "wasteland": ["LILY", "MINE"]}}, number=9)
    state, _ = play(state, "ROLL TANK", [face("TANK", "radiation")])
    state, _ = answer(state, "RADIATION GREEN")
    assert places(state, "P1")["field"] == ["FERN", "TANK"]
    assert places(state, "P2")["field"] == ["LILY"]
    assert places(state, "P2")["wasteland"] == ["MINE"]


# -- suspension, white dice, never twice ----------------------------------------------
def test_overshoot_keeps_the_other_players_ledges():
    state = table(5, {"P1": {"garden": ["TANK", "MOSS"], "field": ["SUN"]},
                      "P2": {"garden": ["OAK"], "field": ["FERN", "CONJURER"]}}, number=5)
    suspend(state, "CONJURER", "nut")
    state, _ = play(state, "ROLL TANK", [face("TANK", 12)])
    assert places(state, "P1")["wasteland"] == ["SUN", "TANK"]
    assert places(state, "P2")["garden"] == ["FERN", "OAK"]
    assert places(state, "P2")["field"] == ["CONJURER"]


def test_rolling_a_suspended_die_loses_its_effect():
    state = table(5, {"P1": {"garden": ["TANK"], "field": ["OAK"]},
                      "P2": {"garden": ["FERN"]}}, number=9)
    suspend(state, "OAK", "gear")
    state, events = play(state, "ROLL OAK", [face("OAK", 5)])
    assert state["dice"]["OAK"]["susp"] is None and state["number"] == 5
    assert "picked up to roll, its effect lost" in ENGINE.report(events, None)


def test_never_the_same_die_twice_in_a_row():
    state = table(5, {"P1": {"garden": ["CASTLE", "SUN"]}, "P2": {"garden": ["FERN"]}},
                  number=9)
    state["last"]["P1"] = "CASTLE"
    assert ENGINE.decision(state).prompts["P1"]["choices"] == ["ROLL SUN"]
    with pytest.raises(OrdersInvalid, match="never the same die twice"):
        ENGINE.parse_orders(state, "P1", "ROLL CASTLE")


def test_a_player_whose_only_die_was_his_last_roll_cannot_play_at_level_five():
    state = table(5, {"P1": {"garden": ["SUN"]}, "P2": {"field": ["CASTLE"]},
                      "P3": {"garden": ["FERN"]}}, number=9)
    state["last"]["P2"] = "CASTLE"
    state, events = play(state, "ROLL SUN", [face("SUN", 7)])
    assert state["out"] == ["P2"] and state["dice"]["CASTLE"]["place"] == "limbo"
    assert state["pending"] == {"kind": "roll", "seat": "P3"}


def test_a_white_die_goes_to_limbo_after_its_main_roll():
    state = table(5, {"P1": {"garden": ["WCUBE", "SUN"]}, "P2": {"garden": ["FERN"]}},
                  number=9)
    state, events = play(state, "ROLL WCUBE", [face("WCUBE", 5)])
    assert state["number"] == 5 and state["dice"]["WCUBE"]["place"] == "limbo"
    assert "White Cube (white) goes to Limbo" in ENGINE.report(events, None)


def test_a_suspended_white_die_stays_until_used_then_goes_to_limbo():
    state = table(5, {"P1": {"garden": ["WCUBE", "SUN"]},
                      "P2": {"garden": ["LILY", "FERN"]}}, number=9)
    state, _ = play(state, "ROLL WCUBE", [face("WCUBE", "nut")])
    assert state["dice"]["WCUBE"]["place"] == "field"
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT SUN" if False else "PIT WCUBE")
    state, _ = answer(state, "NUT")  # P1 is the only target: protected, the nut spent
    assert state["dice"]["WCUBE"]["place"] == "limbo"


def test_a_pitted_white_die_goes_to_limbo_not_the_wasteland():
    state = table(5, {"P1": {"garden": ["LILY", "SUN"]},
                      "P2": {"garden": ["FERN"], "field": ["WOCTA"]}}, number=9)
    suspend(state, "WOCTA", "square")
    state, _ = play(state, "ROLL LILY", [face("LILY", "pit")])
    state, _ = answer(state, "PIT WOCTA")
    assert state["dice"]["WOCTA"]["place"] == "limbo"


def test_level_five_deals_the_white_dice_too():
    from games.core.rng import Rng
    state, _ = ENGINE.setup(["P1", "P2"], {"level": 5}, Rng("white", "setup"))
    whites = [d for d in ("WCUBE", "WOCTA", "WTETRA", "WDECA")
              if state["dice"][d]["place"] == "garden"]
    assert len(whites) == 4  # two players: two each


@pytest.mark.parametrize("level,number", [(5, 9), (6, 3)])
def test_a_chaos_cross_may_sweep_the_lowest_die_and_its_number_still_counts(level, number):
    """The chaos's effects come first; the lowest number counts even when its die has
    gone to the wasteland meanwhile (level 6: it cannot rest on the Ledges from there)."""
    state = table(level, {"P1": {"garden": ["CASTLE", "SUN"], "field": ["MINE"]},
                          "P2": {"garden": ["OAK"], "field": ["TANK"]}}, number=number)
    state, events = play(state, "ROLL CASTLE", [
        face("CASTLE", "chaos"), drawn("chaos", "CASTLE", 3), drawn("chaos", "MINE", "cross")])
    assert state["number"] == 3
    assert sorted(places(state, "P1")["wasteland"]) == ["CASTLE", "MINE"]
    assert places(state, "P2")["wasteland"] == ["TANK"]
    assert state["dice"]["CASTLE"]["susp"] is None
    text = ENGINE.report(events, None)
    assert "Chaos result: lowest number 3; effects: cross." in text  # as rolled, not as left
