"""Scenario tests for the rule and card variants the first tests left out: every row of
the potion table, the three turns of the Wizard's curse, each corpse, crypt, search and
trap card, the rings on their second kind of moment, and the special tiles' variants."""

from __future__ import annotations

import pytest

from games.dungeonquest import content
from games.dungeonquest.board import CHAMBER, lay_tile
from games.dungeonquest.engine import ENGINE

from .helpers import lines, make_state, place, put, run, stack, stack_tiles


def into_room(card: str, hero: str = "knight", players: int = 1):
    """A hero in the A1 tower about to step east into a fresh room holding `card`."""
    st = make_state(players, hero)
    stack_tiles(st, "room-cross")
    stack(st, "room", card)
    return st


def in_room(hero: str = "knight", tile: str = "room-cross"):
    """A hero standing in B2 (entered from B1, moving south) on `tile`."""
    st = make_state(1, hero)
    place(st, "B1", "room-cross", "E")
    place(st, "B2", tile, "S")
    put(st, "P1", "B2", "N", "B1")
    return st


def gold(state, seat: str = "P1") -> list[int]:
    return [t["value"] for t in state["chars"][seat]["treasure"]]


# -- the potion table, row by row -----------------------------------------------------

@pytest.mark.parametrize("roll, extra, life, skip, name", [
    (1, [("potion/harm/P1", 4)], 10 - 4, 0, "a bitter poison"),
    (3, [], 10, 0, "stale water"),
    (4, [], 10, 0, "stale water"),
    (5, [("potion/heal/P1", 2)], 12, 0, "a healing draught"),
    (8, [("potion/heal/P1", 6)], 16, 0, "a healing draught"),
    (9, [("potion/heal/P1", 1)], 15, 0, "a strong healing draught"),
    (11, [("potion/heal/P1", 5)], 16, 0, "a strong healing draught"),  # capped at 16
    (12, [], 16, 0, "an elixir of life"),
])
def test_every_row_of_the_potion_table(roll, extra, life, skip, name):
    st = make_state()
    st["chars"]["P1"].update(life=10, potion=True)
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, events = run(st, {"P1": "DRINK POTION\nMOVE EAST"}, [("potion/P1", roll)] + extra)
    ch = new["chars"]["P1"]
    assert ch["life"] == life and ch["skip"] == skip and not ch["potion"]
    assert f"(d12 rolls {roll}): {name}." in lines(events)
    assert ch["pos"] == "B1"  # drinking at the start of the turn does not cost the move


def test_a_poison_potion_can_kill():
    st = make_state()
    st["chars"]["P1"].update(life=3, potion=True)
    new, events = run(st, {"P1": "DRINK POTION\nMOVE EAST"},
                      [("potion/P1", 1), ("potion/harm/P1", 5)])
    ch = new["chars"]["P1"]
    assert ch["status"] == "dead" and ch["pos"] == "A1"
    assert "The poison (d6: 5): loses 5" in lines(events)  # the dice stay private
    assert "has perished in A1** (the poison)." in lines(events)


def test_a_sleeping_draught_costs_the_turn_it_is_drunk():
    st = make_state()
    st["chars"]["P1"]["potion"] = True
    new, events = run(st, {"P1": "DRINK POTION\nMOVE EAST"}, [("potion/P1", 2)])
    ch = new["chars"]["P1"]
    assert ch["pos"] == "A1" and ch["skip"] == 0 and not ch["potion"]
    assert "a sleeping draught" in lines(events) and "misses this turn" in lines(events)
    stack_tiles(new, "room-cross")
    stack(new, "room", "empty")
    awake, _ = run(new, {"P1": "MOVE EAST"}, [])
    assert awake["chars"]["P1"]["pos"] == "B1"


def test_a_sleeping_draught_drunk_when_hurt_costs_the_next_turn():
    st = into_room("bats")
    st["chars"]["P1"].update(life=6, potion=True)
    new, _ = run(st, {"P1": "MOVE EAST\nIF LIFE < 4 THEN DRINK POTION"},
                 [("harm/bats/P1", 3), ("potion/P1", 2)])
    ch = new["chars"]["P1"]
    assert ch["pos"] == "B1" and ch["life"] == 3 and ch["skip"] == 1
    held, events = run(new, {"P1": "MOVE EAST"}, [])
    assert held["chars"]["P1"]["pos"] == "B1" and "misses this turn" in lines(events)


