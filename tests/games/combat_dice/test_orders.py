"""The order language: what is accepted (and how it reads back) and every refusal."""

from __future__ import annotations

import pytest

from games.combat_dice.engine import ENGINE
from games.core.rng import ScriptedRng
from games.core.types import OrdersInvalid

from .helpers import STANDARD, armed


def _arming(level: str = "basic", count: int = 3):
    options = ENGINE.validate_options({"combatants": level})
    dice = [2, count, 2, count] if level == "advanced" else []
    state, _ = ENGINE.setup(["P1", "P2"], options, ScriptedRng(dice))
    return state


STATES = {
    "basic-arming": lambda: _arming(),
    "advanced-arming": lambda: _arming("advanced", 3),
    "fight": lambda: armed("EQUIP BOW, SWORD, LIGHT ARMOR"),
    "fight-turn-2": lambda: {**armed("EQUIP BOW, SWORD, LIGHT ARMOR"), "turn": 1},
    "netter": lambda: armed("EQUIP TRIDENT, NET, LIGHT ARMOR"),
}


@pytest.mark.parametrize(("where", "text", "canonical"), [
    ("basic-arming", STANDARD, STANDARD),
    ("basic-arming", "equip sword medium shield light armour", STANDARD),
    ("basic-arming", "Equip 2-h sword, heavy armour", "EQUIP 2-H SWORD, HEAVY ARMOR"),
    ("basic-arming", "EQUIP two-handed battle axe, no shield",
     "EQUIP 2-H BATTLE AXE"),
    ("basic-arming", "EQUIP bow and arrows, sword, buckler",
     "EQUIP BOW & ARROWS, SWORD, SMALL SHIELD"),
    ("basic-arming", "EQUIP UNARMED", "EQUIP UNARMED"),
    ("basic-arming", "EQUIP no weapon, no armor, no shield", "EQUIP UNARMED"),
    ("basic-arming", STANDARD + "\nSTANDING IF ATTACK < 2 THEN REROLL",
     STANDARD + "\nSTANDING IF ATTACK < 2 THEN REROLL"),
    # the order form's one-item buttons each add a line: the lines add up
    ("basic-arming", "EQUIP SWORD\nEQUIP MEDIUM SHIELD\nEQUIP LIGHT ARMOR", STANDARD),
    ("advanced-arming", "EQUIP SWORD\nSPECIALTY STRENGTH\nEQUIP LIGHT ARMOR\n"
     "SPECIALTY PROWESS\nSPECIALTY STRENGTH",
     "EQUIP SWORD, LIGHT ARMOR\nSPECIALTY STRENGTH STRENGTH PROWESS"),
    ("advanced-arming", STANDARD + "\nSPECIALTY strength prowess STRENGTH",
     STANDARD + "\nSPECIALTY STRENGTH STRENGTH PROWESS"),
    ("advanced-arming", STANDARD + "\nSPECIALTY 2 evasion, armour",
     STANDARD + "\nSPECIALTY ARMOR EVASION EVASION"),
    ("fight", "reroll", "REROLL"),
    ("fight", "keep  # no reroll this time", "KEEP"),
    ("fight", "IF ATTACK < 2 THEN REROLL", "IF ATTACK < 2 THEN REROLL"),
    ("fight", "if dmg <= foe_armour then reroll else keep",
     "IF DAMAGE <= FOE_ARMOR THEN REROLL ELSE KEEP"),
    ("fight", "IF ATTACK <= ENEMY-DODGE AND MANEUVER > 1 THEN REROLL",
     "IF ATTACK <= FOE_DODGE AND MANEUVER > 1 THEN REROLL"),
    ("fight", "STANDING IF ATTACK < 2 THEN REROLL", "STANDING IF ATTACK < 2 THEN REROLL"),
    ("fight", "CANCEL STANDING 2\nSTANDING KEEP", "CANCEL STANDING 2\nSTANDING KEEP"),
    ("fight", "WIELD BOW\nREROLL", "WIELD BOW & ARROWS\nREROLL"),
    ("fight", "IF HP < 3 THEN YIELD", "IF HP < 3 THEN YIELD"),
    ("fight", "IF FOE_HP > HP AND TURN > 5 THEN WIELD UNARMED",
     "IF FOE_HP > HP AND TURN > 5 THEN WIELD UNARMED"),
    ("fight", "REROLL\nEND\nthis is not read", "REROLL"),
    ("fight-turn-2", "STANDING WIELD BOW", "STANDING WIELD BOW & ARROWS"),
    ("netter", "WIELD NET", "WIELD NET"),
    ("netter", "IF TURN > 1 THEN WIELD NET ELSE WIELD TRIDENT",
     "IF TURN > 1 THEN WIELD NET ELSE WIELD TRIDENT"),
])
def test_accepted(where, text, canonical):
    state = STATES[where]()
    orders = ENGINE.parse_orders(state, "P1", text)
    assert orders.text == canonical
    # the canonical text reads back to the same items
    assert ENGINE.parse_orders(state, "P1", orders.text).items == orders.items


