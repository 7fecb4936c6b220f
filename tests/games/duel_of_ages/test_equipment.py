"""Equipment rules: armour slots (body, head, shield), a mount's armour, packs, gadgets,
the player's choice of discards over the limit, and destroying cards on trading or
receiving them; plus the designed deck against the rulebook's categories and cards."""

from collections import Counter

import pytest

from games.duel_of_ages import catalog
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules.combat import hit_number

from .helpers import kinds, make, play

# TAMSIN (White, A6, Throw yellow) shoots the Sling (Penetration red, damage 1) at SARGE
# (Black, D6, Armor blue): red vs blue = 6 to damage, less the armour worn.
HIT = [("fire/hit", 1), ("fire/hit", 1)]
DAMAGE = [("fire/damage", 6), ("fire/damage", 6)]


def _damage_number(cards, orders=""):
    state = make({"TAMSIN": ("White", "A6", ["SLING"]), "SARGE": ("Black", "D6", cards)})
    _, events = play(state, {"White": orders + "\nFIRE TAMSIN", "Black": "HOLD SARGE"},
                     HIT + DAMAGE)
    return kinds(events, "attack")[0]["wound"]["number"], events


@pytest.mark.parametrize("cards, number, shown", [
    ([], 6, []),
    (["KEVLAR"], 4, ["KEVLAR"]),                          # body: yellow
    (["HELM"], 5, ["HELM"]),                              # head: one step
    (["KEVLAR", "HELM"], 3, ["KEVLAR", "HELM"]),          # one of each slot
    (["LEATHER", "KEVLAR"], 4, ["KEVLAR"]),               # two bodies: the better only
    (["HELM", "COMBATHELMET"], 5, ["HELM"]),              # two heads: one counts
    (["RIOTSHIELD"], 6, []),                              # a shield is for melee
])
def test_armour_slots_against_a_shot(cards, number, shown):
    got, events = _damage_number(cards)
    assert got == number
    assert [r["card"] for r in kinds(events, "reveal") if r["char"] == "SARGE"] == shown


def test_a_shield_parries_melee_and_is_shown():
    state = make({"KORVATH": ("White", "F5", []), "SARGE": ("Black", "F5", ["RIOTSHIELD"])})
    assert hit_number(state, "KORVATH", "SARGE", None, known_only=False) == 6  # 8 - 2
    assert hit_number(state, "KORVATH", "SARGE", None) == 8   # the attacker cannot know
    _, events = play(state, {"White": "", "Black": "HOLD SARGE"},
                     [("melee/hit", 6), ("melee/hit", 6)])
    assert {"char": "SARGE", "card": "RIOTSHIELD"} in kinds(events, "reveal")


def test_the_chariot_gives_armour_against_shots_only_while_ridden():
    ridden, _ = _damage_number(["CHARIOT!"], "")
    assert ridden == 6                                                 # not ridden
    state = make({"TAMSIN": ("White", "A6", ["SLING"]), "SARGE": ("Black", "D6", ["CHARIOT"])})
    state["chars"]["SARGE"]["mount"] = "CHARIOT"
    state["chars"]["SARGE"]["cards"][0]["revealed"] = True
    _, events = play(state, {"White": "FIRE TAMSIN", "Black": "HOLD SARGE"}, HIT + DAMAGE)
    assert kinds(events, "attack")[0]["wound"]["number"] == 5


# -- packs and the four-card limit ---------------------------------------------------------
FULL = ["SLING", "TONIC", "SPEAR", "HERBS"]


@pytest.mark.parametrize("extra, kept", [
    ([], 4),                                 # four and no more
    (["SATCHEL"], 5),                        # a satchel holds one more, and is shown
])
def test_the_limit_and_packs(extra, kept):
    cards = FULL[:4 - len(extra)] + extra
    state = make({"DEX": ("White", "D8", cards)}, ground={"D7": ["LONGBOW", "CUTLASS"]})
    after, events = play(state, {"White": "MOVE DEX TO D7 PICKUP"}, [])
    held = [e["card"] for e in after["chars"]["DEX"]["cards"]]
    assert len(held) == kept
    if extra:
        assert {"char": "DEX", "card": "SATCHEL"} in kinds(events, "reveal")
    assert ENGINE.invariants(after) == []