# -- the Curse of the Wizard: all three turns ---------------------------------------------

@pytest.mark.parametrize("roll, quarters, open_sides", [
    (1, 1, {"N", "E"}),   # a quarter clockwise: north -> east, west -> north
    (2, 1, {"N", "E"}),
    (3, 3, {"W", "S"}),   # a quarter anticlockwise: north -> west, west -> south
    (4, 3, {"W", "S"}),
    (5, 2, {"E", "S"}),   # half a turn: north -> south, west -> east
    (6, 2, {"E", "S"}),
])
def test_curse_of_the_wizard_turns_corridors_each_way(roll, quarters, open_sides):
    st = into_room("curse")
    place(st, "C3", "corridor-bend-left", "E")  # back west, left north: open N and W
    place(st, "D4", "room-cross", "E")          # rooms never turn
    assert {s for s, v in st["board"]["C3"]["exits"].items() if v == "open"} == {"N", "W"}
    new, events = run(st, {"P1": "MOVE EAST"}, [("curse/P1", roll)])
    cell = new["board"]["C3"]
    assert {s for s, v in cell["exits"].items() if v == "open"} == open_sides
    assert new["board"]["D4"] == st["board"]["D4"]
    curse = next(e for e in events if e.kind == "curse")
    assert curse.data["quarters"] == quarters and curse.audience is None


# -- corpse, crypt and search cards ------------------------------------------------------

@pytest.mark.parametrize("card, script, life, treasure, potion", [
    ("treasure:necklace", [], 16, [50], False),
    ("treasure:guineas", [], 16, [30], False),
    ("nothing", [], 16, [], False),
    ("scorpion", [("harm/scorpion/P1", 5)], 11, [], False),
    ("potion", [], 16, [], True),
])
def test_corpse_cards(card, script, life, treasure, potion):
    st = into_room("corpse")
    stack(st, "corpse", card)
    new, _ = run(st, {"P1": "MOVE EAST\nIF CORPSE THEN SEARCH BODY"}, script)
    ch = new["chars"]["P1"]
    assert (ch["life"], gold(new), ch["potion"]) == (life, treasure, potion)
    assert new["decks"]["corpse"]["discard"] == [card]


def test_a_scorpion_can_kill():
    st = into_room("corpse")
    st["chars"]["P1"]["life"] = 2
    stack(st, "corpse", "scorpion")
    new, events = run(st, {"P1": "MOVE EAST\nIF CORPSE THEN SEARCH BODY"},
                      [("harm/scorpion/P1", 2)])
    assert new["chars"]["P1"]["status"] == "dead"
    assert "A scorpion (d6: 2): loses 2" in lines(events)


@pytest.mark.parametrize("card, script, life, treasure, potion", [
    ("treasure:brooch", [], 16, [35], False),
    ("treasure:bracelet", [], 16, [40], False),
    ("treasure:guineas", [], 16, [30], False),
    ("empty", [], 16, [], False),
    ("potion", [], 16, [], True),
    ("trap:poison-needle", [("harm/poison-needle/P1", 6)], 10, [], False),
    ("skeleton", [("skeleton/P1", 3)], 16, [], False),  # 1-3: it stays still
])
def test_crypt_cards(card, script, life, treasure, potion):
    st = into_room("crypt")
    stack(st, "crypt", card)
    new, _ = run(st, {"P1": "MOVE EAST\nIF CRYPT THEN SEARCH CRYPT"}, script)
    ch = new["chars"]["P1"]
    assert (ch["life"], gold(new), ch["potion"]) == (life, treasure, potion)
    assert ch["pending"] is None


@pytest.mark.parametrize("card, script, life, treasure, potion", [
    ("treasure:guineas", [], 16, [30], False),
    ("treasure:jewellery", [], 16, [60], False),
    ("empty", [], 16, [], False),
    ("potion", [], 16, [], True),
])
def test_search_cards(card, script, life, treasure, potion):
    st = in_room()
    stack(st, "search", card)
    new, _ = run(st, {"P1": "SEARCH"}, script)
    ch = new["chars"]["P1"]
    assert (ch["life"], gold(new), ch["potion"], ch["pos"]) == (life, treasure, potion, "B2")
    assert ch["searches"] == 1


