"""The order help a player sees is correct and complete: every form's example is an
order that seat could send at that moment, every action of the order language is
offered to the side that may give it, and the guess counts shown are the ones that
will count."""

from __future__ import annotations

import random

import pytest

from games.core.replay import run_setup, run_turn, secret_rng
from games.core.types import OrdersInvalid
from games.duelists.engine import ENGINE
from gm.web.prompts import PLACEHOLDER, form_help

from .helpers import duel, seat

ATTACKER_FORMS = ("PLAN ", "SET ", "IF DEFEND LEFT THEN SET", "IF GUESSES <",
                  "EXHAUST ARMOR <n>|ALL", "IF DECK >", "STANDING <order>", "CANCEL STANDING")
DEFENDER_FORMS = ("DEFEND LEFT GUESS", "DEFEND SECOND GUESS", "ABSORB FROM DECK",
                  "ABSORB HAND <card>", "IF DAMAGE > <n> THEN ABSORB",
                  "EXHAUST ARMOR <n>|ALL BEFORE ABSORB",
                  "IF DAMAGE > <n> THEN EXHAUST ARMOR ALL BEFORE ABSORB",
                  "EXHAUST ARMOR <n>|ALL", "IF DECK >", "STANDING <order>", "CANCEL STANDING")


def _parses(state, who, text) -> str:
    try:
        ENGINE.parse_orders(state, who, text)
    except OrdersInvalid as exc:
        return exc.errors[0].message
    return ""


def _walk(seed: int):
    rnd = random.Random(seed)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    secret = f"{seed:016x}" * 4
    state = run_setup(ENGINE, ["P1", "P2"], {}, secret_rng(secret, None)).state
    for number in range(1, 120):
        decision = ENGINE.decision(state)
        if decision is None:
            return
        yield state, decision
        orders = {s: ENGINE.parse_orders(state, s, ENGINE.random_orders(state, s, pick))
                  for s in decision.seats}
        state = run_turn(ENGINE, state, orders, secret_rng(secret, number)).state


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_form_example_is_an_order_the_seat_could_send(seed):
    checked = 0
    for state, decision in _walk(seed):
        for who, prompt in decision.prompts.items():
            for choice in prompt["choices"]:
                if not PLACEHOLDER.search(choice):
                    continue
                example = form_help(choice).example
                assert example, f"form without an example: {choice}"
                problem = _parses(state, who, example)
                owed = state["awaiting"][who]
                if problem.startswith("this decision needs"):
                    # an extra line sent with the answer to a decision arising
                    answer = [line for line in prompt["example"].splitlines()
                              if line.startswith(owed.upper())]
                    problem = _parses(state, who, "\n".join(answer + [example]))
                assert problem == "", (choice, problem)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("seed", [1, 2])
def test_every_action_is_offered_to_the_side_that_may_give_it(seed):
    seen = {"attacker": set(), "defender": set()}
    for state, decision in _walk(seed):
        if decision.phase != "turn" or len(decision.seats) != 2:
            continue
        for who, prompt in decision.prompts.items():
            side = "attacker" if state["turn"]["attacker"] == who else "defender"
            for choice in prompt["choices"]:
                for form in (ATTACKER_FORMS if side == "attacker" else DEFENDER_FORMS):
                    if choice.startswith(form):
                        seen[side].add(form)
            if side == "attacker":
                assert not any(c.startswith(("DEFEND", "ABSORB")) for c in prompt["choices"])
            else:
                assert not any(c.startswith(("PLAN", "SET", "IF DEFEND", "IF GUESSES"))
                               for c in prompt["choices"])
    assert seen["attacker"] == set(ATTACKER_FORMS)
    assert seen["defender"] == set(DEFENDER_FORMS)


def _up(name):
    return {"name": name, "up": True}


def test_the_guess_count_shown_is_the_one_that_counts():
    """Feint after a card without a Stab attack takes a guess: the prompt says so."""
    p1 = seat("isdra", hand=["Lunge", "Flurry", "Armor", "Armor"], deck=["Armor"] * 6,
              queue=[_up("Crossed Blades"), "Feint", "Lunge"])
    p2 = seat("nathrax", hand=["Armor", "Spear Charge"], deck=["Armor"] * 3,
              queue=[_up("Fur Guard"), "Spear Thrust", "Haft Strike"])
    state = duel(p1, p2)
    choices = ENGINE.decision(state).prompts["P2"]["choices"]
    left = next(c for c in choices if c.startswith("DEFEND LEFT"))
    assert left.startswith("DEFEND LEFT GUESS <2 number(s) from 2-5>")  # Slash 3, -1
    assert "Feint" in left and form_help(left).example == "DEFEND LEFT GUESS 2 3"
    second = next(c for c in choices if c.startswith("DEFEND SECOND"))
    assert second.startswith("DEFEND SECOND GUESS <1 number(s)") and "Defended!" in second