def test_a_rucksack_holds_six():
    state = make({"HOLLIS": ("White", "D8", ["RUCKSACK", "SLING", "TONIC", "SPEAR"])},
                 ground={"D7": ["LONGBOW", "CUTLASS", "HERBS"]})
    after, _ = play(state, {"White": "MOVE HOLLIS TO D7 PICKUP"}, [])
    assert len(after["chars"]["HOLLIS"]["cards"]) == 6
    assert after["discard"] == ["HERBS"]


@pytest.mark.parametrize("orders, discarded", [
    ("", ["CUTLASS"]),                                       # the newest
    ("DISCARD DEX TONIC", ["TONIC"]),                        # the player's choice
    ("DISCARD DEX LONGBOW SPEAR", ["SPEAR"]),                # the first one he carries
])
def test_the_player_chooses_what_to_discard(orders, discarded):
    state = make({"DEX": ("White", "D8", ["SLING", "TONIC", "SPEAR"])},
                 ground={"D7": ["GLADIUS", "CUTLASS"]})
    after, events = play(state, {"White": orders + "\nMOVE DEX TO D7 PICKUP"}, [])
    assert after["discard"] == discarded
    assert [e["card"] for e in kinds(events, "card_lost")] == discarded


def test_an_enemy_receiver_discards_by_his_own_teams_order():
    # Tower of Havoc AMAZE: White chooses SEVEN to give his 3 cards to DEX (3 carried):
    # Black's DISCARD order decides which two DEX lets go.
    state = make({"KORVATH": ("White", "G1", []),
                  "SEVEN": ("Black", "A9", ["LONGBOW", "CUTLASS", "TONIC"]),
                  "DEX": ("Black", "J1", ["SLING", "SPEAR", "HERBS"])})
    _, events = play(state, {"White": "HAVOC KORVATH GIVER SEVEN RECEIVER DEX",
                             "Black": "DISCARD DEX SLING HERBS"},
                     [("tower", 1), ("tower", 1), ("dismissed", 1)])
    assert kinds(events, "havoc")[0]["discarded"] == ["SLING", "HERBS"]


# -- destroying cards ---------------------------------------------------------------------
def test_destroy_while_trading():
    state = make({"DEX": ("White", "F5", ["SLING"]), "INES": ("White", "F5", ["SPEAR"])})
    after, events = play(state, {"White": "TRADE DEX WITH INES GIVE SLING DESTROY SPEAR"}, [])
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SLING"]
    assert after["discard"] == ["SPEAR"]
    assert kinds(events, "card_lost")[0]["why"] == "destroyed"


def test_destroy_on_receiving():
    # DEX orders the Tonic lying at D7 destroyed: it goes the moment he picks it up
    state = make({"DEX": ("White", "D8", [])}, ground={"D7": ["LONGBOW", "TONIC!"]})
    after, _ = play(state, {"White": "DESTROY DEX TONIC\nMOVE DEX TO D7 PICKUP"}, [])
    assert [e["card"] for e in after["chars"]["DEX"]["cards"]] == ["LONGBOW"]
    assert after["discard"] == ["TONIC"]


def test_destroy_in_the_free_action_phase():
    state = make({"DEX": ("White", "D8", ["TONIC"])})
    after, _ = play(state, {"White": "DESTROY DEX TONIC"}, [])
    assert after["chars"]["DEX"]["cards"] == [] and after["discard"] == ["TONIC"]


# -- gadgets -----------------------------------------------------------------------------
def test_a_gadget_works_only_after_use_shows_it():
    state = make({"PSION": ("White", "E5", ["COMPASS"])})
    _, events = play(state, {"White": ""}, [("tower", 5), ("tower", 6), ("banished", 1)])
    assert kinds(events, "tower")[0]["number"] == 10          # the Psion's own +1 only
    state = make({"PSION": ("White", "E5", ["COMPASS"])})
    _, events = play(state, {"White": "USE PSION"}, [("tower", 5), ("tower", 6),
                                                     ("banished", 1)])
    assert kinds(events, "tower")[0]["number"] == 11


