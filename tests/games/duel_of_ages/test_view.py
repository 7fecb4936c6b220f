"""Hidden information: unrevealed cards and standing plans stay with their team; reports
show each reader only what he may see; the board is an SVG of a view."""

import pytest

from games.core.rng import Rng
from games.core.types import filter_events
from games.duel_of_ages.engine import ENGINE

from .helpers import make, play


def position():
    return make({"DEX": ("White", "D9", ["LONGBOW"]), "TAMSIN": ("Black", "A7", ["SLING!"])},
                standing={"Black": [{"order": {"op": "fire", "char": "TAMSIN"}}]})


def test_unrevealed_cards_are_hidden_from_the_enemy_only():
    state = position()
    assert ENGINE.view(state, "White")["chars"]["DEX"]["cards"] == [
        {"card": "LONGBOW", "revealed": False}]
    for reader in ("Black", None):
        dex = ENGINE.view(state, reader)["chars"]["DEX"]
        assert dex["cards"] == [] and dex["unrevealed"] == 1
        assert "LONGBOW" not in str(ENGINE.view(state, reader))
    assert ENGINE.view(state, "White")["chars"]["TAMSIN"]["cards"] == [
        {"card": "SLING", "revealed": True}]


def test_standing_orders_and_the_deck_are_private():
    state = position()
    assert ENGINE.view(state, "Black")["standing"] == {"Black": ["FIRE TAMSIN"]}
    assert ENGINE.view(state, "White")["standing"] == {"White": []}
    assert "standing" not in ENGINE.view(state, None)
    assert "deck" not in ENGINE.view(state, None)
    assert ENGINE.view(state, "*")["deck"] == state["deck"]


def test_the_deal_is_secret_and_reports_follow_the_audience():
    state, events = ENGINE.setup(["White", "Black"], {}, Rng("s" * 64, "setup"))
    white = ENGINE.report(events, "White")
    black = ENGINE.report(events, "Black")
    public = ENGINE.report(events, None)
    mine = [e.data["card"] for e in events if e.kind == "dealt_card" and e.audience ==
            ("White",)]
    assert len(mine) == 4 and "(secret)" in white and "(secret)" not in public
    assert white != black
    assert ENGINE.report(filter_events(events, "White"), "White") == white


def test_a_weapon_is_shown_when_first_fired():
    state = make({"DEX": ("White", "D9", ["LONGBOW"]), "TAMSIN": ("Black", "D6", [])})
    after, events = play(state, {"White": "FIRE DEX"}, [("fire/hit", 6), ("fire/hit", 5)])
    assert ENGINE.view(after, "Black")["chars"]["DEX"]["cards"] == [
        {"card": "LONGBOW", "revealed": True}]
    assert "shows the Yew Longbow" in ENGINE.report(events, None)


def test_perturbation_keeps_the_readers_view():
    state = position()
    for reader in ("White", "Black", None):
        for choice in range(3):
            def pick(seq, c=choice):
                items = list(seq)
                return items[min(c, len(items) - 1)]
            other = ENGINE.perturb_hidden(state, reader, pick)
            assert other != state
            assert ENGINE.view(other, reader) == ENGINE.view(state, reader)


def test_board_is_svg_of_the_view():
    svg = ENGINE.board(ENGINE.view(position(), None))
    assert svg.startswith("<svg") and "D9" in svg and "DEX" in svg and "LONGBOW" not in svg


@pytest.mark.parametrize("options, cards", [({}, 1), ({"starting_card": False}, 0)])
def test_setup_deals_teams_and_maybe_a_card(options, cards):
    state, events = ENGINE.setup(ENGINE.seat_names(2), {"team_size": 3, **options},
                                 Rng("s" * 64, "setup"))
    assert ENGINE.invariants(state) == []
    assert [len(c["cards"]) for c in state["chars"].values()] == [cards] * 6
    assert len([e for e in events if e.kind == "dealt_card"]) == 6 * cards
    assert all(lab["positions"] == {"White": 2, "Black": 2}
               for lab in state["labyrinths"].values())
    decision = ENGINE.decision(state)
    assert decision.seats == [state["seats"]["White"]]   # nobody is on the map yet


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_the_roll_off_decides_team_white(seed):
    state, events = ENGINE.setup(["North", "South"], {}, Rng(seed * 64, "setup"))
    roll = [e.data for e in events if e.kind == "roll_off"][0]
    white, black = roll["white"], roll["black"]
    assert roll["rolls"][white] > roll["rolls"][black]
    assert state["seats"] == {"White": white, "Black": black}
    assert ENGINE.decision(state).seats == [white]
    # a seat's secrets are addressed to the seat, not to its colour
    dealt = [e for e in events if e.kind == "dealt_card"]
    assert {e.audience for e in dealt} == {(white,), (black,)}


def test_why_a_character_held_fire_is_told_to_his_team_only():
    # MIRELLE cannot use the Harpoon she carries; the enemy must not learn that.
    state = make({"MIRELLE": ("White", "F3", ["HARPOON"]), "KORVATH": ("Black", "F5", [])})
    _, events = play(state, {"White": "FIRE MIRELLE"}, [])
    assert "holds fire" in ENGINE.report(events, "White")
    assert "holds fire" not in ENGINE.report(events, "Black")
    assert "holds fire" not in ENGINE.report(events, None)


def test_board_is_well_formed_svg_with_walls_tunnels_and_labyrinths():
    import xml.etree.ElementTree as ET

    svg = ENGINE.board(ENGINE.view(position(), "White"))
    root = ET.fromstring(svg)
    text = ET.tostring(root, encoding="unicode")
    for label in ("cavern wall", "tunnel entrance", "red eye", "guardian position"):
        assert label in text
