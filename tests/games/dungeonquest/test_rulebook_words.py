"""The rulebook's own words are orders (issue 12).

The lists below are copied by hand from shared/rules/dungeonquest.txt (the names it
prints for the hero's reactions, monsters, cards, rooms and rings), not generated from the
engine, so a word the engine forgets fails here. Each must parse in any case and with
the rulebook's punctuation, and read back to the same canonical order.
"""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.dungeonquest.content import RING_KEYS
from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack, stack_tiles

# "the character must either Attack, Wait & See OR Escape"; the spider: "fight or flee",
# "fire arrows"; rooms: "retreat", "search"; crypt / dead adventurer / potion.
REACTIONS = {"Attack": "ATTACK", "Wait & See": "WAIT", "Escape": "ESCAPE"}
ORDER_PHRASES = {"fight": "FIGHT", "flee": "FLEE", "fire arrows": "SHOOT",
                 "retreat": "RETREAT", "search": "SEARCH",
                 "search the crypt": "SEARCH CRYPT", "draw a corpse card": "SEARCH BODY",
                 "drink the potion": "DRINK POTION", "pick up the potion": "PICK UP POTION",
                 "discard the potion": "DISCARD POTION"}
MONSTERS = ["Goblin", "Orc", "Mountain troll", "Champion of Chaos", "Death Warrior",
            "skeleton"]
ROOM_CARDS = ["Bracelet", "Jewellery", "Cave-in", "Crossfire Trap", "Crypt",
              "Curse of the Wizard", "Dead Adventurer", "Empty", "Giant Spider", "Monster",
              "Potion", "Sneak Attack", "Trapdoor", "Vampire Bats", "Your Torch Goes Out"]
CORPSE_CARDS = ["Golden Guineas", "Necklace", "Nothing", "Potion", "Rope", "Scorpion"]
CRYPT_CARDS = ["Guineas", "Jewelled Dagger", "Bracelet", "Brooch", "Empty", "Potion",
               "Skeleton", "Trap"]
SEARCH_CARDS = ["Golden Guineas", "Jewellery", "Ring", "Empty", "Giant Centipede", "Potion",
                "Trap", "Secret Door"]
TRAP_CARDS = ["Cave-In", "Crossfire Trap", "Trapdoor", "Explosion", "Poisonous Gas",
              "Poisonous Snakes"]
DOOR_CARDS = ["Door Jammed", "Door Opens", "Trap"]
TILES = ["Normal Rooms", "Bottomless Pit", "Cave-In", "Chamber of Darkness", "Chasm",
         "Corridors", "Portcullis", "Rotating Room", "Trap"]
PLACES = {"Tower Room": "LEAVE", "Treasure Chamber": "MOVE TO E7"}
RING_NAMES = ["Ring of Blinding", "Ring of Healing", "Ring of Opening", "Ring of Warning",
              "Ring of Vision", "Ring of Transformation", "Ring of Luck"]
CARDS = sorted(set(ROOM_CARDS + CORPSE_CARDS + CRYPT_CARDS + SEARCH_CARDS + TRAP_CARDS
                   + DOOR_CARDS))


def spellings(phrase: str) -> list[str]:
    """The phrase as printed, shouted, whispered and punctuated."""
    return [phrase, phrase.upper(), phrase.lower(), f"{phrase}.",
            phrase.replace("&", "and"), phrase.replace(" ", "-")]


def parse(text: str, hero: str = "ranger") -> str:
    st = make_state(1, hero)
    st["chars"]["P1"]["rings"] = list(RING_KEYS)
    orders = ENGINE.parse_orders(st, "P1", text)
    again = ENGINE.parse_orders(st, "P1", orders.text)  # the canonical text reads back
    assert again.items == orders.items
    return orders.text


@pytest.mark.parametrize("phrase, canonical", [*REACTIONS.items(), *ORDER_PHRASES.items()])
def test_the_rulebooks_orders_and_reactions_are_orders(phrase, canonical):
    for text in spellings(phrase):
        assert parse(text) == canonical, text


@pytest.mark.parametrize("name", MONSTERS)
def test_every_monster_the_rulebook_names_is_a_condition(name):
    for text in spellings(name):
        by_kind = parse(f"IF MONSTER {text} THEN WAIT & SEE")
        alone = parse(f"if {text} then Wait & See")
        assert by_kind == alone and by_kind.startswith("IF MONSTER ") and \
            by_kind.endswith(" THEN WAIT"), text


@pytest.mark.parametrize("name", CARDS)
def test_every_card_the_rulebook_names_is_a_condition(name):
    for text in spellings(name):
        assert parse(f"IF {text} THEN DRINK POTION").startswith("IF "), text


@pytest.mark.parametrize("name", TILES)
def test_every_room_the_rulebook_names_is_a_tile_condition(name):
    for text in spellings(name):
        assert parse(f"IF TILE {text} THEN USE RING OF TRANSFORMATION").startswith(
            "IF TILE "), text


@pytest.mark.parametrize("place, canonical", PLACES.items())
def test_the_tower_room_and_the_treasure_chamber_are_places_to_go(place, canonical):
    for text in spellings(place):
        assert parse(f"move to the {text}") == canonical


@pytest.mark.parametrize("name", RING_NAMES)
def test_every_ring_the_rulebook_names_can_be_used(name):
    for text in spellings(name):
        canonical = parse(f"use the {text}")
        assert canonical == f"USE {name.upper()}"
        assert parse(text) == canonical


