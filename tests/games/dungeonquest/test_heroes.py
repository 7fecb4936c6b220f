"""Choosing heroes: "Players choose which of the characters they wish to play before making
their first move" - every seat, each hero once, with a documented default."""

from __future__ import annotations

import itertools

import pytest

from games.core.replay import secret_rng
from games.core.rng import ScriptedRng
from games.core.types import OrdersInvalid
from games.dungeonquest.engine import ENGINE


def opened(players: int = 4, **options):
    state, _ = ENGINE.setup(ENGINE.seat_names(players), ENGINE.new_game_options(options), secret_rng("heroes", None))
    return state


def choose(state, texts: dict[str, str | None], script=()):
    orders = {}
    for seat in state["seats"]:
        text = texts.get(seat)
        orders[seat] = (ENGINE.default_orders(state, seat) if text is None
                        else ENGINE.parse_orders(state, seat, text))
    rng = ScriptedRng(list(script))
    new, events = ENGINE.resolve(state, orders, rng)
    assert rng.remaining == 0
    assert ENGINE.invariants(new) == []
    return new, events


def heroes_of(state):
    return [state["chars"][s]["hero"] for s in state["seats"]]


def test_the_game_opens_with_every_seat_choosing():
    state = opened(3)
    decision = ENGINE.decision(state)
    assert decision.phase == "heroes" and decision.seats == ["P1", "P2", "P3"]
    assert "HERO RANGER" in decision.prompts["P2"]["choices"]
    assert ENGINE.view(state, "P1")["picking"] is True


@pytest.mark.parametrize("texts, script, expected", [
    # everyone gets his own choice
    ({"P1": "HERO RANGER", "P2": "HERO ADVENTURER", "P3": "HERO KNIGHT",
      "P4": "HERO BARBARIAN"}, [], ["ranger", "adventurer", "knight", "barbarian"]),
    # a contested hero: a d6 each, the loser takes his next preference
    ({"P1": "HERO RANGER KNIGHT", "P2": "HERO RANGER BARBARIAN"},
     [("hero/ranger/P1", 2), ("hero/ranger/P2", 6)],
     ["knight", "ranger", "barbarian", "adventurer"]),
    # ties roll again
    ({"P1": "HERO KNIGHT", "P2": "HERO KNIGHT"},
     [("hero/knight/P1", 4), ("hero/knight/P2", 4), ("hero/knight/P1", 5),
      ("hero/knight/P2", 1)], ["knight", "barbarian", "ranger", "adventurer"]),
    # no choice: the first hero nobody chose, in the order knight, barbarian, ...
    ({"P2": "HERO KNIGHT", "P4": "HERO BARBARIAN"}, [],
     ["ranger", "knight", "adventurer", "barbarian"]),
    # a loser with no other preference falls back on the default too
    ({"P1": "HERO ADVENTURER", "P2": "HERO ADVENTURER"},
     [("hero/adventurer/P1", 1), ("hero/adventurer/P2", 3)],
     ["knight", "adventurer", "barbarian", "ranger"]),
    ({}, [], ["knight", "barbarian", "ranger", "adventurer"]),
])
def test_each_seat_gets_a_distinct_hero(texts, script, expected):
    new, events = choose(opened(), texts, script)
    assert heroes_of(new) == expected
    assert new["picking"] is False and new["turn"] == 1
    assert ENGINE.decision(new).phase == "round 1 of 26"
    # each hero with his own sheet: Life Points, ring, arrows
    for seat, hero in zip(new["seats"], expected):
        ch = new["chars"][seat]
        assert ch["life"] == ch["max_life"] and len(ch["rings"]) == 1
        assert (ch["arrows"] > 0) == (hero == "ranger")


def test_the_default_order_starts_from_the_first_hero_option():
    new, _ = choose(opened(first_hero="ranger"), {"P3": "HERO RANGER"})
    assert heroes_of(new) == ["adventurer", "knight", "ranger", "barbarian"]


def test_no_two_seats_ever_play_the_same_hero():
    names = ["KNIGHT", "BARBARIAN", "RANGER", "ADVENTURER"]
    for combo in itertools.product(names + [None], repeat=3):
        state = opened(3)
        texts = {s: (f"HERO {h}" if h else None) for s, h in zip(state["seats"], combo)}
        orders = {s: (ENGINE.parse_orders(state, s, t) if t else ENGINE.default_orders(state, s))
                  for s, t in texts.items()}
        new, _ = ENGINE.resolve(state, orders, secret_rng("distinct", 1))
        assert len(set(heroes_of(new))) == 3 and ENGINE.invariants(new) == []


@pytest.mark.parametrize("text, canonical", [
    ("hero ranger", "HERO RANGER"),
    ("Play Sir Rohan", "HERO KNIGHT"),
    ("choose Ulf Grimhand, or El-Moran", "HERO BARBARIAN RANGER"),
    ("HERO Volrik the Brave", "HERO ADVENTURER"),
    ("hero El-Adoran the Ranger", "HERO RANGER"),
])
def test_heroes_are_named_as_the_rulebook_names_them(text, canonical):
    assert ENGINE.parse_orders(opened(), "P1", text).text == canonical


@pytest.mark.parametrize("text, hint", [
    ("HERO GANDALF", "KNIGHT"),
    ("HERO", "HERO RANGER"),
    ("MOVE EAST", "HERO"),
])
def test_a_bad_choice_is_refused_with_a_hint(text, hint):
    with pytest.raises(OrdersInvalid) as err:
        ENGINE.parse_orders(opened(), "P1", text)
    assert hint in err.value.errors[0].hint


def test_assigned_heroes_skip_the_choice():
    state = opened(2, hero_choice="assigned", first_hero="adventurer")
    assert state["picking"] is False and heroes_of(state) == ["adventurer", "knight"]
    assert ENGINE.decision(state).phase == "round 1 of 26"


def test_no_view_shows_a_hero_before_the_choice():
    state = opened(2)
    for viewer in (None, "P1", "P2", "*"):
        view = ENGINE.view(state, viewer)
        assert {c["hero"] for c in view["characters"].values()} == {None}
        assert "me" not in view and len(view["heroes"]) == 4
    assert ENGINE.board(ENGINE.view(state, None)).startswith("<svg")


def test_hero_is_an_order_word_of_the_game():
    """HERO is the order of turn 1 (the choice): the game's order words list it, so the
    "orders start with one of" hint names it and a mail's `HEOR KNIGHT` is one slip from
    an order word (read and refused, not skipped as a greeting). After the choice, HERO is
    refused with the reason, not as an unknown order."""
    from games.dungeonquest.orders import GRAMMAR
    from gm.mail.greetings import vocabulary

    assert "HERO" in GRAMMAR.keywords
    words = vocabulary(ENGINE)
    assert "HERO" in words.keywords and words.may_be_order("HEOR KNIGHT")
    state = opened(2)
    with pytest.raises(OrdersInvalid) as caught:
        ENGINE.parse_orders(state, "P1", "HEOR KNIGHT")
    assert "HERO" in caught.value.errors[0].hint
    state, _ = choose(state, {"P1": "HERO KNIGHT", "P2": "HERO RANGER"})
    assert not state.get("picking")
    with pytest.raises(OrdersInvalid) as caught:
        ENGINE.parse_orders(state, "P1", "HERO BARBARIAN")
    error = caught.value.errors[0]
    assert error.line == 1 and "unknown order" not in error.message
    assert "heroes are chosen before the first move" in error.message, error
