"""The rulebook read rule by rule: the worked examples by name, and every rule the other
files leave unplayed. README.md in this folder maps each rule to its test."""

from __future__ import annotations

import pytest

from games.core.canonical import state_hash
from games.core.engine import REVISION
from games.core.types import OrdersInvalid
from games.duelists import cards
from games.duelists.engine import ENGINE

from .helpers import duel, kinds, names, play, queue_names, seat


def up(name, **kw):
    return {"name": name, "up": True, **kw}


NATHRAX_HAND = ["Armor", "Armor", "Harpoon Lunge", "Patient Stance", "Spear Charge",
                "Disarming Strike", "Tripping Attack"]
NATHRAX_DECK = ["Spear Thrust", "Fur Guard", "Haft Strike", "Armor", "Spear Thrust",
                "Patient Stance", "Armor", "Haft Strike"]
ISDRA_HAND = ["Lunge", "Lunge", "Quick Stab", "Crossed Blades", "Follow Up Attack", "Armor",
              "Armor"]
ISDRA_DECK = ["Quick Stab", "Slashing Arc", "Armor", "Armor", "Slashing Arc", "Armor"]
HARYS_HAND = ["Armor", "Armor", "Palm Strike", "Palm Strike", "Spirit Kick", "Spirit Kick",
              "Crescent Kick"]
HARYS_DECK = ["Palm Strike", "Crescent Kick", "Armor", "Armor", "Armor", "Calm Mind", "Spirit Twin",
              "Blinding Light"]
FUR_LEFT = [up("Fur Guard"), "Spear Thrust", "Haft Strike"]  # Fur Guard: Slash 3 Stab 2 Blunt 3


def isdra(queue, **kw):
    return seat("isdra", hand=kw.pop("hand", ISDRA_HAND), deck=kw.pop("deck", ISDRA_DECK),
                queue=queue, **kw)


def nathrax(queue, **kw):
    return seat("nathrax", hand=kw.pop("hand", NATHRAX_HAND),
                deck=kw.pop("deck", NATHRAX_DECK), queue=queue, **kw)


def harys(queue, **kw):
    return seat("harys", hand=kw.pop("hand", HARYS_HAND), deck=kw.pop("deck", HARYS_DECK),
                queue=queue, **kw)


# -- Components and card types -----------------------------------------------------------
@pytest.mark.parametrize("champion", cards.CHAMPION_ORDER)
def test_each_champion_has_twenty_maneuvers_and_ten_armor(champion):
    deck = cards.champions()[champion].cards
    assert len(deck) == 30
    assert sum(c.armor for c in deck) == 10 and sum(not c.armor for c in deck) == 20


@pytest.mark.parametrize("champion", cards.CHAMPION_ORDER)
def test_every_maneuver_defends_zero_to_four_against_each_attack_type(champion):
    for card in cards.champions()[champion].cards:
        if not card.armor:
            assert set(card.defence) == {"slash", "stab", "blunt"}
            assert all(0 <= v <= 4 for v in card.defence.values()), card.name


@pytest.mark.parametrize("champion", cards.CHAMPION_ORDER)
def test_an_attack_formula_is_a_range_on_the_die_a_modifier_and_one_type(champion):
    for card in cards.champions()[champion].cards:
        for attack in card.attacks:
            assert 1 <= attack.lo <= attack.hi <= cards.DIE_SIDES
            assert attack.mod >= 0 and attack.kind in ("slash", "stab", "blunt")


def test_most_maneuvers_attack_and_two_attack_cards_are_rare():
    maneuvers = [c for champ in cards.champions().values() for c in champ.cards
                 if not c.armor]
    attacking = [c for c in maneuvers if c.attacks]
    double = [c for c in maneuvers if len(c.attacks) == 2]
    assert len(maneuvers) / 2 < len(attacking) < len(maneuvers)  # most, but not all
    assert 0 < len(double) <= len(maneuvers) // 10  # rare
    assert all(len(c.attacks) <= 2 for c in maneuvers)


@pytest.mark.parametrize("champion, specials", [
    ("isdra", {"follow_up", "feint", "power_up"}),
    ("nathrax", {"spear_charge", "disarming", "tripping"}),
    ("harys", {"second_sight", "blinding_light", "spiritual_guardian", "spirit_twin"}),
])
def test_the_special_cards_belong_to_their_champions(champion, specials):
    deck = cards.champions()[champion].cards
    assert {c.special for c in deck if c.special} == specials
    if champion == "nathrax":  # no means of lowering the defences: nothing takes guesses
        assert not specials & {"follow_up", "feint", "blinding_light"}
    if champion == "harys":  # "both Spiritual Guardian cards"; Magical Barrage attacks twice
        assert sum(c.special == "spiritual_guardian" for c in deck) == 2
        assert {len(c.attacks) for c in deck if c.name == "Magical Barrage"} == {2}
    if champion == "isdra":  # daggers rarely do anything but stab
        kinds_ = [a.kind for c in deck for a in c.attacks]
        assert kinds_.count("stab") > len(kinds_) / 2 and "blunt" not in kinds_