@pytest.mark.parametrize(("where", "text", "line", "message", "hint"), [
    ("basic-arming", "EQUIP SWORD, DAGGER, CLUB, LIGHT ARMOR", 1, "too many items", "drop"),
    ("basic-arming", "EQUIP SWROD, LIGHT ARMOR", 1, "unknown item 'SWROD'",
     "did you mean SWORD?"),
    ("basic-arming", "EQUIP SWORD, LASER CANNON", 1, "unknown item", "choose from"),
    ("basic-arming", "EQUIP SWORD, SMALL SHIELD, LARGE SHIELD", 1, "two shields",
     "at most one shield"),
    ("basic-arming", "EQUIP HEAVY ARMOR, LIGHT ARMOR", 1, "two armours",
     "at most one armour"),
    ("basic-arming", "EQUIP SWORD, SWORD", 1, "listed twice", ""),
    ("basic-arming", "EQUIP SWORD, SPELL CHARM", 1, "needs its spell",
     "the spells: HEAL, WARD, FLASH, HASTE, FURY, CLEANSE"),
    ("basic-arming", "EQUIP SWORD, NO SHIELD, LARGE SHIELD", 1, "contradicts", ""),
    ("basic-arming", "EQUIP", 1, "needs the items", "EQUIP SWORD"),
    ("basic-arming", "REROLL", 0, "EQUIP order", ""),
    ("basic-arming", STANDARD + "\nREROLL", 2, "arming turn", "STANDING"),
    ("basic-arming", STANDARD + "\nSPECIALTY STRENGTH", 2, "no specialty dice", ""),
    # EQUIP lines add up to one kit, so a second whole kit lists every item twice
    ("basic-arming", STANDARD + "\n" + STANDARD, 2, "SWORD is listed twice", ""),
    ("basic-arming", "EQUIP SWORD, LIGHT ARMOR\nEQUIP HEAVY ARMOR", 2, "two armours", ""),
    ("basic-arming", "EQUIP SWORD, CLUB\nEQUIP FLAIL, DAGGER", 2, "too many items", ""),
    ("basic-arming", "EQUIP SWORD\nSTANDING WIELD BOW", 2, "do not carry", ""),
    ("advanced-arming", STANDARD, 0, "choose your 3 specialty dice", "SPECIALTY"),
    ("advanced-arming", STANDARD + "\nSPECIALTY STRENGTH", 2,
     "1 specialty dice chosen but you rolled 3", "exactly 3"),
    ("advanced-arming", STANDARD + "\nSPECIALTY STRENGHT PROWESS EVASION", 2,
     "unknown specialty die", "did you mean STRENGTH?"),
    ("advanced-arming", STANDARD + "\nIF HP < 3 THEN EQUIP SWORD", 2, "cannot be conditional",
     ""),
    ("fight", "REROL", 1, "unknown order", "did you mean REROLL?"),
    ("fight", "REROLL\nKEEP", 2, "KEEP would never count: REROLL on line 1 already settles "
     "the reroll choice", "make the first conditional"),
    ("fight", "REROLL\nREROLL", 2, "REROLL repeats line 1", "delete the repeat"),
    ("fight", "WIELD UNARMED\nWIELD UNARMED", 2, "WIELD UNARMED repeats line 1", "repeat"),
    ("fight", "EQUIP SWORD", 1, "chosen before the fight", ""),
    ("fight", "IF ATTAK < 2 THEN REROLL", 1, "unknown condition name", "did you mean ATTACK?"),
    ("fight", "IF ATTACK LESS 2 THEN REROLL", 1, "cannot read condition", ""),
    ("fight", "IF ATTACK < 2 REROLL", 1, "IF <condition> THEN", ""),
    ("fight", "IF ATTACK < 2 THEN WIELD SWORD", 1, "before the dice fall", "HP, FOE_HP"),
    ("fight", "IF DAMAGE > 2 THEN YIELD", 1, "cannot test DAMAGE", ""),
    ("fight", "WIELD FLAIL", 1, "do not carry a FLAIL", "UNARMED"),
    ("fight", "WIELD LIGHT ARMOR", 1, "is not a weapon", ""),
    ("fight", "REROLL NOW", 1, "takes nothing after it", ""),
    ("fight-turn-2", "WIELD BOW", 1, "only in the opening exchange", "melee"),
])
def test_refused(where, text, line, message, hint):
    state = STATES[where]()
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", text)
    errors = exc.value.errors
    assert any(e.line == line and message in e.message and hint in e.hint for e in errors), \
        [str(e) for e in errors]


