"""Equipment rules of the rulebook not played elsewhere, each as a scenario with the cards
it names where it names one (the Obsidian Tomahawk, the Sumerian Chariot, the Crickets).
The inventory in README.md lists every equipment rule with the test that plays it."""

import pytest

from games.core.canonical import state_hash
from games.core.engine import REVISION
from games.core.types import OrdersInvalid
from games.duel_of_ages.engine import ENGINE

from .helpers import field, kinds, make, play

MISS = [("fire/hit", 6), ("fire/hit", 5)]
ROAD = field(". . . . . . . . . . . .", ". . . . . . . B . . . .")
"""Two rows of clear spaces: A1..L1 is a straight road; row 2 has a building at H2."""


def test_the_obsidian_tomahawk_is_lost_after_a_kill():
    # a K melee weapon goes after the kill; the natural attack and P cards never do
    state = make({"SARGE": ("White", "A1", ["TOMAHAWK"]), "ROGUE": ("Black", "A1", [], 1)},
                 map_=ROAD)
    after, events = play(state, {"White": "MELEE SARGE AT ROGUE WITH TOMAHAWK",
                                 "Black": "HOLD ROGUE"},
                         [("melee/hit/SARGE", 1), ("melee/hit/SARGE", 1),
                          ("melee/damage/SARGE", 1), ("melee/damage/SARGE", 1)])
    assert after["chars"]["ROGUE"]["status"] == "dead"
    assert kinds(events, "card_lost") == [{"char": "SARGE", "card": "TOMAHAWK",
                                           "why": "spent on a kill"}]
    assert after["chars"]["SARGE"]["cards"] == []


@pytest.mark.parametrize("rolls, dead, kept", [
    ((4, 1), "OBED", True),         # the ally rolls lowest and dies: the Longbow stays
    ((1, 4), "KORVATH", False),     # the enemy dies: the K card is spent
])
def test_a_k_weapon_is_spent_only_on_killing_an_enemy(rolls, dead, kept):
    state = make({"TAMSIN": ("White", "A1", ["LONGBOW"]), "KORVATH": ("Black", "D1", [], 1),
                  "OBED": ("White", "D1", [], 1)}, map_=ROAD)
    after, events = play(state, {"White": "FIRE TAMSIN AT KORVATH\nHOLD OBED",
                                 "Black": "HOLD KORVATH"},
                         [("fire/random-target/KORVATH", rolls[0]),
                          ("fire/random-target/OBED", rolls[1]),
                          ("fire/hit", 1), ("fire/hit", 1),
                          ("fire/damage", 1), ("fire/damage", 1)])
    assert after["chars"][dead]["status"] == "dead"
    assert ("LONGBOW" in [e["card"] for e in after["chars"]["TAMSIN"]["cards"]]) is kept


@pytest.mark.parametrize("revision, kept", [(1, False), (2, True)])
def test_a_game_of_rules_revision_1_spends_a_k_weapon_on_any_kill(revision, kept):
    """Games recorded before rules revision 2 replay as they were played: a kill spent a
    K card even when the random target had picked the firer's ally (8b098e1 changed it
    ungated; revision 2 holds it)."""
    state = make({"TAMSIN": ("White", "A1", ["LONGBOW"]), "KORVATH": ("Black", "D1", [], 1),
                  "OBED": ("White", "D1", [], 1)}, map_=ROAD, revision=revision)
    after, _ = play(state, {"White": "FIRE TAMSIN AT KORVATH\nHOLD OBED",
                            "Black": "HOLD KORVATH"},
                    [("fire/random-target/KORVATH", 4), ("fire/random-target/OBED", 1),
                     ("fire/hit", 1), ("fire/hit", 1), ("fire/damage", 1), ("fire/damage", 1)])
    assert after["chars"]["OBED"]["status"] == "dead"
    assert ("LONGBOW" in [e["card"] for e in after["chars"]["TAMSIN"]["cards"]]) is kept
    if revision == 1:  # the very state the engine of commit 8b098e1^ reached
        assert REVISION not in after and state_hash(after) == \
            "035eded6af391e8470ea7d5c1d16c129702fe050ce27c03fef71ee3518cda26a"


@pytest.mark.parametrize("who, cards, ride, end", [
    ("AMAZON", [], False, "G1"),                       # Speed 6: six spaces
    ("AMAZON", ["CHARIOT"], True, "H1"),               # the Chariot: Speed 7
    ("AMAZON", ["CHARIOT"], False, "G1"),              # carried but not ridden: 6
    ("TAMSIN", ["CRICKETS"], True, "J1"),              # the Crickets add 3: 9
    ("AMAZON", ["CRICKETS"], True, "G1"),              # ... if her Wits are up to them
])
def test_mounts_give_a_new_speed_or_add_to_it(who, cards, ride, end):
    state = make({who: ("White", "A1", cards)}, map_=ROAD)
    after, _ = play(state, {"White": f"RIDE {who}\n" * ride + f"MOVE {who} TO L1"}, [])
    assert after["chars"][who]["space"] == end