# -- Attacking: the worked examples --------------------------------------------------------
def test_example_formula_1_3_plus_2_sets_the_die_from_1_to_3():
    """The rulebook's example formula (1-3)+2 is Flurry's first attack: the die may be set
    to 1, 2 or 3, and a hit deals the die plus 2."""
    state = duel(isdra([up("Crossed Blades"), "Flurry", "Feint"]),
                 nathrax(FUR_LEFT, deck=NATHRAX_DECK + ["Armor"] * 4))
    assert [(a["lo"], a["hi"], a["mod"]) for a in state["turn"]["attacks"]] == [
        (1, 3, 2), (1, 3, 3)]
    for die in (1, 2, 3):
        ENGINE.parse_orders(state, "P1", f"PLAN Lunge\nSET {die}\nSET 1")
    for die, message in ((4, "outside this attack's range 1-3"), (0, "")):
        with pytest.raises(OrdersInvalid) as exc:
            ENGINE.parse_orders(state, "P1", f"PLAN Lunge\nSET {die}\nSET 1")
        assert message in exc.value.errors[0].message
    after, events = play(state, {"P1": "PLAN Lunge\nSET 3\nSET 3",
                                 "P2": "DEFEND LEFT GUESS 1 2\nDEFEND LEFT GUESS 1 2\n"
                                       "STANDING ABSORB FROM DECK"})
    assert [s["damage"] for s in kinds(events, "strike")] == [3 + 2, 3 + 3]


def test_example_six_damage_two_from_hand_then_four_off_the_deck():
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"]), nathrax(FUR_LEFT))
    # Quick Stab (1-4)+3, die set to 3: six damage
    after, events = play(state, {"P1": "PLAN Lunge\nSET 3",
                                 "P2": "DEFEND LEFT GUESS 1 2\nABSORB HAND Armor, Armor"})
    (strike,) = kinds(events, "strike")
    assert strike["damage"] == 6
    (absorbed,) = kinds(events, "absorbed")
    assert absorbed["hand"] == ["Armor", "Armor"]
    assert absorbed["deck"] == NATHRAX_DECK[:4]
    p2 = after["players"]["P2"]
    assert names(p2["exhausted"])[-6:] == ["Armor", "Armor"] + NATHRAX_DECK[:4]
    # exhausted cards are public knowledge: the attacker and the public see them all
    for viewer in ("P1", None):
        assert ENGINE.view(after, viewer)["players"]["P2"]["exhausted"][-6:] == \
            names(p2["exhausted"])[-6:]


# -- Victory ---------------------------------------------------------------------------------
def test_revealing_armor_to_defend_with_nothing_left_to_draw_loses_in_the_foes_turn():
    """A reveal of armor is an instruction to draw: with deck and discard pile empty the
    defender surrenders during the attacker's turn."""
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"]),
                 nathrax([up("Fur Guard"), "Armor", "Haft Strike"], deck=[]))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 1",
                                 "P2": "DEFEND SECOND GUESS 1\nABSORB FROM DECK"})
    assert after["stage"] == "over" and after["winner"] == "P1"
    assert kinds(events, "surrender")[0]["loser"] == "P2"
    assert not kinds(events, "strike")
    assert ENGINE.decision(after) is None