def test_a_search_trap_draws_a_trap_card():
    st = in_room()
    stack(st, "search", "trap")
    stack(st, "trap", "snakes")
    new, events = run(st, {"P1": "SEARCH"}, [("harm/snakes/P1", 4)])
    assert new["chars"]["P1"]["life"] == 12
    assert new["decks"]["trap"]["discard"] == ["snakes"]
    assert "Trap card: poisonous snakes" in lines(events)


def test_the_ring_of_warning_avoids_a_search_trap():
    st = in_room()
    st["chars"]["P1"]["rings"] = ["warning"]
    stack(st, "search", "trap")
    new, _ = run(st, {"P1": "SEARCH\nIF TRAP THEN USE RING OF WARNING"}, [])
    assert new["chars"]["P1"]["rings"] == [] and new["decks"]["trap"]["discard"] == []
    assert new["chars"]["P1"]["life"] == 16


def test_the_ring_search_card_is_treasure_once_the_rings_are_gone():
    st = in_room()
    st["ring_pool"] = []
    stack(st, "search", "ring")
    new, _ = run(st, {"P1": "SEARCH"}, [])
    assert gold(new) == [45] and new["chars"]["P1"]["rings"] == ["healing"]


def test_a_secret_door_leaves_no_escape_from_what_waits_beyond():
    st = in_room(tile="dead-end")
    stack(st, "search", "secret-door")
    stack_tiles(st, "room-cross")
    stack(st, "room", "monster:orc")
    new, _ = run(st, {"P1": "SEARCH THEN EAST\nESCAPE"}, [])
    ch = new["chars"]["P1"]
    assert ch["pos"] == "C2" and ch["pending"]["no_escape"] is True
    assert "ESCAPE" not in ENGINE.decision(new).prompts["P1"]["choices"]


# -- the trap cards a trap room can deal -----------------------------------------------

@pytest.mark.parametrize("card, script, life, trapdoor", [
    ("cave-in", [("cave-in/P1", 4), ("harm/cave-in/P1", 3)], 13, False),
    ("crossfire", [("harm/crossfire/P1", 9)], 16 - (9 - 3), False),  # d12 minus Armour 3
    ("crossfire", [("harm/crossfire/P1", 3)], 16, False),            # the plate holds
    ("trapdoor", [("trapdoor/P1", 8), ("harm/fall/P1", 2)], 14, True),
    ("snakes", [("harm/snakes/P1", 6)], 10, False),
])
def test_trap_room_cards(card, script, life, trapdoor):
    st = make_state()
    stack_tiles(st, "trap-cross")
    stack(st, "trap", card)
    new, _ = run(st, {"P1": "MOVE EAST"}, script)
    ch = new["chars"]["P1"]
    assert (ch["life"], ch["trapdoor"], ch["pos"]) == (life, trapdoor, "B1")
    assert new["decks"]["room"]["discard"] == []


def test_trap_room_cave_in_kills_on_a_one():
    st = make_state()
    stack_tiles(st, "trap-cross")
    stack(st, "trap", "cave-in")
    new, _ = run(st, {"P1": "MOVE EAST"}, [("cave-in/P1", 1)])
    assert new["chars"]["P1"]["status"] == "dead"


# -- monsters and heroes ---------------------------------------------------------------

def test_a_sneak_attack_by_a_troll():
    st = into_room("sneak:troll", "barbarian")  # Luck 4
    new, _ = run(st, {"P1": "MOVE EAST"}, [("sneak/P1", 12)])
    ch = new["chars"]["P1"]
    assert ch["life"] == 22 - (12 - 4)
    assert ch["pending"] == {"type": "monster", "kind": "troll", "life": 6, "ambush": True,
                             "no_escape": False, "square": "B1"}


def test_a_sneak_attack_that_deals_nothing_when_luck_is_high():
    st = into_room("sneak:goblin", "adventurer")  # Luck 7
    new, events = run(st, {"P1": "MOVE EAST"}, [("sneak/P1", 5)])
    assert new["chars"]["P1"]["life"] == 16 and "no harm done" in lines(events)
    assert new["chars"]["P1"]["pending"]["ambush"] is True