def test_the_chariot_cannot_enter_a_building():
    state = make({"AMAZON": ("White", "F2", ["CHARIOT"])}, map_=ROAD)
    after, events = play(state, {"White": "RIDE AMAZON\nMOVE AMAZON TO G2 H2"}, [])
    assert after["chars"]["AMAZON"]["space"] == "G2"
    assert kinds(events, "move")[0]["stop"] == "the mount cannot enter a building"


def test_only_one_mount_at_a_time():
    # the Crickets (+3) and the jump pack (+2) never add up: the last RIDE stands
    state = make({"TAMSIN": ("White", "A1", ["CRICKETS", "JUMPPACK"])}, map_=ROAD)
    after, events = play(state, {"White": "RIDE TAMSIN WITH CRICKETS\n"
                                          "RIDE TAMSIN WITH JUMPPACK\nMOVE TAMSIN TO L1"},
                         [])
    assert after["chars"]["TAMSIN"]["mount"] == "JUMPPACK"
    assert after["chars"]["TAMSIN"]["space"] == "I1"          # 6 + 2, not 6 + 3 + 2


def test_a_mount_received_in_trade_cannot_be_ridden_that_turn():
    # mounts are chosen in the Free Action phase, trades come after the moves: the order
    # is refused when written, since he does not carry it then
    state = make({"DEX": ("White", "A1", []), "INES": ("White", "A1", ["JUMPPACK"])},
                 map_=ROAD)
    with pytest.raises(OrdersInvalid, match="carries no mount"):
        ENGINE.parse_orders(state, "White", "TRADE DEX WITH INES TAKE JUMPPACK\n"
                                            "RIDE DEX WITH JUMPPACK")


def test_only_one_stealth_card_counts():
    # SEVEN (Stealth red) carries the Shadow Cloak (green) and the Ghillie Cloak (yellow):
    # the better one is used, and only that one is shown
    state = make({"TAMSIN": ("White", "A1", ["SLING"]),
                  "SEVEN": ("Black", "D1", ["SHADOWCLOAK", "GHILLIE"])}, map_=ROAD)
    _, events = play(state, {"White": "FIRE TAMSIN AT SEVEN", "Black": ""}, MISS)
    # Throw yellow vs yellow
    assert kinds(events, "attack")[0]["hit"]["number"] == 7
    assert [r["card"] for r in kinds(events, "reveal") if r["char"] == "SEVEN"] == ["GHILLIE"]


def test_one_medical_card_a_turn():
    state = make({"DEX": ("White", "A1", ["TONIC", "HERBS"], 2)}, map_=ROAD)
    after, events = play(state, {"White": "HEAL DEX WITH TONIC\nHEAL DEX WITH HERBS"}, [])
    assert after["chars"]["DEX"]["health"] == 4
    assert [e["card"] for e in after["chars"]["DEX"]["cards"]] == ["HERBS"]


@pytest.mark.parametrize("how", ["trade", "pickup"])
def test_a_shown_card_stays_shown(how):
    # once revealed, never hidden again, even if traded or captured
    if how == "trade":
        state = make({"DEX": ("White", "A1", ["SLING!"]), "INES": ("White", "A1", [])},
                     map_=ROAD)
        orders = "TRADE DEX WITH INES GIVE SLING"
    else:
        state = make({"INES": ("White", "A1", [])}, ground={"B1": ["SLING!"]}, map_=ROAD)
        orders = "MOVE INES TO B1 PICKUP"
    after, _ = play(state, {"White": orders}, [])
    assert after["chars"]["INES"]["cards"] == [{"card": "SLING", "revealed": True}]
    public = ENGINE.view(after, None)["chars"]["INES"]
    assert public["cards"] == [{"card": "SLING", "revealed": True}]


def test_the_discard_pile_is_face_up():
    state = make({"DEX": ("White", "A1", ["TONIC"], 2)}, map_=ROAD)
    after, _ = play(state, {"White": "HEAL DEX"}, [])
    assert ENGINE.view(after, "Black")["discard"] == ["TONIC"]


def test_an_area_weapon_breaks_on_a_twelve_after_every_target():
    # the Flame Projector rolls a 12 against the first of two targets: the second is
    # still attacked, then the weapon is gone
    state = make({"HOLLIS": ("White", "A1", ["FLAMER"]), "KORVATH": ("Black", "D1", []),
                  "SEVEN": ("Black", "D1", [])}, map_=ROAD)
    after, events = play(state, {"White": "FIRE HOLLIS AT KORVATH", "Black": ""},
                         [("fire/hit", 6), ("fire/hit", 6)] + MISS)
    assert [a["target"] for a in kinds(events, "attack")] == ["KORVATH", "SEVEN"]
    assert kinds(events, "card_lost") == [{"char": "HOLLIS", "card": "FLAMER",
                                           "why": "broke"}]
