"""Board, prompts and data for levels 5-7: what the table shows and what players may type."""

from __future__ import annotations

import random

import pytest

from games.core.canonical import canonical_json
from games.core.rng import Rng
from games.dice_age.dice import DICE
from games.dice_age.engine import ENGINE

from .helpers import suspend, table

ICON_WORTH = {"cross": 90, "chaos": 70, "pit": 60, "cannon": 60, "radiation": 50,
              "gear": 50, "nut": 40, "double-arrow": 40, "smile": 40, "square": 40,
              "triangle": 40, "blank": 30}


def test_board_shows_valley_ledges_limbo_and_white_dice():
    state = table(5, {"P1": {"garden": ["SUN"], "field": ["FERN", "WCUBE"]},
                      "P2": {"garden": ["OAK"], "field": ["CONJURER"]}}, number=6)
    suspend(state, "WCUBE", "nut")
    suspend(state, "CONJURER", "smile", d6=[4])
    board = ENGINE.board(ENGINE.view(state, "P2"))
    for needle in ("Valley (field)", "Ledges (suspended)", "Limbo", "WCUBE NUT [nut]",
                   "[smile d6 4]", "background:#ffffff", "Number: 6"):
        assert needle in board, needle


def _designed_value(die) -> int:
    """The README's formula: mean worth of the faces, to the nearest 5 points."""
    from games.dice_age.dice import ROMAN, read, sides
    total = 0
    for face in die.faces:
        best = 0
        for side in sides(face):
            kind, value = read(side)
            worth = ICON_WORTH[value] if kind == "icon" else 5 * max(0, 16 - int(value)) + (
                10 if isinstance(side, str) and side in ROMAN else 0)
            best = max(best, worth)
        total += best
    return 5 * round(total / len(die.faces) / 5)


@pytest.mark.parametrize("die", list(DICE.values()), ids=lambda d: d.id)
def test_point_values_follow_the_faces(die):
    assert die.value == _designed_value(die)


@pytest.mark.parametrize("die", list(DICE.values()), ids=lambda d: d.id)
def test_a_gear_turns_every_face_onto_another(die):
    assert len(die.flip) == len(die.faces)
    assert all(1 <= f <= len(die.faces) and f != i for i, f in enumerate(die.flip, 1))
    if len(die.faces) % 2 == 0:  # opposite sides: turning twice comes back
        assert all(die.flip[f - 1] == i for i, f in enumerate(die.flip, 1))


@pytest.mark.parametrize("level", [5, 6, 7])
def test_every_quick_pick_parses_as_shown(level):
    """Over random games, every choice a prompt offers is accepted verbatim."""
    rnd = random.Random(level)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    kinds = set()
    for game in range(6):
        seats = ENGINE.seat_names(2 + game % 3)
        state, _ = ENGINE.setup(seats, {"level": level}, Rng(f"q{game}", "setup"))
        for number in range(400):
            decision = ENGINE.decision(state)
            if decision is None:
                break
            for seat, prompt in decision.prompts.items():
                kinds.add(decision.phase)
                assert prompt["choices"], (decision.phase, state["pending"])
                for choice in prompt["choices"]:
                    ENGINE.parse_orders(state, seat, choice)
                assert decision.reaction == (decision.phase in ("react", "defend"))
            orders = {s: ENGINE.parse_orders(state, s, ENGINE.random_orders(state, s, pick))
                      for s in decision.seats}
            state, _ = ENGINE.resolve(state, orders, Rng(f"q{game}", f"t{number}"))
    assert {"roll", "target", "react"} <= kinds


def test_standing_reactions_are_private():
    state = table(5, {"P1": {"garden": ["SUN"]}, "P2": {"garden": ["OAK"], "field": ["FERN"]}},
                  number=6)
    hidden = ENGINE.view(state, "P1")
    state["standing"]["P2"] = ENGINE.parse_orders(state, "P2",
                                                  "STANDING GEAR IF ROLL > NUMBER").items
    assert canonical_json(ENGINE.view(state, "P1")) == canonical_json(hidden)
    assert ENGINE.view(state, "P2")["players"]["P2"]["standing"] == [
        "STANDING GEAR IF ROLL > NUMBER"]


def test_reaction_orders_render_as_they_parse():
    state = table(5, {"P1": {"garden": ["SUN"]}, "P2": {"garden": ["OAK"]}}, number=6)
    for text in ("STANDING NUT WHEN TARGETED BY PIT", "STANDING GEAR IF ROLL > NUMBER",
                 "STANDING SMILE - IF ROLL > NUMBER", "STANDING DOUBLE WHEN CROSS",
                 "STANDING PASS GEAR", "STANDING PAIR", "STANDING SQUARE P2 OAK",
                 "STANDING IF ROLL > 6 THEN GEAR", "STANDING GEAR IF ROLL >= 9 WHEN CROSS"):
        assert ENGINE.parse_orders(state, "P1", text).text == text


def test_every_readme_example_parses_and_prints_as_written():
    from pathlib import Path

    from games.dice_age import orders as order_lang
    readme = (Path(order_lang.__file__).parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("Examples (each parses as shown):", 1)[1].split("```")[1]
    lines = [ln.split("#", 1)[0].strip() for ln in block.splitlines() if ln.strip()]
    state = table(5, {"P1": {"garden": ["SUN"]}, "P2": {"garden": ["TANK"]},
                      "P3": {"garden": ["OAK"]}}, number=6)
    assert len(lines) > 25
    for line in lines:
        item = order_lang.GRAMMAR.parse_line(line, (state, "P1"))
        assert order_lang.GRAMMAR.render(item) == line


def test_the_draft_says_what_faces_each_die_in_the_centre_has():
    """On a phone the draft offered "PICK SUN ... PICK TANK" and nothing about the dice:
    the help now has a line per die still free with its faces (public data)."""
    from games.core.replay import run_setup, secret_rng

    state = run_setup(ENGINE, ["P1", "P2"], ENGINE.new_game_options({}),
                      secret_rng("cd" * 32, None)).state
    decision = ENGINE.decision(state)
    prompt = decision.prompts[decision.seats[0]]
    lines = prompt["help"].split("\n")
    picks = [c.split()[1] for c in prompt["choices"] if c.startswith("PICK ")
             and len(c.split()) == 2]
    assert picks and [line.split(",")[0] for line in lines[1:]] == picks
    assert "SUN, the Sun (yellow): faces 6 7 8 9 10 smile" in lines


def test_the_roll_says_the_number_and_the_faces_and_only_this_levels_rules():
    """The roll's help said "see the board" for the Number (a phone player rolled the Sun,
    6 to 10, against a 5 from the example) and told a level 1 game of level 5's rules."""
    state = table(1, {"P1": {"garden": ["SUN", "MOSS"]}, "P2": {"garden": ["OAK"]}},
                  number=5)
    state["pending"] = {"kind": "roll", "seat": "P1"}
    prompt = ENGINE.decision(state).prompts["P1"]
    lines = prompt["help"].split("\n")
    assert lines[0].startswith("The Number is 5: roll no higher or you lose the round.")
    assert "SUN, the Sun (yellow): faces 6 7 8 9 10 smile" in lines[1:]
    assert "Never the die of your last main roll" not in prompt["help"]
    five = table(5, {"P1": {"garden": ["SUN", "MOSS"]}, "P2": {"garden": ["OAK"]}})
    five["pending"] = {"kind": "roll", "seat": "P1"}
    help_five = ENGINE.decision(five).prompts["P1"]["help"]
    assert help_five.startswith("No Number stands: your roll sets it.")
    assert "Never the die of your last main roll" in help_five
