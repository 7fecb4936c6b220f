"""The damage dice: every 2d6 result, double criticals, and how long each effect lasts."""

from __future__ import annotations

import pytest

from games.combat_dice.engine import ENGINE
from games.core.rng import ScriptedRng

from .helpers import STANDARD, armed, basic, crit, fx, kinds, scores_of, special, turn

# P1 hits P2 for exactly 1 (attack 1 vs dodge 0, damage 1 vs armour 0); P2 misses.
HIT = basic("P1", 1, 3, 2, 2, 2, 2) + basic("P2", 6, 6, 6, 6, 6, 6)
QUIET = basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2)

CLEAN = {"stun_next": 0, "entangled_next": False, "disarmed": False, "knocked_down": False,
         "hurt_arm": 0, "hurt_leg": 0, "broken_armor": 0, "blinded": 0, "bleeding": []}


@pytest.mark.parametrize(("dice", "extra", "effect", "changed"), [
    ((1, 1), [("critical/P1/bleeding", 4)], "bleeding",
     {"bleeding": [{"turns": 4, "since": 1}]}),
    ((1, 2), [], "hurt_arm", {"hurt_arm": 1}),
    ((2, 3), [], "disarm", {"disarmed": True}),
    ((2, 4), [], "stunned", {"stun_next": 1}),
    ((3, 4), [], "none", {}),
    ((6, 1), [], "none", {}),
    ((4, 4), [], "stunned", {"stun_next": 1}),
    ((4, 5), [], "knockdown", {"knocked_down": True}),
    ((5, 5), [], "break_armor", {"broken_armor": 1}),
    ((5, 6), [], "hurt_leg", {"hurt_leg": 1}),
    ((6, 6), [], "blinded", {"blinded": 1}),
])
def test_each_result_of_the_damage_dice(dice, extra, effect, changed):
    after, events = turn(armed(), HIT + crit("P1", *dice) + extra)
    crits = kinds(events, "critical")
    assert [c["effect"] for c in crits] == [effect]
    assert fx(after, "P2") == {**CLEAN, **changed}
    assert fx(after, "P1") == CLEAN
    assert after["fighters"]["P2"]["hp"] == 9  # the effect adds nothing this turn


def test_double_critical_rolls_twice_more_and_can_chain():
    script = HIT + crit("P1", 1, 3) + crit("P1", 2, 2) + crit("P1", 3, 4) + crit("P1", 1, 2) \
        + crit("P1", 5, 6)
    after, events = turn(armed(), script)
    assert [c["effect"] for c in kinds(events, "critical")] == [
        "double", "double", "none", "hurt_arm", "hurt_leg"]
    assert fx(after, "P2") == {**CLEAN, "hurt_arm": 1, "hurt_leg": 1}


def test_stun_lasts_exactly_the_next_turn():
    state, _ = turn(armed(), HIT + crit("P1", 2, 4))
    state, events = turn(state, basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2))
    assert kinds(events, "roll")[1]["stunned"] == 1
    state, events = turn(state, QUIET)  # six dice again
    assert kinds(events, "roll")[1]["stunned"] == 0


def test_bleeding_runs_for_its_rolled_turns_then_stops():
    state, _ = turn(armed(), HIT + crit("P1", 1, 1) + [("critical/P1/bleeding", 2)])
    assert state["fighters"]["P2"]["hp"] == 9  # no bleeding on the turn of the wound
    state, events = turn(state, QUIET)
    assert kinds(events, "bleed") == [{"seat": "P2", "lost": 1, "hp": 8}]
    state, events = turn(state, QUIET)
    assert kinds(events, "bleed") == [{"seat": "P2", "lost": 1, "hp": 7}]
    assert fx(state, "P2")["bleeding"] == []
    state, events = turn(state, QUIET)
    assert kinds(events, "bleed") == [] and state["fighters"]["P2"]["hp"] == 7


def test_bleeding_alone_can_end_the_fight():
    state = armed()
    state["fighters"]["P2"]["hp"] = 1
    state["fighters"]["P2"]["effects"]["bleeding"] = [{"turns": 3, "since": 0}]
    state, _ = turn(state, QUIET)
    assert state["result"]["winners"] == ["P1"]
    assert state["result"]["status"]["P2"] == "unconscious"


@pytest.mark.parametrize(("dice", "key", "value"), [
    ((1, 2), "hurt_arm", 1), ((5, 6), "hurt_leg", 1), ((5, 5), "broken_armor", 1),
    ((6, 6), "blinded", 1),
])
def test_permanent_effects_outlast_many_turns(dice, key, value):
    state, _ = turn(armed(), HIT + crit("P1", *dice))
    p2_dice = 3 if key == "blinded" else 6
    for _ in range(3):
        state, _ = turn(state, basic("P1", *[2] * 6) + basic("P2", *[2] * p2_dice))
    assert fx(state, "P2")[key] == value


