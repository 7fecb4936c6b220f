"""The spell charm: arming, every spell's effect, CAST timing, once-only, secrecy."""

from __future__ import annotations

from typing import Any

import pytest

from games.combat_dice import catalog
from games.combat_dice.engine import ENGINE
from games.core.canonical import canonical_json, clone
from games.core.types import OrdersInvalid

from ..conformance import play_random_game
from .helpers import STANDARD, armed, basic, crit, fx, kinds, scores_of, turn

# Neither side hits: every face 2 gives dodge 6 and nothing else.
QUIET = basic("P1", *[2] * 6) + basic("P2", *[2] * 6)
NO_SHIELD = {"armor": -2, "maneuver": 1, "initiative": 1}  # the slot the charm took


def charm(spell: str, standing: str = "") -> str:
    return f"EQUIP SWORD, SPELL CHARM {spell}, LIGHT ARMOR" + (f"\n{standing}" if standing else "")


def heal_dice(*faces: int) -> list[tuple[str, int]]:
    return [("spell/P1/heal", f) for f in faces]


def _set(state: dict[str, Any], seat: str, **changes: Any) -> dict[str, Any]:
    state = clone(state)
    for key, value in changes.items():
        if key == "hp":
            state["fighters"][seat]["hp"] = value
        else:
            state["fighters"][seat]["effects"][key] = value
    return state


# -- arming -----------------------------------------------------------------------
@pytest.mark.parametrize(("text", "canonical", "spell"), [
    ("EQUIP SWORD, SPELL CHARM HEAL, LIGHT ARMOR",
     "EQUIP SWORD, SPELL CHARM HEAL, LIGHT ARMOR", "heal"),
    ("equip sword spell charm ward light armour",
     "EQUIP SWORD, SPELL CHARM WARD, LIGHT ARMOR", "ward"),
    ("EQUIP charm of healing, 2-h sword", "EQUIP SPELL CHARM HEAL, 2-H SWORD", "heal"),
    ("EQUIP SWORD, SPELL CHARM (dazzle)", "EQUIP SWORD, SPELL CHARM FLASH", "flash"),
    ("EQUIP SPELL CHARM REMOVE CURSE MEDIUM SHIELD",
     "EQUIP SPELL CHARM CLEANSE, MEDIUM SHIELD", "cleanse"),
])
def test_a_charm_is_armed_with_its_spell(text, canonical, spell):
    orders = ENGINE.parse_orders(armed_state := _arming(), "P1", text)
    assert orders.text == canonical
    state, events = ENGINE.resolve(armed_state, {"P1": orders}, _no_dice())
    assert state["fighters"]["P1"]["charm"] == {"spell": spell, "spent": False, "turn": None}
    assert catalog.CHARM in state["fighters"]["P1"]["items"]
    assert ENGINE.invariants(state) == []


@pytest.mark.parametrize(("text", "line", "message", "hint"), [
    ("EQUIP SWORD, SPELL CHARM", 1, "a spell charm needs its spell",
     "the spells: HEAL, WARD, FLASH, HASTE, FURY, CLEANSE"),
    ("EQUIP SWORD, SPELL CHARM HEEL", 1, "unknown spell 'HEEL'", "did you mean HEAL?"),
    ("EQUIP SWORD, SPELL CHARM FIREBALL", 1, "unknown spell", "the spells: HEAL"),
    ("EQUIP SPELL CHARM HEAL, SPELL CHARM WARD", 1, "two spell charms", "keep one"),
    ("EQUIP SWORD, SPELL CHARM HEAL, MEDIUM SHIELD, LIGHT ARMOR", 1, "too many items",
     "drop LIGHT ARMOR"),
    ("EQUIP SWORD, HEAL", 1, "HEAL is a spell, not an item", "SPELL CHARM HEAL"),
    (STANDARD + "\nSTANDING CAST", 2, "CAST needs a spell charm", "SPELL CHARM HEAL"),
    (charm("HEAL") + "\nCAST", 2, "arming turn", "STANDING"),
    (charm("HEAL") + "\nSTANDING CAST WARD", 2, "your charm holds HEAL, not WARD",
     "CAST HEAL"),
    (charm("HEAL") + "\nSTANDING IF ATTACK < 2 THEN CAST", 2, "before the dice fall",
     "HP, FOE_HP"),
])
def test_arming_refusals(text, line, message, hint):
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(_arming(), "P1", text)
    assert any(e.line == line and message in e.message and hint in e.hint
               for e in exc.value.errors), [str(e) for e in exc.value.errors]


