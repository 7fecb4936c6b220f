"""The order language: canonical text, every error with its line and a hint."""

import pytest

from games.core.types import OrdersInvalid
from games.duel_of_ages.engine import ENGINE

from .helpers import make


def position():
    return make({"DEX": ("White", "D9", ["LONGBOW"]), "INES": ("White", "reserve", []),
                 "TAMSIN": ("Black", "A7", ["SLING"]), "KORVATH": ("Black", "F5", [])})


@pytest.mark.parametrize("seat, text, canonical", [
    ("White", "move dex to d6", "MOVE DEX TO D6"),
    ("White", "MOVE DEX TO D8 F9  # round the water", "MOVE DEX TO D8 F9"),
    ("White", "fire dex at tamsin", "FIRE DEX AT TAMSIN"),
    ("White", "FIRE DEX", "FIRE DEX"),
    ("White", "REINFORCE ines\nHOLD DEX", "REINFORCE INES\nHOLD DEX"),
    ("White", "MELEE DEX AT KORVATH WITH natural", "MELEE DEX AT KORVATH WITH NATURAL"),
    ("White", "SURRENDER", "SURRENDER"),
    ("White", "challenge dex", "CHALLENGE DEX"),
    ("White", "MERCY DEX", "MERCY DEX"),
    ("White", "destroy dex longbow", "DESTROY DEX LONGBOW"),
    ("White", "havoc dex receiver korvath giver tamsin", "HAVOC DEX GIVER TAMSIN RECEIVER KORVATH"),
    ("White", "MANEUVER DEX BANISH KORVATH", "MANEUVER DEX BANISH KORVATH"),
    ("White", "MANEUVER DEX DISMISS INES", "MANEUVER DEX DISMISS INES"),
    ("Black", "IF ENEMY ENTERS LOS THEN FIRE TAMSIN",
     "IF ENEMY ENTERS LOS THEN FIRE TAMSIN"),
    ("Black", "if dex moves then opfire tamsin else hold tamsin",
     "IF DEX MOVES THEN FIRE TAMSIN ELSE HOLD TAMSIN"),  # OPFIRE is FIRE
    ("Black", "IF ENEMY ENTERS d7 THEN FIRE TAMSIN AT DEX",
     "IF ENEMY ENTERS D7 THEN FIRE TAMSIN AT DEX"),
    ("Black", "STANDING OPFIRE TAMSIN IN D8", "STANDING FIRE TAMSIN IN D8"),
    ("Black", "STANDING MOVE TAMSIN TO B6", "STANDING MOVE TAMSIN TO B6"),
    ("Black", "CANCEL STANDING 1", "CANCEL STANDING 1"),
    ("Black", "FIRE TAMSIN\nEND\nMOVE ME TO THE MOON", "FIRE TAMSIN"),
])
def test_canonical_orders(seat, text, canonical):
    orders = ENGINE.parse_orders(position(), seat, text)
    assert orders.text == canonical
    assert ENGINE.parse_orders(position(), seat, orders.text).items == orders.items