def test_blinded_shows_in_the_guess_count_of_the_first_attack():
    p1 = seat("nathrax", hand=["Armor"] * 4, deck=["Armor"] * 4,
              queue=[_up("Fur Guard"), "Spear Thrust", "Haft Strike"], tokens={"blinded": 1})
    p2 = seat("harys", hand=["Armor"] * 4, deck=["Armor"] * 6,
              queue=[_up("Calm Mind"), "Magical Barrage", "Palm Strike"])
    state = duel(p1, p2, attacker="P2")
    left = next(c for c in ENGINE.decision(state).prompts["P1"]["choices"]
                if c.startswith("DEFEND LEFT"))
    assert left.startswith("DEFEND LEFT GUESS <1 number(s)") and "-2 Blinded!" in left


def test_the_starters_first_turn_offers_no_plan_and_a_card_without_attack_no_set():
    p1 = seat("isdra", hand=["Lunge"] * 2, deck=["Armor"] * 6,
              queue=[_up("Quick Stab"), "Feint", "Lunge"])
    p2 = seat("nathrax", hand=["Armor"] * 4, deck=["Armor"] * 6,
              queue=["Fur Guard", "Spear Thrust", "Haft Strike"])
    first = ENGINE.decision(duel(p1, p2, first=True)).prompts["P1"]
    assert not any(c.startswith("PLAN") for c in first["choices"])
    assert "nothing to PLAN" in first["help"]
    p1 = seat("isdra", hand=["Lunge"] * 2, deck=["Armor"] * 6,
              queue=[_up("Quick Stab"), "Crossed Blades", "Lunge"])
    idle = ENGINE.decision(duel(p1, p2)).prompts["P1"]
    assert idle["title"].endswith("your left-most card has no attack")
    assert not any(c.startswith(("SET", "IF DEFEND", "IF GUESSES")) for c in idle["choices"])
    assert any(c.startswith("PLAN") for c in idle["choices"])


def test_a_spear_charge_offers_no_hand_absorb():
    p1 = seat("nathrax", hand=["Armor"] * 4, deck=["Armor"] * 4,
              queue=[_up("Fur Guard"), "Spear Charge", "Haft Strike"])
    p2 = seat("isdra", hand=["Lunge", "Armor"], deck=["Armor"] * 6,
              queue=[_up("Quick Stab"), "Feint", "Lunge"])
    prompt = ENGINE.decision(duel(p1, p2)).prompts["P2"]
    assert not any(c.startswith("ABSORB HAND") for c in prompt["choices"])
    assert "ABSORB FROM DECK" in prompt["choices"] and "Spear Charge" in prompt["help"]


def test_two_one_card_absorb_buttons_against_one_hit_say_how_to_list_several():
    p1 = seat("isdra", hand=["Lunge", "Armor"], deck=["Armor"] * 6,
              queue=[_up("Crossed Blades"), "Quick Stab", "Lunge"])
    p2 = seat("nathrax", hand=["Armor", "Spear Charge"], deck=["Armor"] * 3,
              queue=[_up("Fur Guard"), "Spear Thrust", "Haft Strike"])
    state = duel(p1, p2)
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "P2", "ABSORB HAND Armor\nABSORB HAND Spear Charge")
    (error,) = exc.value.errors
    assert error.line == 2 and "ABSORB HAND Armor, Armor" in error.hint


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_absorb_examples_name_cards_the_seat_holds(seed):
    """The parser takes any card in ABSORB HAND (the hand may change before the hit), so
    'parses' did not catch the stock 'ABSORB HAND Armor, Armor' shown to a seat with no
    armor: the examples are made from the seat's own hand."""
    from collections import Counter

    from games.duelists.orders import cards_in_hand

    checked = 0
    for state, decision in _walk(seed):
        for who, prompt in decision.prompts.items():
            hand = Counter(cards_in_hand(state, who))
            for choice in prompt["choices"]:
                example = form_help(choice).example if PLACEHOLDER.search(choice) else ""
                if "ABSORB HAND " not in example:
                    continue
                named = example.split("ABSORB HAND ", 1)[1].split(" ELSE ")[0]
                assert not Counter(c.strip() for c in named.split(",")) - hand, (example, hand)
                checked += 1
    assert checked


def test_the_champion_choice_says_what_each_champion_is():
    """On a phone the choice read only "CHAMPION Isdra / Nathrax / Harys": a new player
    had to go to the README to learn who is who. The help has a line per champion still
    free, drawn from its deck."""
    state = run_setup(ENGINE, ["P1", "P2"], {}, secret_rng("ab" * 32, None)).state
    decision = ENGINE.decision(state)
    (who,) = decision.seats
    prompt = decision.prompts[who]
    lines = prompt["help"].split("\n")
    free = [c.removeprefix("CHAMPION ") for c in prompt["choices"]]
    assert [line.split(",")[0] for line in lines[1:]] == [f"CHAMPION {n}" for n in free]
    assert "the dagger huntress" in prompt["help"] and "Quick Stab x4" in prompt["help"]
    assert "10 armor" in lines[1]