def test_every_error_is_reported_at_once():
    state = STATES["fight"]()
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", "REROL\nWIELD FLAIL\nIF X < 1 THEN KEEP\nKEEP")
    assert [e.line for e in exc.value.errors] == [1, 2, 3]
    assert exc.value.accepted == ["KEEP"]


@pytest.mark.parametrize(("text", "ok"), [("REROLL", True), ("keep", True),
                                          ("IF ATTACK < 2 THEN REROLL", False),
                                          ("STANDING REROLL", False), ("WIELD SWORD", False),
                                          ("", False), ("REROLL\nKEEP", False)])
def test_a_paused_turn_takes_one_plain_answer(text, ok):
    from .helpers import basic, turn
    state = armed(options={"reroll": "ask"})
    # P1 wins initiative (5) with the better maneuver (6): the turn pauses for P1
    state, _ = turn(state, basic("P1", 5, 6, 2, 2, 2, 2) + basic("P2", 2, 2, 2, 2, 2, 2))
    assert state["phase"] == "reroll"
    if ok:
        assert ENGINE.parse_orders(state, "P1", text).items
    else:
        with pytest.raises(OrdersInvalid):
            ENGINE.parse_orders(state, "P1", text)


@pytest.mark.parametrize(("where", "seat", "expected"), [
    ("basic-arming", "P1", STANDARD),
    ("advanced-arming", "P1", STANDARD + "\nSPECIALTY STRENGTH PROWESS EVASION"),
    ("fight", "P2", ""),
])
def test_default_orders(where, seat, expected):
    orders = ENGINE.default_orders(STATES[where](), seat)
    assert orders.default and orders.text == expected


def test_specialty_buttons_only_for_a_combatant_with_specialty_dice():
    """A basic combatant was offered SPECIALTY buttons that could only be refused."""
    basic = ENGINE.decision(STATES["basic-arming"]()).prompts["P1"]
    assert not any(c.startswith("SPECIALTY") for c in basic["choices"])
    assert "SPECIALTY" not in basic["help"]
    advanced = ENGINE.decision(STATES["advanced-arming"]()).prompts["P1"]
    assert any(c.startswith("SPECIALTY") for c in advanced["choices"])
    assert "Name your 3 specialty dice with SPECIALTY" in advanced["help"]