def test_the_charm_takes_a_slot_and_gives_no_modifiers():
    state = armed(charm("FURY"))
    scores = scores_of(turn(state, QUIET)[1], "P1")
    # faces 2 give dodge 6; the empty shield slot counts as No Shield (armour -2)
    assert scores == {"attack": 0, "dodge": 6, "damage": 0, "armor": -2, "initiative": 1,
                      "maneuver": 1}
    assert NO_SHIELD["initiative"] == scores["initiative"]


# -- every spell: state + orders + dice -> outcome -------------------------------------
def _heal_case(start: int, faces: tuple[int, int], after: int):
    return ("HEAL", {"hp": start}, "CAST", heal_dice(*faces) + QUIET,
            lambda s, ev: (s["fighters"]["P1"]["hp"] == after
                           and kinds(ev, "cast")[0]["healed"] == after - start))


SPELL_CASES = [
    # 2d6+2 back: 3 + (1 + 2 + 2) = 8
    ("heal", *_heal_case(3, (1, 2), 8)),
    # never above the maximum: 6 + (6 + 6 + 2) stops at 10
    ("heal-capped", *_heal_case(6, (6, 6), 10)),
    # ward: armour +3 (faces 4 give 3, light armour and no shield -2, ward +3)
    ("ward", "WARD", {}, "CAST", basic("P1", 4, 4, 4, 2, 2, 2) + basic("P2", *[2] * 6),
     lambda s, ev: scores_of(ev, "P1")["armor"] == 3 - 2 + 3),
    # flash: the foe throws three basic dice
    ("flash", "FLASH", {}, "CAST", basic("P1", *[2] * 6) + basic("P2", 2, 2, 2),
     lambda s, ev: kinds(ev, "roll")[1]["dazzled"] == 3
     and len(kinds(ev, "roll")[1]["dice"]["basic"]) == 3),
    # haste: dodge +2, initiative +3, maneuver +3 (over No Shield's +1/+1)
    ("haste", "HASTE", {}, "CAST", basic("P1", *[2] * 6) + basic("P2", *[2] * 6),
     lambda s, ev: {k: scores_of(ev, "P1")[k] for k in ("dodge", "initiative", "maneuver")}
     == {"dodge": 8, "initiative": 4, "maneuver": 4}),
    # fury: attack +2, damage +2 turns a miss into a 2-point wound
    ("fury", "FURY", {}, "CAST", basic("P1", *[2] * 6) + basic("P2", *[5] * 6)
     + crit("P1", 3, 4),
     lambda s, ev: kinds(ev, "strike")[1] == {
         "attacker": "P1", "defender": "P2", "weapon": "sword", "attack": 2, "dodge": 0,
         "hit": True, "damage": 2, "armor": 0, "lost": 2, "hp": 8}),
    # cleanse: stun (so six dice are thrown), bleeding and a hurt arm all end
    ("cleanse", "CLEANSE", {"stun_next": 1, "hurt_arm": 2,
                            "bleeding": [{"turns": 3, "since": 0}]}, "CAST", QUIET,
     lambda s, ev: fx(s, "P1")["stun_next"] == 0 and fx(s, "P1")["hurt_arm"] == 0
     and fx(s, "P1")["bleeding"] == [] and s["fighters"]["P1"]["hp"] == 10
     and kinds(ev, "cast")[0]["ended"] == ["stunned", "bleeding", "hurt_arm"]),
]


@pytest.mark.parametrize(("case", "spell", "setup", "orders", "script", "check"), SPELL_CASES,
                         ids=[c[0] for c in SPELL_CASES])
def test_each_spell(case, spell, setup, orders, script, check):
    state = armed(charm(spell))
    if "hp" in setup:
        state = _set(state, "P1", hp=setup.pop("hp"))
    state = _set(state, "P1", **setup)
    after, events = turn(state, script, p1=orders)
    assert check(after, events), ENGINE.report(events, "*")
    assert after["fighters"]["P1"]["charm"] == {"spell": spell.lower(), "spent": True, "turn": 1}
    assert [e.kind for e in events][:2] == ["turn", "cast"]  # before the combat roll


def test_ward_lasts_three_turns_then_ends():
    state, _ = turn(armed(charm("WARD")), QUIET, p1="CAST")
    armours = []
    for _ in range(3):
        state, events = turn(state, basic("P1", 4, 4, 4, 2, 2, 2) + basic("P2", *[2] * 6))
        armours.append(scores_of(events, "P1")["armor"])
    assert armours == [4, 4, 1]  # turns 2 and 3 still warded, turn 4 not