@pytest.mark.parametrize("seat, text, line, message, hint", [
    ("White", "MOVE DEX TO D6\nMOVE DEXX TO D5", 2, "unknown character", "did you mean DEX?"),
    ("White", "MOVE DEX TO Z9", 1, "no space", "A1 to K9"),
    ("White", "MOVE DEX TO A5", 1, "nobody can enter", "pick a space"),
    ("White", "MOVE DEX D6", 1, "a move reads", "e.g. MOVE DEX TO C4"),
    ("White", "FIRE TAMSIN", 1, "not on your team", "your characters"),
    ("White", "FIRE DEX AT INES", 1, "not an enemy", ""),
    ("White", "FIRE DEX UNDER KORVATH", 1, "unexpected", ""),
    ("White", "MOOVE DEX TO D6", 1, "unknown order", "did you mean MOVE?"),
    ("White", "IF DEX MOVES THEN FIRE DEX", 1, "not an enemy", ""),
    ("White", "IF KORVATH MOVES THEN MOVE DEX TO D6", 1, "only FIRE, MELEE and HOLD", "IF"),
    ("White", "IF KORVATH DANCES THEN FIRE DEX", 1, "cannot read condition", "ENEMY ENTERS"),
    ("Black", "MOVE TAMSIN TO B6", 1, "not Black's turn", "STANDING"),
    ("Black", "REINFORCE KORVATH", 1, "not Black's turn", "STANDING"),
    ("White", "IF ENEMY ENTERS LOS THEN FIRE DEX", 1, "only the waiting team", "FIRE"),
    ("White", "MELEE DEX WITH ROCK", 1, "unknown melee weapon", ""),
    ("White", "SURRENDER NOW", 1, "takes nothing", ""),
    ("Black", "CHALLENGE TAMSIN", 1, "not Black's turn", ""),
    ("White", "DESTROY DEX SPAER", 1, "unknown card", "SPEAR"),
    ("White", "DESTROY DEX", 1, "names a character and one card", "DESTROY DEX"),
    ("White", "DISCARD DEX", 1, "names a character and the cards", "DISCARD DEX"),
    ("White", "USE DEX", 1, "carries no gadget card", ""),
    ("White", "MANEUVER DEX DISMISS INES BANISH KORVATH", 1, "choose DISMISS", ""),
    ("White", "HAVOC DEX", 1, "name the GIVER", ""),
    ("White", "HAVOC DEX GIVER INES", 1, "not an enemy", ""),
    ("White", "CHALLENGE DEX NOW", 1, "name just the character", "CHALLENGE DEX"),
])
def test_order_errors(seat, text, line, message, hint):
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(position(), seat, text)
    error = exc.value.errors[0]
    assert error.line == line
    assert message in error.message
    assert hint in error.hint


def test_every_error_is_reported():
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(position(), "White", "MOVE DEX TO Z1\nFIRE DEX\nHOLD NOBODY")
    assert [e.line for e in exc.value.errors] == [1, 3]
    assert exc.value.accepted == ["FIRE DEX"]


def test_default_orders_fire_at_will_and_challenge():
    # DEX stands on the colonial red eye, where White's guardian position starts.
    orders = ENGINE.default_orders(position(), "White")
    assert orders.default and orders.text == "FIRE DEX\nCHALLENGE DEX"
    assert ENGINE.default_orders(position(), "Black").text == "FIRE TAMSIN"


def test_the_readme_examples_parse():
    import re
    from pathlib import Path

    readme = (Path(__file__).parents[3] / "games" / "duel_of_ages" / "README.md").read_text()
    moving, waiting = re.findall(r"```\n(.*?)```", readme, re.S)[:2]
    state = make({"TAMSIN": ("White", "F3", ["LONGBOW"]), "KORVATH": ("White", "F9", []),
                  "SEVEN": ("White", "reserve", []), "DEX": ("Black", "F5", ["SLING"]),
                  "HOLLIS": ("Black", "H4", []), "INES": ("Black", "F5", [])})
    assert ENGINE.parse_orders(state, "White", moving).text == moving.strip()
    assert ENGINE.parse_orders(state, "Black", waiting).text == waiting.strip()


def test_prompt_offers_legal_shots_and_every_choice_parses():
    state = make({"TAMSIN": ("White", "F3", ["LONGBOW"]), "KORVATH": ("Black", "F6", []),
                  "SEVEN": ("White", "reserve", [])})
    prompts = ENGINE.decision(state).prompts
    assert "FIRE TAMSIN AT KORVATH" in prompts["White"]["choices"]
    for seat, prompt in prompts.items():
        for choice in prompt["choices"]:
            if "<" not in choice:
                ENGINE.parse_orders(state, seat, choice)
        ENGINE.parse_orders(state, seat, prompt["example"].replace("F5", "F4"))


def test_surrender_is_told_in_the_help_and_never_offered_as_a_pick():
    """The game page turns a prompt's choices into one-tap quick picks: conceding the game
    sat beside HOLD, one tap from the box. It is told in the help and typed instead."""
    state = make({"TAMSIN": ("White", "F3", ["LONGBOW"]), "KORVATH": ("Black", "F6", [])})
    decision = ENGINE.decision(state)
    for prompt in decision.prompts.values():
        assert not any("SURRENDER" in choice for choice in prompt["choices"])
    seat, moving = next((seat, prompt) for seat, prompt in decision.prompts.items()
                        if "move" in prompt["title"])
    assert "SURRENDER" in moving["help"]
    assert ENGINE.parse_orders(state, seat, "SURRENDER").text == "SURRENDER"