@pytest.mark.parametrize(("dice", "key", "penalty"), [((2, 3), "disarmed", 2),
                                                    ((4, 5), "knocked_down", 1)])
def test_a_second_disarm_or_knockdown_while_one_holds_changes_nothing(dice, key, penalty):
    """One weapon to lose, one fall to get up from: a second disarm (or knockdown) before
    the fighter recovers leaves the penalty as it was (README, the lasting effects)."""
    state, _ = turn(armed(), HIT + crit("P1", *dice))
    # P2 (no 6: no recovery) wins the initiative but misses; P1 hits for 1 again
    again = basic("P1", 1, 3, 2, 2, 2, 2) + basic("P2", 5, 5, 5, 5, 5, 5) + crit("P1", *dice)
    state, events = turn(state, again)
    assert kinds(events, "critical")[0]["effect"] == {"disarmed": "disarm",
                                                      "knocked_down": "knockdown"}[key]
    assert fx(state, "P2")[key] is True
    state, events = turn(state, QUIET)
    assert scores_of(events, "P2")["attack"] == 0 - penalty
    assert scores_of(events, "P2")["damage"] == 0 - penalty


def test_disarm_holds_until_a_maneuver_of_two():
    state, _ = turn(armed(), HIT + crit("P1", 2, 3))
    # maneuver 1: still disarmed
    state, events = turn(state, basic("P1", *[2] * 6) + basic("P2", 6, 2, 2, 2, 2, 2))
    assert fx(state, "P2")["disarmed"] is True
    # maneuver 2: weapon back
    state, events = turn(state, basic("P1", *[2] * 6) + basic("P2", 6, 6, 2, 2, 2, 2))
    assert fx(state, "P2")["disarmed"] is False
    assert kinds(events, "roll")[1]["recovered"] == ["disarmed"]


def test_a_maneuver_specialty_die_counts_as_a_rolled_maneuver():
    """Specialty dice are part of the combat roll: a maneuver die on 1 and one basic 6
    make the 2 the disarmed fighter needs."""
    script = [("setup/P1/hit-points", 1), ("setup/P1/specialty-dice", 1),
              ("setup/P2/hit-points", 1), ("setup/P2/specialty-dice", 1)]
    state, _ = ENGINE.setup(["P1", "P2"], ENGINE.validate_options({"combatants": "advanced"}),
                            ScriptedRng(script))
    orders = {"P1": ENGINE.parse_orders(state, "P1", STANDARD + "\nSPECIALTY PROWESS"),
              "P2": ENGINE.parse_orders(state, "P2", STANDARD + "\nSPECIALTY MANEUVER")}
    state, _ = ENGINE.resolve(state, orders, ScriptedRng([]))
    fx(state, "P2")["disarmed"] = True
    script = basic("P1", *[2] * 6) + special("P1", "prowess", 3) \
        + basic("P2", 6, 2, 2, 2, 2, 2) + special("P2", "maneuver", 1)
    state, events = turn(state, script)
    assert fx(state, "P2")["disarmed"] is False
    assert kinds(events, "roll")[1]["rolled_maneuver"] == 2


def test_an_unarmoured_fighter_without_shield_stays_disarmed_on_one_maneuver_face():
    """No armour and no shield give maneuver +2, but recovery counts the faces: one 6
    is a maneuver score of 3 and still no weapon back (issue 12)."""
    state = armed(p2="EQUIP SWORD")
    fx(state, "P2")["disarmed"] = True
    for _ in range(3):
        state, events = turn(state, basic("P1", *[2] * 6) + basic("P2", 6, 2, 2, 2, 2, 2))
        assert scores_of(events, "P2")["maneuver"] == 3
        assert fx(state, "P2")["disarmed"] is True


def test_effects_land_after_this_turns_roll():
    """A critical from the first striker does not change the victim's scores this turn."""
    state = armed()
    # P1 strikes first (initiative 1) and disarms; P2's own blow still uses its full attack
    script = basic("P1", 1, 3, 3, 5, 2, 2) + basic("P2", 1, 1, 6, 6, 6, 6) + crit("P1", 2, 3)
    after, events = turn(state, script)
    strikes = {s["attacker"]: s for s in kinds(events, "strike")}
    assert strikes["P2"]["attack"] == 2
    assert fx(after, "P2")["disarmed"] is True


def test_report_names_the_lasting_effect():
    state, events = turn(armed(), HIT + crit("P1", 6, 6))
    text = ENGINE.report(events, None)
    assert "**Blinded** on P2" in text and "blinded x1: 3 basic dice fewer" in text