def test_flash_costs_the_foe_dice_for_two_turns():
    state, _ = turn(armed(charm("FLASH")), basic("P1", *[2] * 6) + basic("P2", 2, 2, 2),
                    p1="CAST")
    assert ENGINE.view(state, "P2")["fighters"]["P2"]["conditions"] == [
        "dazzled by Flash: 3 basic dice fewer for the next turn"]
    state, events = turn(state, basic("P1", *[2] * 6) + basic("P2", 2, 2, 2))
    state, events = turn(state, QUIET)
    assert kinds(events, "roll")[1]["dazzled"] == 0


# -- when a CAST acts --------------------------------------------------------------
@pytest.mark.parametrize(("hp", "orders", "cast"), [
    (3, "IF HP < 4 THEN CAST", True),
    (4, "IF HP < 4 THEN CAST", False),
    (4, "IF HP < 4 THEN CAST ELSE CAST", True),
    (5, "IF FOE_HP > HP AND TURN = 0 THEN CAST HEAL", False),
    (5, "IF FOE_HP > HP AND TURN = 1 THEN CAST HEAL", True),
    (10, "CAST", False),  # a heal at full hit points is held: the charm keeps it
])
def test_conditional_and_held_casts(hp, orders, cast):
    state = _set(armed(charm("HEAL")), "P1", hp=hp)
    script = (heal_dice(1, 1) if cast else []) + QUIET
    after, events = turn(state, script, p1=orders)
    assert bool(kinds(events, "cast")) is cast
    assert after["fighters"]["P1"]["charm"]["spent"] is cast


def test_a_cleanse_waits_for_something_to_end():
    state = armed(charm("CLEANSE", "STANDING CAST"))
    state, events = turn(state, QUIET)
    assert not kinds(events, "cast") and not state["fighters"]["P1"]["charm"]["spent"]
    state = _set(state, "P1", disarmed=True)
    state, events = turn(state, QUIET)
    assert kinds(events, "cast")[0]["ended"] == ["disarmed"]


def test_a_cleanse_never_shares_its_empty_wound_list_with_later_fights():
    """Regression: CLEANSE used to install the module's own `[]` as the bleeding list,
    so a wound taken later in the same resolution was appended to that shared list and
    the next cleanse, in any game the worker ran, "ended" bleeding with it."""
    wound = [{"turns": 2, "since": 0}]
    state = _set(armed(charm("CLEANSE", "STANDING CAST")), "P1", bleeding=wound)
    # P1 casts, then P2 hits (attack 1 > dodge 0; damage 1 against armour -2) and
    # the damage dice 1 + 1 open a new 3-turn bleeding wound in the same resolution
    script = basic("P1", *[5] * 6) + basic("P2", 1, 3, 2, 2, 2, 2) + crit("P2", 1, 1) \
        + [("critical/P2/bleeding", 3)]
    after, events = turn(state, script)
    assert kinds(events, "cast")[0]["ended"] == ["bleeding"]
    assert fx(after, "P1")["bleeding"] == [{"turns": 3, "since": 1}]
    # a second, unrelated fight: its cleanse ends bleeding with an empty list
    other = _set(armed(charm("CLEANSE", "STANDING CAST")), "P1", bleeding=wound)
    other, _ = turn(other, QUIET)
    assert fx(other, "P1")["bleeding"] == []


def test_standing_cast_from_arming_then_once_only():
    state = armed(charm("HEAL", "STANDING IF HP < 8 THEN CAST"))
    state = _set(state, "P1", hp=7)
    state, events = turn(state, heal_dice(2, 2) + QUIET)
    assert state["fighters"]["P1"]["hp"] == 10
    state = _set(state, "P1", hp=5)
    state, events = turn(state, QUIET)  # the standing order stays but the charm is spent
    assert not kinds(events, "cast") and state["fighters"]["P1"]["hp"] == 5
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P1", "IF HP < 6 THEN CAST")
    error = exc.value.errors[0]
    assert "spent (cast in combat round 1)" in error.message and "serves once" in error.hint


@pytest.mark.parametrize(("text", "message", "hint"), [
    ("CAST", "no spell charm", "chosen when arming"),
    ("STANDING IF HP < 3 THEN CAST", "no spell charm", ""),
    ("CAST FIREBALL", "unknown spell", "the spells"),
])
def test_cast_without_a_charm_is_refused(text, message, hint):
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(armed(), "P1", text)
    assert message in exc.value.errors[0].message and hint in exc.value.errors[0].hint


def test_two_unconditional_casts_are_refused():
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(armed(charm("HEAL")), "P1", "CAST\nCAST HEAL")
    assert exc.value.errors[0].message == (
        "CAST HEAL would never count: CAST on line 1 already settles the spell charm this turn")