def test_a_trip_on_an_empty_deck_brings_the_tripped_card_back():
    """"Once your draw pile is empty at any point": the tripped card is discarded first,
    so the discard pile becomes the deck and the replacement is that card again."""
    state = duel(nathrax([up("Fur Guard"), "Tripping Attack", "Haft Strike"]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"], deck=[]))
    after, events = play(state, {"P1": "PLAN Harpoon Lunge\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 4\n"
                                       "ABSORB HAND Lunge, Lunge, Quick Stab, Crossed Blades"},
                         [("deck/P2/reshuffle", [0]), ("deck/P2/reshuffle", [0])])
    absorbed = kinds(events, "absorbed")[0]
    assert absorbed["hand"] == ["Lunge", "Lunge", "Quick Stab", "Crossed Blades"]
    private = [e.data for e in events if e.kind == "tripped_cards"]
    assert private == [{"seat": "P2", "old": "Feint", "new": "Feint"}]
    # the trip did not end the duel: P2's own refill, a turn later, finds too few cards
    assert kinds(events, "surrender") == [{"loser": "P2", "winner": "P1", "why": "refill"}]
    seen = [e.kind for e in events]
    assert seen.index("tripped") < seen.index("turn_over") < seen.index("surrender")


# -- Turn order and defending --------------------------------------------------------------
def test_the_non_starters_face_down_left_most_card_is_revealed_to_defend():
    """On the opening turn the defender's left-most card has never led, so it is still
    face down; defending with it turns it up (README, "Rulings")."""
    state = duel(isdra([up("Quick Stab"), "Feint", "Lunge"]),
                 nathrax(["Fur Guard", "Spear Thrust", "Haft Strike"]), first=True)
    assert not state["players"]["P2"]["queue"][0]["up"]
    after, events = play(state, {"P1": "SET 2",
                                 "P2": "DEFEND LEFT GUESS 1 2\nABSORB FROM DECK"})
    assert {"seat": "P2", "pos": 0, "card": "Fur Guard", "why": "defence"} in kinds(
        events, "revealed")
    assert kinds(events, "strike")[0]["blocked"]


def test_a_card_holding_the_token_may_defend_again_in_the_same_turn():
    state = duel(isdra([up("Crossed Blades"), "Flurry", "Feint"]),
                 nathrax(FUR_LEFT, deck=NATHRAX_DECK + ["Armor"] * 4))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 1\nSET 3",
                                 "P2": "DEFEND SECOND GUESS 1\nDEFEND SECOND GUESS 1\n"
                                       "STANDING ABSORB FROM DECK"})
    assert [d["card"] for d in kinds(events, "defence")] == ["Spear Thrust", "Spear Thrust"]
    assert [s["blocked"] for s in kinds(events, "strike")] == [True, False]


def test_a_left_most_card_that_began_the_turn_with_the_token_stays_barred():
    """The token marks a card that may not defend in later turns: moving it to the second
    card does not free the left-most card for a double attack's second defence, whether
    the order was given for this turn or stands."""
    def fresh():
        return duel(isdra([up("Crossed Blades"), "Flurry", "Feint"]),
                    nathrax([up("Fur Guard", defended=True), "Spear Thrust", "Haft Strike"],
                            deck=NATHRAX_DECK + ["Armor"] * 4))
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(fresh(), "P2", "DEFEND SECOND GUESS 1\nDEFEND LEFT GUESS 1")
    assert "Defended!" in exc.value.errors[0].message
    after, events = play(fresh(), {"P1": "PLAN Lunge\nSET 1\nSET 1",
                                   "P2": "STANDING DEFEND LEFT GUESS 2\n"
                                         "STANDING ABSORB FROM DECK"})
    assert [(d["pos"], d["forced"]) for d in kinds(events, "defence")] == [
        ("SECOND", True), ("SECOND", True)]
    # asked mid-turn for the second defence, the prompt no longer offers the left card
    mid, _ = play(fresh(), {"P1": "PLAN Lunge\nSET 1\nSET 1",
                            "P2": "DEFEND SECOND GUESS 2\nSTANDING ABSORB FROM DECK"})
    assert mid["awaiting"] == {"P2": "defend"}
    choices = ENGINE.decision(mid).prompts["P2"]["choices"]
    assert not any(c.startswith("DEFEND LEFT") for c in choices)
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(mid, "P2", "DEFEND LEFT GUESS 1")


def test_a_game_of_rules_revision_1_freed_the_left_card_once_the_token_moved():
    """Games recorded before rules revision 2 replay as they were played: a standing
    DEFEND LEFT defended with the left-most card on a double attack's second hit."""
    state = duel(isdra([up("Crossed Blades"), "Flurry", "Feint"]),
                 nathrax([up("Fur Guard", defended=True), "Spear Thrust", "Haft Strike"],
                         deck=NATHRAX_DECK + ["Armor"] * 4), revision=1)
    after, events = play(state, {"P1": "PLAN Lunge\nSET 1\nSET 1",
                                 "P2": "STANDING DEFEND LEFT GUESS 2\n"
                                       "STANDING ABSORB FROM DECK"})
    assert [(d["pos"], d["forced"]) for d in kinds(events, "defence")] == [
        ("SECOND", True), ("LEFT", False)]
    assert REVISION not in after and "left_barred" not in str(after)
    # the very state the engine of commit d27a23c^ reached from this turn
    assert state_hash(after) == \
        "abe7b09dd7e47042f8c57e9aacee6ade496461dbf4f2749fb4831de730fe8619"


def test_a_blocked_attack_deals_nothing_and_keeps_the_disarmed_token():
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"], tokens={"disarmed": 1}),
                 nathrax(FUR_LEFT))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["blocked"] and not kinds(events, "absorbed")
    assert after["players"]["P1"]["tokens"]["disarmed"] == 1


