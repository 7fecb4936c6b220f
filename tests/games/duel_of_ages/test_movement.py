"""Move phase scenarios: terrain costs, forced stops, towers and leaving domes."""

import pytest

from .helpers import kinds, make, play


@pytest.mark.parametrize("who, start, order, others, end, stop", [
    ("INES", "F3", "MOVE INES TO F6", {}, "F6", None),
    ("INES", "F3", "MOVE INES TO F6", {"KORVATH": ("Black", "F4", [])}, "F4",
     "an enemy is there"),
    ("SEVEN", "A3", "MOVE SEVEN TO B3 C3", {}, "B3", "out of move points"),  # swamp 3 + 3 > 4
    ("INES", "F3", "MOVE INES TO F4 F5", {"KORVATH": ("White", "F4", [])}, "F5", None),
    ("KORVATH", "D9", "MOVE KORVATH TO D6", {}, "D6", None),
    ("MIRELLE", "A2", "MOVE MIRELLE TO C2", {}, "C2", None),  # woods costs 2
])
def test_moves(who, start, order, others, end, stop):
    chars = {who: ("White", start, []), **others}
    state = make(chars)
    orders = {"White": order + f"\nHOLD {who}" + "".join(f"\nHOLD {k}" for k, v in others.items()
                                       if v[0] == "White")}
    if any(v[0] == "Black" for v in others.values()):
        orders["Black"] = "\n".join(f"HOLD {k}" for k, v in others.items() if v[0] == "Black")
    after, events = play(state, orders, [])
    assert after["chars"][who]["space"] == end
    assert kinds(events, "move")[0]["stop"] == stop


def test_a_tower_ends_movement_and_must_be_challenged():
    state = make({"DEX": ("White", "F5", [])})
    # Tower of Desperation: Wits green vs green = 7; a 2 amazes and dismisses.
    after, events = play(state, {"White": "MOVE DEX TO E5 D6"},
                         [("tower/DEX", 1), ("tower/DEX", 1), ("dismissed/DEX", 3)])
    assert kinds(events, "move")[0]["path"] == ["E5"]
    assert kinds(events, "tower")[0]["level"] == "AMAZE"
    assert after["chars"]["DEX"]["space"] == "A5"


def test_an_occupied_tower_cannot_be_entered():
    state = make({"DEX": ("White", "F5", []), "KORVATH": ("Black", "E5", [])})
    after, events = play(state, {"White": "MOVE DEX TO E5", "Black": "HOLD KORVATH"}, [])
    assert after["chars"]["DEX"]["space"] == "F5"
    assert kinds(events, "move") == []


def test_a_character_in_a_dome_must_leave():
    state = make({"INES": ("White", "A1", []), "DEX": ("White", "F5", [])})
    after, events = play(state, {"White": ""}, [])
    assert after["chars"]["INES"]["space"] == "A2"
    assert after["chars"]["DEX"]["space"] == "F5"
    assert kinds(events, "move")[0]["stop"] == "had to leave the dome"


def test_a_route_never_passes_through_a_tower():
    state = make({"DEX": ("White", "F9", [])})
    after, events = play(state, {"White": "MOVE DEX TO F5"}, [])
    assert "E5" not in kinds(events, "move")[0]["path"]
    assert after["chars"]["DEX"]["space"] == "F5"


def test_one_space_is_always_possible_with_all_points(monkeypatch):
    from games.duel_of_ages import catalog
    real = catalog.character

    def slow(key):
        return {**real(key), "speed": 2} if key == "SEVEN" else real(key)

    monkeypatch.setattr(catalog, "character", slow)
    state = make({"SEVEN": ("White", "A3", [])})
    after, events = play(state, {"White": "MOVE SEVEN TO B3 C3"}, [])  # swamp costs 3
    assert after["chars"]["SEVEN"]["space"] == "B3"
    assert kinds(events, "move")[0]["stop"] == "out of move points"


@pytest.mark.parametrize("cards, ride, end", [
    ([], "", "G3"),                          # swamps cost her 1: six spaces for 6 points
    (["WARHORSE"], "RIDE TAMSIN\n", "E3"),   # mounted: 3 + 3 + 1 + 1 = all 8 points
])
def test_swamp_stride_is_lost_on_a_mount(cards, ride, end):
    state = make({"TAMSIN": ("White", "A3", cards)})
    after, _ = play(state, {"White": ride + "MOVE TAMSIN TO B3 C3 D3 E3 F3 G3"}, [])
    assert after["chars"]["TAMSIN"]["space"] == end
