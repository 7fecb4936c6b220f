"""The Ring of Luck: "You may replace the result of 1 die roll" (issue 12).

The ring is spent on the first bad roll of the kind an order names (USE RING OF LUCK ON
<roll>; plain: any roll; IF FAIL: a failed check), and the die is rolled again.
Volrik the adventurer carries it (Agility 7, quick wits +1 on reactions).
"""

from __future__ import annotations

import pytest

from games.core.types import OrdersInvalid
from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack, stack_tiles


def adventurer():
    return make_state(1, "adventurer")


def in_a_pit():
    st = adventurer()
    place(st, "B1", "room-cross", "E")
    place(st, "B2", "pit-cross", "S")
    put(st, "P1", "B2", "N", "B1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    return st


@pytest.mark.parametrize("order, script, alive, ring_left", [
    ("IF FAIL THEN USE RING OF LUCK", [("pit/P1", 9), ("pit/luck/P1", 3)], True, False),
    ("USE RING OF LUCK ON CHECK", [("pit/P1", 9), ("pit/luck/P1", 3)], True, False),
    ("USE RING OF LUCK", [("pit/P1", 9), ("pit/luck/P1", 3)], True, False),
    ("USE RING OF LUCK", [("pit/P1", 9), ("pit/luck/P1", 8)], False, False),  # new roll stands
    ("USE RING OF LUCK ON COMBAT", [("pit/P1", 9)], False, True),  # another roll named
    ("", [("pit/P1", 9)], False, True),                                # no order: unused
    ("USE RING OF LUCK", [("pit/P1", 2)], True, True),                 # a good roll: kept
])
def test_the_ring_replaces_a_failed_leap_over_the_pit(order, script, alive, ring_left):
    new, events = run(in_a_pit(), {"P1": f"MOVE SOUTH\n{order}"}, script)
    ch = new["chars"]["P1"]
    assert (ch["status"] == "in") is alive
    assert ("luck" in ch["rings"]) is ring_left
    if not ring_left:
        assert "Uses the Ring of Luck to replace the leaping across the bottomless pit roll " \
               "of 9" in lines(events)


def into_room(card: str):
    st = adventurer()
    stack_tiles(st, "room-cross")
    stack(st, "room", card)
    return st


def test_on_reaction_replaces_a_reaction_that_brings_a_fight():
    # ATTACK: 2+1 = 3, combat; replaced by 5+1 = 6, the orc flees
    new, events = run(into_room("monster:orc"),
                      {"P1": "MOVE EAST\nATTACK\nUSE RING OF LUCK ON REACTION"},
                      [("reaction/P1", 2), ("reaction/luck/P1", 5)])
    assert new["chars"]["P1"]["life"] == 16 and new["chars"]["P1"]["rings"] == []
    assert "it runs away" in lines(events)


def test_on_combat_replaces_the_first_combat_roll_that_costs_a_life_point():
    # 3+1 = 4: combat. d10 2 (hero -1) replaced by 10 (orc -2), then 10: the orc is slain
    new, events = run(into_room("monster:orc"),
                      {"P1": "MOVE EAST\nATTACK\nUSE RING OF LUCK ON COMBAT"},
                      [("reaction/P1", 3), ("combat/P1", 2), ("combat/luck/P1", 10),
                       ("combat/P1", 10)])
    assert new["chars"]["P1"]["life"] == 16 and new["chars"]["P1"]["rings"] == []
    assert "slays an Orc" in lines(events)


@pytest.mark.parametrize("life, order, script, after", [
    (16, "USE RING OF LUCK ON DAMAGE", [("harm/bats/P1", 5), ("harm/bats/luck/P1", 1)], 15),
    (16, "IF LIFE < 10 THEN USE RING OF LUCK ON DAMAGE", [("harm/bats/P1", 5)], 11),
    (9, "IF LIFE < 10 THEN USE RING OF LUCK ON DAMAGE",
     [("harm/bats/P1", 5), ("harm/bats/luck/P1", 2)], 7),
    (16, "IF VAMPIRE BATS THEN USE RING OF LUCK ON DAMAGE",
     [("harm/bats/P1", 6), ("harm/bats/luck/P1", 1)], 15),
    (16, "USE RING OF LUCK ON DAMAGE", [("harm/bats/P1", 3)], 13),  # not above half: kept
])
def test_on_damage_replaces_a_high_damage_roll(life, order, script, after):
    st = into_room("bats")
    st["chars"]["P1"]["life"] = life
    new, _ = run(st, {"P1": f"MOVE EAST\n{order}"}, script)
    assert new["chars"]["P1"]["life"] == after


def test_on_potion_replaces_a_potion_that_does_not_heal():
    st = adventurer()
    st["chars"]["P1"].update(potion=True, life=10)
    new, events = run(st, {"P1": "DRINK POTION\nUSE RING OF LUCK ON POTION\nSTAY"},
                      [("potion/P1", 1), ("potion/luck/P1", 12)])  # poison -> elixir
    assert new["chars"]["P1"]["life"] == 16 and "an elixir of life" in lines(events)


def test_on_darkness_replaces_a_roll_back_the_way_in():
    st = adventurer()
    place(st, "A2", "darkness-two", "S")
    put(st, "P1", "A2", "N", "A1")
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "USE RING OF LUCK ON DARKNESS"},
                 [("darkness/P1", 2), ("darkness/luck/P1", 5)])
    assert new["chars"]["P1"]["pos"] == "A3"


def test_on_spider_replaces_a_lost_round():
    new, events = run(into_room("spider"),
                      {"P1": "MOVE EAST\nIF GIANT SPIDER THEN FIGHT\nUSE RING OF LUCK ON SPIDER"},
                      [("spider/fight/P1", 2), ("spider/fight/luck/P1", 5)])
    assert new["chars"]["P1"]["spider"] is False and "kills a giant spider" in lines(events)


def test_the_ring_is_used_once():
    # a second losing combat roll after the ring is spent stands
    new, _ = run(into_room("monster:orc"), {"P1": "MOVE EAST\nATTACK\nUSE RING OF LUCK ON COMBAT"},
                 [("reaction/P1", 3), ("combat/P1", 1), ("combat/luck/P1", 10),
                  ("combat/P1", 1), ("combat/P1", 10)])
    assert new["chars"]["P1"]["life"] == 15


@pytest.mark.parametrize("text, hint", [
    ("USE RING OF LUCK ON DRAGON", "CHECK"),
    ("USE RING OF LUCK ON", "CHECK"),
])
def test_a_roll_the_ring_cannot_name_is_refused(text, hint):
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(adventurer(), "P1", text)
    assert hint in err.value.errors[0].hint


def test_only_the_ring_of_luck_names_a_roll():
    st = adventurer()
    st["chars"]["P1"]["rings"] = ["luck", "healing"]
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(st, "P1", "USE RING OF HEALING ON COMBAT")
    assert "only the Ring of Luck" in err.value.errors[0].message
    assert ENGINE.parse_orders(st, "P1", "use the ring of luck on combat").text == \
        "USE RING OF LUCK ON COMBAT"
