"""Pick Your Weapon: FIRE/OPFIRE/MELEE ... WITH <card> chooses the weapon; without it the
engine takes the first usable card that can do the job.

OBED (White; Point yellow, Aim green) carries the Flintlock (Point, range 3) and the
Carbine (Aim, range 7). KORVATH (Black, Stealth red) stands at D6 (three spaces from A6) or G8 (six)."""

import pytest

from games.core.types import OrdersInvalid
from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play

MISS = [("fire/hit", 6), ("fire/hit", 6)]  # 12: a miss (and a broken weapon)


@pytest.mark.parametrize("white, space, weapon", [
    ("FIRE OBED AT KORVATH", "G8", "CARBINE"),           # only the Carbine reaches G8
    ("FIRE OBED AT KORVATH", "D6", "FLINTLOCK"),         # both reach: the first carried
    ("FIRE OBED AT KORVATH WITH CARBINE", "D6", "CARBINE"),
    ("FIRE OBED WITH FLINTLOCK", "D6", "FLINTLOCK"),
])
def test_fire_with_the_weapon_chosen(white, space, weapon):
    state = make({"OBED": ("White", "A6", ["FLINTLOCK", "CARBINE"]),
                  "KORVATH": ("Black", space, [])})
    _, events = play(state, {"White": white, "Black": "HOLD KORVATH"}, MISS)
    assert [a["weapon"] for a in kinds(events, "attack")] == [weapon]


def test_a_chosen_weapon_out_of_range_does_not_fire_another():
    state = make({"OBED": ("White", "A6", ["FLINTLOCK", "CARBINE"]),
                  "KORVATH": ("Black", "G8", [])})
    _, events = play(state, {"White": "FIRE OBED WITH FLINTLOCK",
                             "Black": "HOLD KORVATH"}, [])
    assert kinds(events, "attack") == []
    assert kinds(events, "no_shot") == [{"char": "OBED", "why": "no enemy in sight and range"}]


def test_a_weapon_not_carried_is_refused_when_written():
    state = make({"OBED": ("White", "A6", ["FLINTLOCK"]), "KORVATH": ("Black", "G8", [])})
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(state, "White", "FIRE OBED WITH CARBINE")
    assert "OBED does not carry CARBINE" in str(err.value.errors[0].message)
    assert "FLINTLOCK" in err.value.errors[0].hint
    # a standing order may name a weapon he hopes to carry later; it holds fire until then
    after, events = play(state, {"White": "STANDING FIRE OBED WITH CARBINE",
                                 "Black": "HOLD KORVATH"}, [])
    assert kinds(events, "no_shot")[0]["why"] == "does not carry a usable Lever Carbine"


# Opportunity fire: HOLLIS (Black) at G7 with the Carbine (OpFire 1) and the Machine
# Pistol (OpFire 2); DEX and OBED run past.
@pytest.mark.parametrize("black, shots, weapon", [
    ("FIRE HOLLIS", 1, "CARBINE"),
    ("OPFIRE HOLLIS WITH MACHINEPISTOL", 2, "MACHINEPISTOL"),
    ("IF ENEMY ENTERS LOS THEN FIRE HOLLIS WITH MACHINEPISTOL", 2, "MACHINEPISTOL"),
])
def test_opportunity_fire_with_the_weapon_chosen(black, shots, weapon):
    state = make({"DEX": ("White", "D9", []), "OBED": ("White", "G9", []),
                  "HOLLIS": ("Black", "G7", ["CARBINE", "MACHINEPISTOL"])})
    _, events = play(state, {"White": "MOVE DEX TO D6\nMOVE OBED TO F9 E8", "Black": black},
                     [("opfire/hit", 6), ("opfire/hit", 5)] * shots)
    assert [a["weapon"] for a in kinds(events, "attack")] == [weapon] * shots


# Melee: KORVATH (White, Strength yellow) with the Cutlass and the War Axe against SEVEN.
HIT_MISS = [("melee/hit/KORVATH", 6), ("melee/hit/KORVATH", 6)]  # 12: a miss


@pytest.mark.parametrize("white, weapon", [
    ("", "CUTLASS"),                               # no choice: the first melee card
    ("MELEE KORVATH WITH WARAXE", "WARAXE"),
    ("MELEE KORVATH AT SEVEN WITH WARAXE", "WARAXE"),
    ("MELEE KORVATH WITH NATURAL", None),
])
def test_melee_with_the_weapon_chosen(white, weapon):
    state = make({"KORVATH": ("White", "F5", ["CUTLASS", "WARAXE"]),
                  "SEVEN": ("Black", "F5", [])})
    _, events = play(state, {"White": white, "Black": "HOLD SEVEN"}, HIT_MISS)
    assert [a["weapon"] for a in kinds(events, "attack")] == [weapon]


def test_a_melee_card_he_cannot_use_falls_back_and_tells_his_team():
    # INES (Strength blue) carries the War Axe (Strength green) and the Cutlass.
    state = make({"INES": ("White", "F5", ["WARAXE", "CUTLASS"]),
                  "SEVEN": ("Black", "F5", [])})
    _, events = play(state, {"White": "MELEE INES WITH WARAXE", "Black": "HOLD SEVEN"},
                     [("melee/hit/INES", 6), ("melee/hit/INES", 5)])
    assert [a["weapon"] for a in kinds(events, "attack")] == ["CUTLASS"]
    assert "War Axe" in ENGINE.report(events, "White")
    assert "War Axe" not in ENGINE.report(events, "Black")