# -- the designed deck ---------------------------------------------------------------------
RULEBOOK_CARDS = {
    # the cards the rulebook shows, with the figures it gives
    "TOMAHAWK": {"title": "Obsidian Tomahawk", "kind": "melee", "age": "colonial",
                 "uses": "K"},
    "ACCELERATOR": {"title": "Accelerator Tube", "kind": "ranged", "age": "future",
                    "group": "misc", "range": 6, "opfire": 2, "damage": 2, "uses": "P",
                    "skill": "point", "penetration": "red"},
    "CHARIOT": {"title": "Sumerian Chariot", "kind": "mount", "age": "ancient", "uses": "P",
                "speed": 7, "no_building": True, "ranged_armor": 1},
    "CLAYMORE": {"title": "Claymore", "kind": "melee", "damage": 4, "uses": "K"},
    "STILETTO": {"title": "Stiletto", "kind": "melee", "damage": 1},
    "LEATHER": {"title": "Leather Armor", "kind": "armor", "slot": "body"},
    "KEVLAR": {"title": "Kevlar Vest", "kind": "armor", "slot": "body"},
    "CRICKETS": {"title": "Crickets", "kind": "mount"},
}


def test_the_deck_has_52_cards_of_every_category():
    deck = catalog.equipment()
    assert len(deck) == 52
    kinds_ = Counter(c["kind"] for c in deck.values())
    assert set(kinds_) == {"ranged", "melee", "armor", "mount", "stealth", "medical", "pack",
                           "gadget"}
    assert {c["slot"] for c in deck.values() if c["kind"] == "armor"} == {"body", "head",
                                                                          "shield"}
    groups = {c["group"] for c in deck.values() if c["kind"] == "ranged"}
    assert {"bow", "pistol", "rifle", "grenade", "automatic", "thrown"} <= groups
    assert {c["age"] for c in deck.values()} == set(catalog.AGES)
    assert any(c.get("add") for c in deck.values() if c["kind"] == "mount")
    assert any(c.get("speed") for c in deck.values() if c["kind"] == "mount")
    for key, figures in RULEBOOK_CARDS.items():
        assert {k: deck[key].get(k) for k in figures} == figures, key


def test_every_rating_is_in_the_rulebooks_schemes():
    chars = catalog.characters()
    assert len(chars) == 28
    assert Counter(c["age"] for c in chars.values()) == {a: 7 for a in catalog.AGES}
    for key, c in chars.items():
        for rating in catalog.RATINGS:
            assert c[rating] in catalog.COLOURS, (key, rating)
        assert c["honor"] in ("honorable", "decent", "dishonorable")
        assert c["respect"] in ("respected", "common", "disrespected")
        assert 3 <= c["speed"] <= 8 and 3 <= c["health"] <= 8 and 1 <= c["damage"] <= 4
    for card in catalog.equipment().values():
        for rating in ("penetration", "armor", "stealth", "strength", "wits"):
            if rating in card:
                assert card[rating] in catalog.COLOURS
        assert card["uses"] in ("P", "K", "1")


def test_forty_guardians_ten_per_age_with_the_sphinx():
    guardians = catalog.guardians()
    assert len(guardians) == 40
    assert Counter(g["age"] for g in guardians.values()) == {a: 10 for a in catalog.AGES}
    sphinx = guardians["SPHINX"]
    assert (sphinx["age"], sphinx["rating"], sphinx["against"]) == ("ancient", "wits", "green")
    assert sphinx["PASS"] == ["defeated", "draw 1", "dismissed"]
    effects = {e.split()[0] for g in guardians.values() for lv in ("AMAZE", "PASS", "SQUEAK",
                                                                     "FAIL", "FOPP")
               for e in g[lv]}
    assert effects == {"defeated", "draw", "lose", "heal", "dismissed", "banished"}


def test_destroying_the_pack_brings_the_limit_back():
    # HOLLIS carries six thanks to the Rucksack; without it four is the limit again
    state = make({"HOLLIS": ("White", "D8", ["RUCKSACK!", "SLING", "TONIC", "SPEAR", "HERBS",
                                             "CUTLASS"])})
    after, events = play(state, {"White": "DISCARD HOLLIS TONIC\nDESTROY HOLLIS RUCKSACK"},
                         [])
    assert [e["card"] for e in after["chars"]["HOLLIS"]["cards"]] == [
        "SLING", "SPEAR", "HERBS", "CUTLASS"]
    assert [(e["card"], e["why"]) for e in kinds(events, "card_lost")] == [
        ("RUCKSACK", "destroyed"), ("TONIC", "over the limit")]
