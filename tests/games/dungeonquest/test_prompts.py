"""The order help a seat sees (web form, mail): only what that hero can do, nothing of others.

Last session the forms ended with "USE RING OF <name> ... (e.g. USE RING OF BLINDING)"
for every hero, though only a hero who found that ring may use it (the parser refuses
the line for anyone else), and the answers listed SHOOT to heroes with no bow.
"""

from __future__ import annotations

import random

import pytest

from games.core.canonical import canonical_json
from games.core.replay import run_setup, run_turn, secret_rng
from games.dungeonquest.engine import ENGINE
from gm.web.prompts import PLACEHOLDER, form_help, parses

from .helpers import make_state


def forms_of(prompt):
    return [form_help(c) for c in prompt["choices"] if PLACEHOLDER.search(c)]


def test_a_hero_without_the_ring_of_blinding_is_never_shown_it():
    st = make_state(1)  # the knight: the Ring of Healing
    assert st["chars"]["P1"]["rings"] == ["healing"]
    prompt = ENGINE.decision(st).prompts["P1"]
    assert "BLINDING" not in canonical_json(prompt)
    ring = next(f for f in forms_of(prompt) if f.form.startswith("USE RING"))
    assert ring.example == "USE RING OF HEALING"
    assert parses(ENGINE, st, "P1", ring.example) == ""


def test_the_ring_form_follows_the_rings_carried():
    st = make_state(1)
    st["chars"]["P1"]["rings"] = ["blinding", "healing"]
    prompt = ENGINE.decision(st).prompts["P1"]
    ring = next(f for f in forms_of(prompt) if f.form.startswith("USE RING"))
    assert ring.example == "USE RING OF BLINDING" and "HEALING" in ring.note
    st["chars"]["P1"]["rings"] = []  # every ring spent: no ring form at all
    prompt = ENGINE.decision(st).prompts["P1"]
    assert not any("RING" in c for c in prompt["choices"])


def test_shoot_and_drink_are_offered_only_to_who_can():
    st = make_state(1)  # the knight has no bow
    text = canonical_json(ENGINE.decision(st).prompts["P1"])
    assert "SHOOT" not in text and "DRINK POTION" not in text
    ranger = make_state(1, first_hero="ranger")
    ranger["chars"]["P1"]["potion"] = True
    text = canonical_json(ENGINE.decision(ranger).prompts["P1"])
    assert "SHOOT" in text and "DRINK POTION" in text


def test_a_seats_help_tells_nothing_of_what_another_seat_holds():
    st = make_state(3)
    mine = ENGINE.decision(st).prompts["P1"]
    other = ENGINE.from_json(ENGINE.to_json(st))
    other["chars"]["P2"].update(rings=["blinding", "vision", "transformation"], potion=True,
                                rope=True)
    other["chars"]["P3"].update(rings=[], potion=True)
    assert ENGINE.decision(other).prompts["P1"] == mine
    assert not {"BLINDING", "VISION", "TRANSFORMATION"} & set(
        canonical_json(mine).replace('"', " ").replace(")", " ").split())


@pytest.mark.parametrize("seed", range(3))
def test_every_example_in_the_help_parses_for_that_seat(seed):
    """Random games: each form's example and the prompt's own example, as shown."""
    rnd = random.Random(seed)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    seats = ENGINE.seat_names(rnd.randint(1, 4))
    secret = f"{seed:016x}" * 4
    state = run_setup(ENGINE, seats, ENGINE.new_game_options({"hero_choice": "assigned"}),
                      secret_rng(secret, None)).state
    checked = 0
    for number in range(1, 40):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        for seat, prompt in decision.prompts.items():
            shown = [f.example for f in forms_of(prompt) if f.example] + [prompt["example"]]
            for example in shown:
                assert parses(ENGINE, state, seat, example) == "", (seat, example)
                checked += 1
        orders = {s: ENGINE.parse_orders(state, s, ENGINE.random_orders(state, s, pick))
                  for s in decision.seats}
        state = run_turn(ENGINE, state, orders, secret_rng(secret, number)).state
    assert checked > 20


def test_the_example_never_walks_the_hero_out_through_a_tower():
    """Played on a phone: the knight on J2 (a corridor north-south under his tower) was
    shown "MOVE NORTH" as the example, sent it and was out of the dungeon on turn 2 with
    no gold. The example goes deeper in, and the help says which step leaves."""
    from .helpers import place, put

    st = make_state(1)
    place(st, "A2", "corridor-straight", "S")  # north-south, under the tower A1
    put(st, "P1", "A2", entry="N", prev="A1")
    prompt = ENGINE.decision(st).prompts["P1"]
    assert prompt["choices"][:2] == ["MOVE NORTH", "MOVE SOUTH"]  # leaving is a choice
    assert prompt["example"].startswith("MOVE SOUTH\n")
    assert "MOVE NORTH steps into the corner tower A1" in prompt["help"]
    assert parses(ENGINE, st, "P1", prompt["example"]) == ""


def test_the_example_answers_any_decision_arising_first():
    """The example answered a monster (ATTACK) but not a crypt or a body, which the help
    names as the decision from last turn."""
    from .helpers import place, put

    st = make_state(1)
    place(st, "B1", "corridor-cross", "E")
    put(st, "P1", "B1", entry="W", prev="A1", pending={"type": "crypt", "square": "B1"})
    prompt = ENGINE.decision(st).prompts["P1"]
    assert "Decision from last turn: a crypt lies in B1" in prompt["help"]
    assert prompt["example"].startswith("SEARCH CRYPT\nMOVE ")
    assert parses(ENGINE, st, "P1", prompt["example"]) == ""