def test_armor_revealed_on_an_empty_deck_is_replaced_from_the_reshuffled_discard_pile():
    """Planning: revealed Armor is replaced from the deck, and an empty deck is first
    rebuilt from the shuffled discard pile, which by then holds the card discarded in
    preparation. Slashing Arc (shuffled to the top) becomes the face-up lead."""
    p1 = isdra([up("Crossed Blades"), "Armor", "Feint"], deck=[], discard=["Slashing Arc"])
    armor = p1["queue"][1]["card"]
    # sorted discard: Slashing Arc, Crossed Blades; the permutation keeps that order
    state = duel(p1, nathrax(FUR_LEFT), script=[("deck/P1/reshuffle", [0, 1])])
    me = state["players"]["P1"]
    assert queue_names(state, "P1") == ["Slashing Arc", "Feint"] and me["queue"][0]["up"]
    assert names(me["deck"]) == ["Crossed Blades"] and me["discard"] == []
    assert me["exhausted"][-1] == armor and len(me["hand"]) == 7
    assert [a["lo"] for a in state["turn"]["attacks"]] == [1]


# -- Special cards ----------------------------------------------------------------------------
@pytest.mark.parametrize("special, discarded, defender_left, guesses", [
    ("Follow Up Attack", "Quick Stab", "Palm Strike", 0),      # Stab 1, -1: none left
    ("Follow Up Attack", "Quick Stab", "Magical Barrage", 0),  # Stab 0: nothing to take
    ("Feint", "Crossed Blades", "Spirit Kick", 0),             # Slash 1, -1
    ("Feint", "Crossed Blades", "Magical Barrage", 0),         # Slash 0
])
def test_follow_up_and_feint_never_take_the_guesses_below_zero(special, discarded,
                                                               defender_left, guesses):
    state = duel(isdra([up(discarded), special, "Power Up Daggers"]),
                 harys([up(defender_left), "Calm Mind", "Second Sight"]))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 2",
                                 "P2": "DEFEND LEFT GUESS 2 3\nABSORB HAND Armor, Armor"})
    defence = kinds(events, "defence")[0]
    assert defence["allowed"] == guesses
    strike = kinds(events, "strike")[0]
    assert strike["guesses"] == [] and not strike["blocked"]


def test_spear_charge_damage_equal_to_deck_and_discard_does_not_win():
    """Only damage that *exceeds* the deck and discard pile wins; six damage against six
    cards empties them and the duel goes on."""
    state = duel(nathrax([up("Fur Guard"), "Spear Charge", "Haft Strike"]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"],
                       deck=["Quick Stab", "Slashing Arc", "Armor", "Armor"],
                       discard=["Slashing Arc", "Armor"]))
    # Spear Charge (1-3)+5 set to 1: six damage
    after, events = play(state, {"P1": "PLAN Harpoon Lunge\nSET 1",
                                 "P2": "DEFEND SECOND GUESS 3\nABSORB HAND Armor"},
                         [("deck/P2/reshuffle", [0, 1])])
    absorbed = kinds(events, "absorbed")[0]
    assert absorbed["hand"] == [] and len(absorbed["deck"]) == 6
    assert not kinds(events, "surrender") and after["stage"] == "turn"
    assert after["turn"]["attacker"] == "P2"


def test_a_spiritual_guardian_turned_up_to_defend_protects_at_once():
    state = duel(isdra([up("Crossed Blades"), "Power Up Daggers", "Feint"]),
                 harys([up("Calm Mind"), "Spiritual Guardian", "Spirit Kick"]))
    # Power Up Daggers (1-4)+2 set to 2: 4, less 2 for the Guardian now face up
    after, events = play(state, {"P1": "PLAN Lunge\nSET 2",
                                 "P2": "DEFEND SECOND GUESS 4\nABSORB FROM DECK"})
    strike = kinds(events, "strike")[0]
    assert strike["guesses"] == [4, 1] and not strike["blocked"]
    assert strike["damage"] == 2 and ["Spiritual Guardian", -2] in strike["parts"]


def test_second_sight_acts_on_the_attack_it_blocks():
    """Each attack is guessed on its own: blocking the first of two attacks with Second
    Sight turns the attacker's queue face up before the second attack."""
    state = duel(isdra([up("Crossed Blades"), "Flurry", "Feint"]),
                 harys([up("Calm Mind"), "Second Sight", "Palm Strike"]))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 1\nSET 3",
                                 "P2": "DEFEND SECOND GUESS 1\nDEFEND SECOND GUESS 1\n"
                                       "STANDING ABSORB HAND Armor, Armor"})
    order = [e.kind for e in events if e.kind in ("strike", "flipped")]
    assert order == ["strike", "flipped", "strike"]
    assert kinds(events, "flipped") == [{"seat": "P1", "count": 2}]
    assert queue_names(after, "P1") == ["Flurry", "Feint", "Lunge"]
    assert [s["blocked"] for s in kinds(events, "strike")] == [True, False]
