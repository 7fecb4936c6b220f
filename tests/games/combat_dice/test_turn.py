"""One combat turn as a scenario table: state + orders + scripted dice -> outcome.

Basic die faces: 1 attack, 2 dodge, 3 damage, 4 armour, 5 initiative, 6 maneuver.
Every combatant carries the standard kit (no modifiers) unless a row says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import STANDARD, armed, basic, crit, kinds, turn


def pluck(state: dict[str, Any], events: list[Any], key: str) -> Any:
    """Read one expected fact: `P2.hp`, `P2.fx.disarmed`, `P1.first.attack` (first roll),
    `P1.final.attack` (after any reroll), `first`, `reroll`, `P1.strike`, `result`."""
    parts = key.split(".")
    if key == "first":
        return kinds(events, "initiative")[0]["first"]
    if key == "reroll":
        m = kinds(events, "maneuver")[0]
        return m["choice"] if m["seat"] else None
    if key == "result":
        res = state["result"]
        return res and (res["winners"], res["outcome"], res["status"])
    seat, what = parts[0], parts[1]
    if what == "hp":
        return state["fighters"][seat]["hp"]
    if what == "fx":
        return state["fighters"][seat]["effects"][parts[2]]
    if what == "first":
        return next(r["scores"][parts[2]] for r in kinds(events, "roll") if r["seat"] == seat)
    if what == "final":
        return state["last"]["scores"][seat][parts[2]]
    if what == "weapon":
        return state["last"]["weapons"][seat]
    if what == "strike":
        s = next(x for x in kinds(events, "strike") if x["attacker"] == seat)
        if "skipped" in s:
            return "skipped:" + s["skipped"]
        if s.get("netted"):
            return "netted"
        return f"lost {s['lost']}" if s["hit"] else "miss"
    raise KeyError(key)


def setting(state: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    for key, value in changes.items():
        parts = key.split(".")
        if key == "turn":
            state["turn"] = value
        elif parts[1] == "hp":
            state["fighters"][parts[0]]["hp"] = value
        elif parts[1] == "fx":
            state["fighters"][parts[0]]["effects"][parts[2]] = value
    return state


ROWS = [
    # id, arming (P1, P2), options, state changes, orders (P1, P2), dice, expected facts
    ("tie-is-simultaneous-and-both-fall-is-a-draw", (STANDARD, STANDARD), {},
     {"P1.hp": 1, "P2.hp": 1}, ("", ""),
     basic("P1", 1, 1, 3, 3, 5, 2) + basic("P2", 1, 1, 3, 3, 5, 2) + crit("P1", 3, 4)
     + crit("P2", 3, 4),
     {"first": None, "P1.strike": "lost 2", "P2.strike": "lost 2", "P1.hp": -1,
      "P2.hp": -1, "result": ([], "down", {"P1": "unconscious", "P2": "unconscious"})}),
    ("first-striker-downs-foe-who-never-strikes", (STANDARD, STANDARD), {}, {"P2.hp": 1},
     ("", ""), basic("P1", 1, 1, 3, 3, 3, 5) + basic("P2", 4, 1, 1, 2, 6, 6) + crit("P1", 3, 4),
     {"first": "P1", "reroll": None, "P1.strike": "lost 2", "P2.strike": "skipped:down",
      "P2.hp": -1, "result": (["P1"], "down", {"P1": "fighting", "P2": "unconscious"})}),
    ("zero-hit-points-is-unconscious", (STANDARD, STANDARD), {}, {"P2.hp": 2}, ("", ""),
     basic("P1", 1, 1, 3, 3, 5, 5) + basic("P2", 2, 6, 5, 6, 6, 6) + crit("P1", 3, 4),
     {"first": "P1", "P2.strike": "skipped:down", "P2.hp": 0,
      "result": (["P1"], "down", {"P1": "fighting", "P2": "unconscious"})}),
    ("minus-two-is-dead", (STANDARD, STANDARD), {}, {"P2.hp": 2}, ("", ""),
     basic("P1", 1, 1, 3, 3, 3, 3) + basic("P2", 2, 5, 6, 6, 6, 6) + crit("P1", 3, 4),
     {"first": "P2", "reroll": "keep", "P2.strike": "miss", "P1.strike": "lost 4",
      "P2.hp": -2, "result": (["P1"], "down", {"P1": "fighting", "P2": "dead"})}),
    ("damage-not-above-armour-does-nothing-and-rolls-no-damage-dice", (STANDARD, STANDARD),
     {}, {}, ("", ""), basic("P1", 1, 3, 3, 2, 2, 2) + basic("P2", 4, 4, 6, 6, 6, 6),
     {"P1.strike": "lost 0", "P2.hp": 10, "P2.strike": "miss"}),
    # "No Armor: Armor -2": the score is the faces plus the modifier, so an unarmoured
    # fighter's armour can be below zero, and "damage equal to the difference" is then
    # more than the damage score (1 against -2 costs 3).
    ("no-armour-makes-blows-hit-harder", (STANDARD, "EQUIP SWORD, MEDIUM SHIELD"), {}, {},
     ("", ""), basic("P1", 1, 3, 2, 2, 2, 2) + basic("P2", 1, 5, 5, 5, 5, 5)
     + crit("P1", 3, 4),
     {"P2.first.armor": -2, "first": "P2", "reroll": "keep", "P2.strike": "miss",
      "P1.strike": "lost 3", "P2.hp": 7}),
    # no floor anywhere: an unarmed attack of -1 still beats a hurt leg's dodge of -2
    ("negative-scores-compare-as-numbers", ("EQUIP LIGHT ARMOR, MEDIUM SHIELD", STANDARD),
     {}, {"P2.fx.hurt_leg": 1}, ("", ""),
     basic("P1", 1, 3, 3, 3, 5, 5) + basic("P2", 1, 1, 1, 5, 5, 5) + crit("P1", 3, 4),
     {"P1.first.attack": -1, "P1.first.damage": 1, "P2.first.dodge": -2,
      "P2.first.maneuver": -2, "first": "P2", "reroll": None, "P2.strike": "lost 0",
      "P1.strike": "lost 1", "P2.hp": 9}),
    # damage not above armour still does nothing when both are negative
    ("negative-damage-against-higher-armour-does-nothing",
     ("EQUIP LIGHT ARMOR, MEDIUM SHIELD", STANDARD), {}, {},
     ("", ""), basic("P1", 1, 1, 1, 5, 5, 2) + basic("P2", 6, 6, 6, 6, 6, 6),
     {"P1.first.damage": -2, "P2.first.armor": 0, "P1.strike": "lost 0", "P2.hp": 10}),
    ("attack-equal-to-dodge-misses", (STANDARD, STANDARD), {}, {}, ("", ""),
     basic("P1", 1, 3, 3, 3, 3, 3) + basic("P2", 2, 4, 4, 4, 4, 4),
     {"P1.strike": "miss", "P2.hp": 10}),
    ("winner-with-better-maneuver-rerolls-on-order", (STANDARD, STANDARD), {}, {},
     ("REROLL", ""),
     basic("P1", 5, 6, 2, 2, 2, 2) + basic("P2", 2, 4, 4, 4, 4, 4)
     + basic("P1", 1, 1, 1, 3, 3, 3, tag="reroll"),
     {"first": "P1", "reroll": "reroll", "P1.first.attack": 0, "P1.final.attack": 3,
      "P1.final.damage": 3, "P1.final.dodge": 0, "P1.final.initiative": 1,
      "P1.final.maneuver": 1, "P1.strike": "lost 0"}),
    ("conditional-reroll-taken", (STANDARD, STANDARD), {}, {},
     ("IF ATTACK < 2 THEN REROLL", ""),
     basic("P1", 5, 6, 1, 2, 2, 2) + basic("P2", 2, 4, 4, 4, 4, 4)
     + basic("P1", 2, 2, 2, 2, 2, 2, tag="reroll"),
     {"reroll": "reroll", "P1.final.attack": 0, "P1.final.dodge": 6}),
    ("conditional-reroll-not-taken", (STANDARD, STANDARD), {}, {},
     ("IF ATTACK < 2 THEN REROLL", ""),
     basic("P1", 5, 6, 1, 1, 2, 2) + basic("P2", 2, 4, 4, 4, 4, 4),
     {"reroll": "keep", "P1.final.attack": 2}),
    ("condition-may-compare-with-the-foe", (STANDARD, STANDARD), {}, {},
     ("IF ATTACK <= FOE_DODGE THEN REROLL ELSE KEEP", ""),
     basic("P1", 5, 6, 1, 2, 2, 2) + basic("P2", 2, 4, 4, 4, 4, 4)
     + basic("P1", 1, 1, 4, 4, 4, 4, tag="reroll"),
     {"reroll": "reroll", "P1.final.attack": 2, "P1.strike": "lost 0"}),
    ("no-reroll-without-the-better-maneuver", (STANDARD, STANDARD), {}, {},
     ("REROLL", ""), basic("P1", 5, 6, 2, 2, 2, 2) + basic("P2", 6, 2, 2, 2, 2, 2),
     {"first": "P1", "reroll": None}),
    ("initiative-loser-may-not-reroll", (STANDARD, STANDARD), {}, {},
     ("", "REROLL"), basic("P1", 5, 2, 2, 2, 2, 2) + basic("P2", 6, 6, 2, 2, 2, 2),
     {"first": "P1", "reroll": None}),
    ("no-reroll-on-a-tie", (STANDARD, STANDARD), {}, {},
     ("REROLL", ""), basic("P1", 5, 6, 6, 2, 2, 2) + basic("P2", 5, 2, 2, 2, 2, 2),
     {"first": None, "reroll": None}),
    ("stunned-throws-one-die-fewer", (STANDARD, STANDARD), {}, {"P2.fx.stun_next": 1},
     ("", ""), basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2),
     {"P2.first.dodge": 5, "P2.fx.stun_next": 0}),
    ("blinded-throws-three-dice-fewer-for-good", (STANDARD, STANDARD), {},
     {"P2.fx.blinded": 1}, ("", ""), basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2),
     {"P2.first.dodge": 3, "P2.fx.blinded": 1}),
    ("twice-blinded-throws-no-basic-dice", (STANDARD, STANDARD), {},
     {"P2.fx.blinded": 2}, ("", ""), basic("P1", 2, 2, 2, 2, 2, 2),
     {"P2.first.dodge": 0, "P2.first.attack": 0}),
    ("disarmed-fights-at-minus-two", (STANDARD, STANDARD), {}, {"P2.fx.disarmed": True},
     ("", ""), basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 1, 3, 3, 6),
     {"P2.first.attack": 1, "P2.first.damage": 0, "P2.fx.disarmed": True}),
    ("maneuver-two-recovers-the-weapon-at-once", (STANDARD, STANDARD), {},
     {"P2.fx.disarmed": True}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 1, 3, 6, 6),
     {"P2.first.attack": 3, "P2.first.damage": 1, "P2.fx.disarmed": False}),
    ("knocked-down-fights-at-minus-one", (STANDARD, STANDARD), {},
     {"P2.fx.knocked_down": True}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 3, 3, 2, 2),
     {"P2.first.attack": 1, "P2.first.damage": 1, "P2.fx.knocked_down": True}),
    ("maneuver-two-gets-up", (STANDARD, STANDARD), {},
     {"P2.fx.knocked_down": True, "P2.fx.disarmed": True}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 3, 3, 6, 6),
     {"P2.first.attack": 2, "P2.fx.knocked_down": False, "P2.fx.disarmed": False}),
    # "until the player rolls a maneuver score = 2+": what the dice show, not the
    # modified score. A hurt leg (-2) does not stop three maneuver faces ...
    ("rolled-maneuver-recovers-despite-a-hurt-leg", (STANDARD, STANDARD), {},
     {"P2.fx.knocked_down": True, "P2.fx.hurt_leg": 1}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 3, 6, 6, 6),
     {"P2.first.maneuver": 1, "P2.first.attack": 2, "P2.fx.knocked_down": False}),
    # ... and going without armour and shield (+1 +1) does not turn one face into two
    ("modifiers-do-not-count-toward-recovery", (STANDARD, "EQUIP SWORD"), {},
     {"P2.fx.disarmed": True}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 1, 3, 3, 6),
     {"P2.first.maneuver": 3, "P2.first.attack": 1, "P2.fx.disarmed": True}),
    ("one-maneuver-face-is-not-enough", (STANDARD, STANDARD), {},
     {"P2.fx.knocked_down": True}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 3, 3, 6, 2),
     {"P2.first.maneuver": 1, "P2.first.attack": 1, "P2.fx.knocked_down": True}),

    ("hurt-arm-leg-and-broken-armour-stay", (STANDARD, STANDARD), {},
     {"P2.fx.hurt_arm": 1, "P2.fx.hurt_leg": 1, "P2.fx.broken_armor": 1}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 1, 2, 2, 3, 4, 4),
     {"P2.first.attack": 0, "P2.first.dodge": 0, "P2.first.damage": 0,
      "P2.first.armor": 1, "P2.fx.hurt_arm": 1, "P2.fx.hurt_leg": 1,
      "P2.fx.broken_armor": 1}),
    ("old-bleeding-wound-costs-one-a-turn", (STANDARD, STANDARD), {},
     {"P2.fx.bleeding": [{"turns": 2, "since": 0}, {"turns": 1, "since": 0}]}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2),
     {"P2.hp": 8, "P2.fx.bleeding": [{"turns": 1, "since": 0}]}),
    ("bow-opens-the-fight", ("EQUIP BOW, SWORD, LIGHT ARMOR", STANDARD), {}, {}, ("", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 5, 5, 5, 2, 2, 2),
     {"P1.weapon": "bow", "P1.first.initiative": 5, "first": "P1"}),
    ("bow-is-put-away-after-the-opening", ("EQUIP BOW, SWORD, LIGHT ARMOR", STANDARD), {},
     {"turn": 1}, ("STANDING WIELD BOW", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 5, 5, 5, 2, 2, 2),
     {"P1.weapon": "sword", "P1.first.initiative": 1, "first": "P2"}),
    ("thrown-dagger-gone-means-unarmed", ("EQUIP THROWN DAGGER, LIGHT ARMOR", STANDARD), {},
     {"turn": 1}, ("", ""),
     basic("P1", 1, 1, 1, 3, 3, 3) + basic("P2", 2, 2, 2, 2, 2, 2),
     {"P1.weapon": "unarmed", "P1.first.attack": 1, "P1.first.damage": 1}),
    ("wield-chooses-the-weapon", ("EQUIP CLUB, FLAIL, LIGHT ARMOR", STANDARD), {}, {},
     ("WIELD FLAIL", ""), basic("P1", 3, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2),
     {"P1.weapon": "flail", "P1.first.damage": 3}),
    ("wield-condition-on-hit-points", ("EQUIP CLUB, FLAIL, LIGHT ARMOR", STANDARD), {},
     {"P1.hp": 2}, ("IF HP < 3 THEN WIELD FLAIL ELSE WIELD CLUB", ""),
     basic("P1", 3, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2),
     {"P1.weapon": "flail"}),
    ("net-first-binds-and-cancels-the-reply", ("EQUIP TRIDENT, NET, LIGHT ARMOR", STANDARD),
     {}, {}, ("WIELD NET", ""),
     basic("P1", 1, 5, 3, 3, 3, 3) + basic("P2", 1, 1, 3, 3, 3, 3),
     {"first": "P1", "P1.strike": "netted", "P2.strike": "skipped:netted", "P2.hp": 10,
      "P1.hp": 10, "P2.fx.entangled_next": True}),
    ("net-in-a-tie-lets-the-blow-land", ("EQUIP TRIDENT, NET, LIGHT ARMOR", STANDARD),
     {}, {}, ("WIELD NET", ""),
     # no shield: the netter's initiative is 1, like P2's
     # and no armour faces against No Shield's -2: damage 3 costs 3 - (-2) = 5
     basic("P1", 1, 3, 3, 3, 3, 3) + basic("P2", 1, 1, 3, 3, 3, 5) + crit("P2", 3, 4),
     {"first": None, "P1.strike": "netted", "P2.strike": "lost 5", "P1.hp": 5,
      "P2.fx.entangled_next": True}),
    ("netted-cannot-hit-or-dodge", (STANDARD, STANDARD), {}, {"P2.fx.entangled_next": True},
     ("", ""), basic("P1", 1, 2, 2, 2, 2, 2) + basic("P2", 1, 1, 1, 2, 2, 2),
     {"P2.first.dodge": 0, "P2.strike": "skipped:netted", "P1.strike": "lost 0",
      "P2.fx.entangled_next": False}),
    ("yield-concedes", (STANDARD, STANDARD), {}, {}, ("YIELD", ""), [],
     {"result": (["P2"], "yield", {"P1": "yielded", "P2": "fighting"})}),
    ("both-yield-is-a-draw", (STANDARD, STANDARD), {}, {}, ("YIELD", "YIELD"), [],
     {"result": ([], "yield", {"P1": "yielded", "P2": "yielded"})}),
    ("conditional-yield-not-taken", (STANDARD, STANDARD), {}, {},
     ("IF HP < 3 THEN YIELD", ""),
     basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2), {"result": None}),
    ("turn-limit-is-a-draw", (STANDARD, STANDARD), {"max_turns": 50}, {"turn": 49},
     ("", ""), basic("P1", 2, 2, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2),
     {"result": ([], "time", {"P1": "fighting", "P2": "fighting"})}),
]


@pytest.mark.parametrize(("arming", "options", "changes", "orders", "dice", "expected"),
                         [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_turn(arming, options, changes, orders, dice, expected):
    state = setting(armed(*arming, options=options), changes)
    after, events = turn(state, dice, *orders)
    got = {key: pluck(after, events, key) for key in expected}
    assert got == expected