@pytest.mark.parametrize("hero, roll, outcome", [
    ("adventurer", 5, "flee"),   # quick wits: 5 + 1 = 6, it runs away
    ("knight", 5, "combat"),
])
def test_the_adventurers_quick_wits(hero, roll, outcome):
    st = into_room("monster:orc", hero)
    script = [("reaction/P1", roll)]
    if outcome == "combat":
        script += [("combat/P1", 10), ("combat/P1", 10)]
    new, events = run(st, {"P1": "MOVE EAST\nATTACK"}, script)
    reaction = next(e for e in events if "reaction" in e.data)
    assert reaction.data["reaction"] == outcome
    assert new["chars"]["P1"]["pending"] is None


@pytest.mark.parametrize("choice, roll, reaction", [
    ("WAIT", 1, "slash-combat"), ("WAIT", 3, "combat"), ("WAIT", 5, "flee"),
    ("ESCAPE", 2, "combat"), ("ESCAPE", 5, "escape"),
])
def test_reaction_table_rows_for_wait_and_escape(choice, roll, reaction):
    st = into_room("monster:goblin")
    script = [("reaction/P1", roll)]
    if reaction.endswith("combat"):
        script += [("combat/P1", 10), ("combat/P1", 8)]
    new, events = run(st, {"P1": f"MOVE EAST\n{choice}"}, script)
    got = next(e for e in events if "reaction" in e.data)
    assert got.data["reaction"] == reaction
    ch = new["chars"]["P1"]
    if reaction == "escape":  # back into the tower it came from, still in the dungeon
        assert (ch["pos"], ch["status"]) == ("A1", "in")
    else:
        assert (ch["pos"], ch["status"], ch["pending"]) == ("B1", "in", None)


# -- rings on their other moments ---------------------------------------------------------

def test_ring_of_opening_raises_a_portcullis_without_a_roll():
    st = in_room(tile="room-grate-ahead")
    st["chars"]["P1"]["rings"] = ["opening"]
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE SOUTH\nIF PORTCULLIS THEN USE RING OF OPENING"}, [])
    assert new["chars"]["P1"]["pos"] == "B3" and new["chars"]["P1"]["rings"] == []


def test_a_door_order_does_not_spend_the_ring_of_opening_on_a_portcullis():
    st = in_room(tile="room-grate-ahead")
    st["chars"]["P1"]["rings"] = ["opening"]
    new, _ = run(st, {"P1": "MOVE SOUTH\nIF DOOR THEN USE RING OF OPENING"},
                 [("portcullis/P1", 12)])
    assert new["chars"]["P1"]["pos"] == "B2" and new["chars"]["P1"]["rings"] == ["opening"]


@pytest.mark.parametrize("label, first, second, moved", [
    ("torch", 5, 2, True),
    ("torch", 5, 6, False),
])
def test_ring_of_luck_relights_a_torch(label, first, second, moved):
    st = make_state(1, "adventurer")
    st["chars"]["P1"]["torch"] = True
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST\nIF FAIL THEN USE RING OF LUCK"},
                 [(f"{label}/P1", first), (f"{label}/luck/P1", second)])
    assert (new["chars"]["P1"]["pos"] == "B1") is moved
    assert new["chars"]["P1"]["rings"] == []


def test_ring_of_luck_on_a_portcullis():
    st = in_room("adventurer", "room-grate-ahead")  # Strength 7
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE SOUTH\nIF FAIL THEN USE RING OF LUCK"},
                 [("portcullis/P1", 11), ("portcullis/luck/P1", 7)])
    assert new["chars"]["P1"]["pos"] == "B3"


def test_a_plain_ring_of_transformation_spares_rooms_and_changes_a_trap_room():
    st = make_state()
    st["chars"]["P1"]["rings"] = ["transformation"]
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST\nUSE RING OF TRANSFORMATION"}, [])
    assert new["board"]["B1"]["tile"] == "room-cross"
    assert new["chars"]["P1"]["rings"] == ["transformation"]
    st = make_state()
    st["chars"]["P1"]["rings"] = ["transformation"]
    stack_tiles(st, "trap-cross", "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE EAST\nUSE RING OF TRANSFORMATION"}, [])
    assert new["board"]["B1"]["tile"] == "room-cross" and new["spent_tiles"] == ["trap-cross"]
    assert new["decks"]["trap"]["discard"] == []