def test_a_yield_comes_before_any_spell():
    state = _set(armed(charm("HEAL")), "P1", hp=3)
    after, events = turn(state, [], p1="CAST", p2="YIELD")
    assert not kinds(events, "cast") and after["result"]["winners"] == ["P1"]


def test_both_cast_in_the_same_turn():
    state = armed(charm("FLASH"), charm("CLEANSE"))
    state = _set(state, "P2", stun_next=1)
    after, events = turn(state, basic("P1", *[2] * 6) + basic("P2", 2, 2, 2),
                         p1="CAST", p2="CAST")
    assert [c["seat"] for c in kinds(events, "cast")] == ["P1", "P2"]
    # the stun is gone, the flash still costs three dice
    assert kinds(events, "roll")[1]["stunned"] == 0
    assert kinds(events, "roll")[1]["dazzled"] == 3


def test_a_paused_turn_keeps_the_spell_for_the_rethrow():
    state = armed(charm("FURY"), options={"reroll": "ask"})
    # P1 wins initiative (5) with the better maneuver (6): the turn pauses
    state, _ = turn(state, basic("P1", 5, 6, 2, 2, 2, 2) + basic("P2", *[2] * 6), p1="CAST")
    assert state["phase"] == "reroll"
    state, events = turn(state, basic("P1", 1, 3, 2, 2, 2, 2, tag="reroll"), p1="REROLL")
    assert kinds(events, "reroll")[0]["scores"]["attack"] == 3  # 1 + fury 2
    assert kinds(events, "reroll")[0]["scores"]["damage"] == 3


# -- secrecy -----------------------------------------------------------------------
def test_the_spell_is_secret_until_cast():
    state = armed(charm("HEAL"))
    assert ENGINE.view(state, "P2")["fighters"]["P1"]["charm"] == {
        "spell": None, "spent": False, "turn": None}
    assert ENGINE.view(state, "P1")["fighters"]["P1"]["charm"]["spell"] == "Heal"
    assert ENGINE.view(state, "*")["fighters"]["P1"]["charm"]["spell"] == "Heal"
    other = clone(state)
    other["fighters"]["P1"]["charm"]["spell"] = "fury"
    for viewer in (None, "P2"):
        assert canonical_json(ENGINE.view(other, viewer)) == \
            canonical_json(ENGINE.view(state, viewer))
    assert canonical_json(ENGINE.view(other, "P1")) != canonical_json(ENGINE.view(state, "P1"))
    # nor does the other seat's prompt name it
    assert "HEAL" not in canonical_json(ENGINE.decision(state).prompts["P2"]).upper()
    after, _ = turn(_set(state, "P1", hp=4), heal_dice(1, 1) + QUIET, p1="CAST")
    assert ENGINE.view(after, "P2")["fighters"]["P1"]["charm"] == {
        "spell": "Heal", "spent": True, "turn": 1}


def test_arming_reports_reveal_the_spell_to_its_owner_only():
    state, _ = ENGINE.setup(["P1", "P2"], ENGINE.validate_options({}), _no_dice())
    orders = {"P1": ENGINE.parse_orders(state, "P1", charm("WARD")),
              "P2": ENGINE.parse_orders(state, "P2", STANDARD)}
    _, events = ENGINE.resolve(state, orders, _no_dice())
    assert "**Ward**" in ENGINE.report(events, "P1")
    for viewer in (None, "P2"):
        text = ENGINE.report(events, viewer)
        assert "Spell Charm" in text and "Ward" not in text


def test_perturb_hidden_changes_an_unspent_spell():
    state = armed(charm("HEAL"))
    seen = set()
    for choice in range(4):
        perturbed = ENGINE.perturb_hidden(state, "P2", lambda seq, c=choice: list(seq)[
            c % len(list(seq))])
        seen.add(perturbed["fighters"]["P1"]["charm"]["spell"])
    assert seen - {"heal"}, "the secret spell is never probed by the no-leak check"


def test_random_play_equips_and_casts_charms():
    """The conformance suite's random games must reach charms and casts."""
    equipped = cast = 0
    for seed in range(40):
        play = play_random_game(ENGINE, seed, check=False)
        charms = [f.get("charm") for f in play.states[-1]["fighters"].values()]
        equipped += sum(1 for c in charms if c)
        cast += sum(1 for c in charms if c and c["spent"])
    assert equipped >= 10 and cast >= 5, (equipped, cast)


# -- helpers ------------------------------------------------------------------------
def _arming() -> dict[str, Any]:
    state, _ = ENGINE.setup(["P1", "P2"], ENGINE.validate_options({}), _no_dice())
    return state


def _no_dice():
    from games.core.rng import ScriptedRng
    return ScriptedRng([])
