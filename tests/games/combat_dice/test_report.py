"""Turn reports against golden files (UPDATE_GOLDEN=1 rewrites them after a review)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.combat_dice.engine import ENGINE
from games.core.replay import secret_rng
from games.core.rng import ScriptedRng
from games.core.types import filter_events
from tests.games.golden import assert_golden

from .helpers import STANDARD, basic, crit, special

GOLDEN = Path(__file__).parent / "golden"


def _compare(name: str, text: str) -> None:
    assert_golden(GOLDEN / name, text)


def _play(options, setup_script, turns):
    """Run setup and turns [(texts by seat, script)], collecting events per step."""
    state, events = ENGINE.setup(["P1", "P2"], ENGINE.validate_options(options),
                                 ScriptedRng(setup_script))
    steps = [events]
    for texts, script in turns:
        seats = ENGINE.decision(state).seats
        orders = {s: ENGINE.parse_orders(state, s, texts.get(s, "")) for s in seats}
        rng = ScriptedRng(script)
        state, events = ENGINE.resolve(state, orders, rng)
        assert rng.remaining == 0
        steps.append(events)
    return state, steps


def _reports(steps, viewer):
    return "\n---\n\n".join(ENGINE.report(ev, viewer) for ev in steps)


SAMPLE = [({"P1": STANDARD, "P2": STANDARD}, []),
          ({}, basic("P1", 2, 3, 1, 3, 5, 3) + basic("P2", 6, 4, 1, 4, 5, 3) + crit("P1", 3, 4))]

ADVANCED = [
    ({"P1": "EQUIP 2-H SWORD, MEDIUM SHIELD, HEAVY ARMOR\nSPECIALTY STRENGTH PROWESS\n"
            "STANDING IF ATTACK <= FOE_DODGE THEN REROLL",
      "P2": "EQUIP TRIDENT, NET, LIGHT ARMOR\nSPECIALTY EVASION"}, []),
    # turn 1: P1 out-maneuvers P2, rerolls and wounds: double critical -> bleeding, stun
    ({}, basic("P1", 5, 5, 5, 5, 6, 6) + special("P1", "strength", 3)
     + special("P1", "prowess", 5) + basic("P2", 4, 2, 3, 3, 1, 2) + special("P2", "evasion", 2)
     + basic("P1", 1, 1, 3, 3, 3, 2, tag="reroll") + special("P1", "strength", 1, tag="reroll")
     + special("P1", "prowess", 1, tag="reroll")
     + crit("P1", 1, 3) + crit("P1", 1, 1) + [("critical/P1/bleeding", 2)] + crit("P1", 2, 4)),
    # turn 2: the stunned netter throws 5 dice, nets first; P1 is bound, P2 bleeds
    ({"P2": "WIELD NET"}, basic("P1", 2, 3, 3, 4, 4, 4) + special("P1", "strength", 6)
     + special("P1", "prowess", 6) + basic("P2", 1, 1, 5, 5, 5)
     + special("P2", "evasion", 4)),
    # turn 3: P1 is netted (cannot hit, no dodge); P2 stabs with the trident
    ({"P2": "WIELD TRIDENT"}, basic("P1", 2, 2, 6, 6, 6, 6) + special("P1", "strength", 6)
     + special("P1", "prowess", 6) + basic("P2", 1, 3, 3, 3, 3, 5)
     + special("P2", "evasion", 6) + crit("P2", 6, 6)),
    # turn 4: P1 yields
    ({"P1": "IF HP < 15 THEN YIELD"}, []),
]


SPELLS = [
    ({"P1": "EQUIP SWORD, SPELL CHARM HEAL, LIGHT ARMOR\nSTANDING IF HP < 8 THEN CAST",
      "P2": "EQUIP 2-H SWORD, SPELL CHARM FLASH, LIGHT ARMOR"}, []),
    # turn 1: no cast yet (P1 is unhurt); the blows are traded, P1 drops to 6
    ({}, basic("P1", 1, 3, 5, 6, 6, 6) + basic("P2", 1, 1, 3, 3, 4, 5)
     + crit("P1", 3, 4) + crit("P2", 3, 4)),
    # turn 2: P1's standing order casts HEAL (capped at 10), P2 casts FLASH on P1
    ({"P2": "CAST"}, [("spell/P1/heal", 3), ("spell/P1/heal", 4)] + basic("P1", 2, 2, 2)
     + basic("P2", *[2] * 6)),
    # turn 3: P1 still dazzled, nobody hits; turn 4: P2 gives up
    ({}, basic("P1", 2, 2, 2) + basic("P2", *[2] * 6)),
    ({"P2": "YIELD"}, []),
]


@pytest.mark.parametrize(("name", "options", "setup", "turns", "viewer"), [
    ("spell_public.md", {}, [], SPELLS, None),
    ("spell_p2.md", {}, [], SPELLS, "P2"),
    ("sample_turn.md", {}, [], SAMPLE, None),
    ("advanced_gm.md", {"combatants": "advanced"}, [4, 2, 2, 1], ADVANCED, "*"),
    ("advanced_p2.md", {"combatants": "advanced"}, [4, 2, 2, 1], ADVANCED, "P2"),
])
def test_golden_report(name, options, setup, turns, viewer):
    _, steps = _play(options, setup, turns)
    text = _reports(steps, viewer)
    assert text == _reports([filter_events(s, viewer) for s in steps], viewer)
    _compare(name, text)


def test_golden_full_game_from_a_secret():
    """A whole fight from a fixed secret: pins the dice, the rules and the wording."""
    secret = "golden-combat-dice"
    state, events = ENGINE.setup(["P1", "P2"], ENGINE.validate_options({}),
                                 secret_rng(secret, None))
    steps = [events]
    plans = {"P1": "EQUIP LARGE SWORD, SMALL SHIELD, MEDIUM ARMOR\n"
                   "STANDING IF ATTACK <= FOE_DODGE THEN REROLL",
             "P2": "EQUIP 2-H BATTLE AXE, LIGHT ARMOR\nSTANDING IF DAMAGE < 2 THEN REROLL"}
    number = 0
    while ENGINE.decision(state):
        seats = ENGINE.decision(state).seats
        orders = {s: ENGINE.parse_orders(state, s, plans.get(s, "")) for s in seats}
        plans = {}
        state, events = ENGINE.resolve(state, orders, secret_rng(secret, number))
        steps.append(events)
        number += 1
    _compare("full_game_public.md", _reports(steps, None))