def test_ring_of_healing_never_heals_past_full():
    st = make_state()
    st["chars"]["P1"]["life"] = 14
    new, _ = run(st, {"P1": "USE RING OF HEALING"}, [])
    assert new["chars"]["P1"]["life"] == 16 and new["chars"]["P1"]["rings"] == []


# -- tiles -------------------------------------------------------------------------------

# Every tile laid by a hero moving east: back west, left north, ahead east, right south.
@pytest.mark.parametrize("tile, exits", [
    ("room-sides", "open wall open open"),
    ("room-hall", "wall open wall open"),
    ("room-left", "open open wall open"),
    ("room-right", "wall open open open"),
    ("room-doors-sides", "door open door open"),
    ("room-door-left", "door open wall open"),
    ("room-door-right", "wall open door open"),
    ("room-grate-right", "open wall portcullis open"),
    ("room-door-grate", "door open portcullis open"),
    ("room-door-only", "wall door wall open"),
    ("room-door-turn-left", "door wall wall open"),
    ("room-door-turn-right", "wall wall door open"),
    ("room-turn-right", "wall wall open open"),
    ("corridor-bend-right", "wall wall open open"),
    ("corridor-tee", "open wall open open"),
    ("pit-straight", "wall open wall open"),
    ("cave-in-sides", "open wall open open"),
    ("portcullis-sides", "open wall open portcullis"),
    ("rotating-turn", "open wall wall open"),
    ("trap-hall", "wall open wall open"),
    ("chasm-right", "open open open open"),
])
def test_each_tile_is_laid_with_its_back_to_the_hero(tile, exits):
    cell = lay_tile(content.for_revision(ENGINE.revision).tiles, tile, "E")
    assert [cell["exits"][s] for s in "NESW"] == exits.split()


def test_the_right_hand_chasm_keeps_the_hero_on_the_near_bank():
    st = in_room(tile="chasm-right")  # entered moving south: near bank north and west
    assert st["board"]["B2"]["near"] == ["N", "W"]
    new, events = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "B2" and "across the chasm" in lines(events)
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE WEST"}, [])
    assert new["chars"]["P1"]["pos"] == "A2"


def test_a_hero_across_the_chasm_may_leave_by_the_far_bank():
    st = in_room(tile="chasm-right")
    put(st, "P1", "B2", "E", "C2")  # came in from the east: the far bank
    stack_tiles(st, "room-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "MOVE SOUTH"}, [])
    assert new["chars"]["P1"]["pos"] == "B3"
    blocked, _ = run(st, {"P1": "MOVE WEST"}, [])
    assert blocked["chars"]["P1"]["pos"] == "B2"


@pytest.mark.parametrize("tile", ["pit-cross", "darkness-two", "rotating-hall"])
def test_tiles_that_take_no_room_card(tile):
    st = make_state()
    stack_tiles(st, tile)
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert new["chars"]["P1"]["pos"] == "B1"
    assert new["decks"]["room"]["discard"] == [] and new["decks"]["trap"]["discard"] == []


@pytest.mark.parametrize("tile, words", [
    ("rotating-hall", "a rotating room"),
    ("trap-cross", "a trap room"),
])
def test_more_tiles_that_cannot_be_searched(tile, words):
    st = in_room(tile=tile)
    new, events = run(st, {"P1": "SEARCH"}, [])
    assert new["decks"]["search"]["discard"] == [] and new["chars"]["P1"]["pos"] == "B2"
    assert f"Cannot search {words}" in lines(events)


def test_in_a_chamber_of_darkness_the_die_moves_the_hero_whatever_the_order():
    st = in_room(tile="darkness-two")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "SEARCH"}, [("darkness/P1", 1)])
    assert new["decks"]["search"]["discard"] == [] and new["chars"]["P1"]["pos"] == "B1"