def test_the_lists_cover_every_card_monster_and_ring_of_the_rulebook():
    """A guard on the lists themselves: the counts the rulebook prints."""
    assert len(REACTIONS) == 3 and len(RING_NAMES) == 7
    assert len(MONSTERS) - 1 == 5  # "There are 5 types of monsters" (+ the skeleton)
    assert len(ROOM_CARDS) == 15 and len(TRAP_CARDS) == 6 and len(DOOR_CARDS) == 3


# -- the words mean what the rulebook means -------------------------------------------

def into_room(card: str, hero: str = "knight"):
    st = make_state(1, hero)
    stack_tiles(st, "room-cross")
    stack(st, "room", card)
    return st


def test_wait_and_see_is_the_wait_row_of_the_reaction_table():
    st = into_room("monster:goblin")
    new, events = run(st, {"P1": "Move east\nWait & See"}, [("reaction/P1", 5)])
    assert next(e for e in events if "reaction" in e.data).data["reaction"] == "flee"
    assert "Wait against the Goblin" in lines(events)


@pytest.mark.parametrize("card, escapes", [("monster:troll", True), ("monster:orc", False)])
def test_if_mountain_troll_then_escape(card, escapes):
    st = into_room(card)
    # the troll: 6-1 = 5 on ESCAPE, away; the orc: 6 on ATTACK, it flees
    new, events = run(st, {"P1": "MOVE EAST\nIf a Mountain troll then Escape, else Attack."},
                      [("reaction/P1", 6)])
    assert ("Escape against" in lines(events)) == escapes
    assert ("Attack against" in lines(events)) == (not escapes)


@pytest.mark.parametrize("life, answer", [(16, "Attack"), (9, "Escape")])
def test_and_joins_an_event_and_a_comparison(life, answer):
    st = into_room("monster:champion")
    st["chars"]["P1"]["life"] = life
    # reaction 6, less the champion's menace 2: 4, combat on ATTACK, a slash on ESCAPE
    script = [("reaction/P1", 6)] + ([("combat/P1", 10)] * 4 if answer == "Attack" else [])
    new, events = run(st, {"P1": "MOVE EAST\nIF Champion of Chaos AND LIFE < 10 THEN ESCAPE "
                                 "ELSE ATTACK"}, script)
    assert f"{answer} against the Champion of Chaos" in lines(events)


def test_and_of_comparisons_sets_a_destination_only_when_both_hold():
    st = into_room("empty")
    st["turn"] = 20
    text = "IF TURN > 18 AND TREASURE < 50 THEN DESTINATION A13\nMOVE EAST"
    new, _ = run(st, {"P1": text}, [])
    assert new["chars"]["P1"]["destination"] == "A13"
    st["chars"]["P1"]["treasure"] = [{"name": "a brooch", "value": 60}]
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": text}, [])
    assert new["chars"]["P1"]["destination"] is None


def test_a_card_condition_answers_what_that_card_brings():
    st = into_room("bats")
    st["chars"]["P1"]["potion"] = True
    new, events = run(st, {"P1": "MOVE EAST\nIF Vampire Bats THEN drink the potion"},
                      [("harm/bats/P1", 4), ("potion/P1", 3)])  # stale water
    assert "Drinks the potion" in lines(events) and new["chars"]["P1"]["potion"] is False
    st = into_room("corpse")  # another card: the condition does not hold
    stack(st, "corpse", "scorpion")
    st["chars"]["P1"]["potion"] = True
    new, events = run(st, {"P1": "MOVE EAST\nSEARCH BODY\nIF VAMPIRE BATS THEN DRINK POTION"},
                      [("harm/scorpion/P1", 4)])
    assert "Drinks the potion" not in lines(events) and new["chars"]["P1"]["potion"] is True


def test_if_door_jammed_then_the_ring_of_opening_opens_it():
    st = make_state(1, "barbarian")  # carries the Ring of Opening
    place(st, "A2", "room-door-ahead", "S")  # the door is on the south side
    put(st, "P1", "A2", "N", "A1")
    stack_tiles(st, "room-cross")
    stack(st, "door", "jammed")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "MOVE SOUTH\nIF Door Jammed THEN use the Ring of Opening"}, [])
    assert new["chars"]["P1"]["pos"] == "A3" and new["chars"]["P1"]["rings"] == []
    assert "the jammed door swings open" in lines(events)


@pytest.mark.parametrize("order, carried, taken", [
    ("IF POTION THEN DISCARD POTION", False, False),  # "pick this up or discard this"
    ("IF POTION THEN PICK UP POTION", False, True),
    ("IF POTION THEN PICK UP POTION", True, True),
    ("", False, True),
])
def test_a_found_potion_may_be_picked_up_or_discarded(order, carried, taken):
    st = into_room("potion")
    st["chars"]["P1"]["potion"] = carried
    new, _ = run(st, {"P1": f"MOVE EAST\n{order}"}, [])
    assert new["chars"]["P1"]["potion"] is (taken or carried)


def test_a_bad_comparison_hints_with_this_games_words():
    st = make_state()
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(st, "P1", "IF LIFE < 5 OR MONSTER THEN ESCAPE")
    hint = err.value.errors[0].hint
    assert "LIFE" in hint and "ATTACK" not in hint