def test_the_treasure_chamber_and_towers_cannot_be_searched():
    st = make_state()
    _, events = run(st, {"P1": "SEARCH"}, [])
    assert "Cannot search a tower" in lines(events)
    put(st, "P1", CHAMBER[0], "N", "E6")
    place(st, "E6", "room-cross", "S")
    st["hoard"] = sorted(st["hoard"], reverse=True)
    st["dragon"]["pool"] = sorted(st["dragon"]["pool"], reverse=True)
    new, events = run(st, {"P1": "SEARCH"}, [])
    assert "Cannot search the treasure chamber" in lines(events)
    assert new["decks"]["search"]["discard"] == []


def test_any_corner_tower_is_a_way_out():
    st = make_state(1)
    place(st, "I1", "room-cross", "E")
    put(st, "P1", "I1", "W", "H1", treasure=[{"name": "a purse", "value": 30}])
    new, events = run(st, {"P1": "MOVE EAST"}, [])
    ch = new["chars"]["P1"]
    assert ch["status"] == "escaped" and ch["pos"] == "J1"
    assert ENGINE.result(new)["winners"] == ["P1"]


def test_retreat_from_a_cave_in_needs_no_roll():
    st = in_room(tile="cave-in-cross")
    stack(st, "room", "empty")
    new, _ = run(st, {"P1": "RETREAT"}, [])
    assert new["chars"]["P1"]["pos"] == "B1"


def test_a_missed_arrow_at_the_spider_costs_a_life_point_and_binds_the_ranger():
    st = into_room("spider", "ranger")
    new, events = run(st, {"P1": "MOVE EAST\nIF SPIDER THEN SHOOT"}, [("spider/arrow/P1", 9)])
    ch = new["chars"]["P1"]
    assert ch["spider"] and ch["life"] == 16 and ch["arrows"] == 7
    assert "must fight the spider again next turn" in lines(events)


def test_the_turning_rotating_room_closes_the_way_back_and_opens_another():
    st = make_state()
    stack_tiles(st, "rotating-turn")  # laid moving east: open west (back) and north
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    cell = new["board"]["B1"]
    assert [s for s in "NESW" if cell["exits"][s] == "open"] == ["N", "E"]
    back, _ = run(new, {"P1": "RETREAT"}, [])
    assert back["chars"]["P1"]["pos"] == "B1"
    north, events = run(new, {"P1": "MOVE NORTH"}, [])
    assert north["chars"]["P1"]["pos"] == "B1" and "outer wall" in lines(events)
    stack_tiles(new, "room-cross")
    stack(new, "room", "empty")
    east, _ = run(new, {"P1": "MOVE EAST"}, [])
    assert east["chars"]["P1"]["pos"] == "C1"


def test_a_dead_end_takes_a_room_card_and_may_be_searched():
    st = make_state()
    stack_tiles(st, "dead-end")
    stack(st, "room", "treasure:jewellery")
    new, _ = run(st, {"P1": "MOVE EAST"}, [])
    assert gold(new) == [60]
    stack(new, "search", "empty")
    again, _ = run(new, {"P1": "SEARCH"}, [])
    assert again["decks"]["search"]["discard"] == ["empty"]


def test_a_sneak_attack_can_kill_before_any_fight():
    st = into_room("sneak:troll")
    st["chars"]["P1"]["life"] = 5
    new, events = run(st, {"P1": "MOVE EAST\nATTACK"}, [("sneak/P1", 12)])
    ch = new["chars"]["P1"]
    assert ch["status"] == "dead" and ch["pending"] is None
    assert "Attack against" not in lines(events)


def test_no_escape_from_a_monster_after_coming_under_a_portcullis():
    st = in_room(tile="room-grate-ahead")  # the knight: Strength 9
    stack_tiles(st, "room-cross")
    stack(st, "room", "monster:goblin")
    new, _ = run(st, {"P1": "MOVE SOUTH\nESCAPE"}, [("portcullis/P1", 3)])
    ch = new["chars"]["P1"]
    assert ch["pos"] == "B3" and ch["via"] == "portcullis"
    assert ch["pending"]["no_escape"] is True
    assert "ESCAPE" not in ENGINE.decision(new).prompts["P1"]["choices"]
