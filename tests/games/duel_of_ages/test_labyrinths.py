"""Labyrinths: challenging the guardian from one's guardian position (with the age
bonus), the results in order, defeat moving the position toward the entrance, chain
reactions, begging for mercy, card draws kept secret, and the points at the end.

The colonial labyrinth runs D7 (entrance), D8, D9 (red eye); its guardian deck, unless a
test says otherwise, is sorted: DUELLING_MASTER (Melee vs green) on top."""

import pytest

from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play


def g(*dice):
    return [("guardian", d) for d in dice]


@pytest.mark.parametrize("who, dice, number, level, pos, cards, where", [
    # KORVATH (colonial? no: ancient) Melee yellow vs green = 8, no age bonus
    ("KORVATH", (2, 3), 8, "PASS", 1, 1, "dismissed"),
    ("KORVATH", (1, 1), 8, "AMAZE", 1, 2, "dismissed"),
    ("KORVATH", (4, 4), 8, "SQUEAK", 1, 0, "dismissed"),
    ("KORVATH", (5, 5), 8, "FAIL", 2, 0, "banished"),
    # OBED is colonial: Melee blue vs green = 6, +1 for his age = 7
    ("OBED", (3, 4), 7, "SQUEAK", 1, 0, "dismissed"),
])
def test_challenge(who, dice, number, level, pos, cards, where):
    state = make({who: ("White", "D9", [])})
    script = g(*dice) + [(f"{where}/{who}", 1)]
    after, events = play(state, {"White": f"CHALLENGE {who}"}, script)
    seen = kinds(events, "guardian")[0]
    assert (seen["number"], seen["level"]) == (number, level)
    assert after["labyrinths"]["colonial"]["positions"] == {"White": pos, "Black": 2}
    assert len(after["chars"][who]["cards"]) == cards
    assert kinds(events, "placed")[0]["how"] == where
    defeated = pos == 1
    assert after["labyrinths"]["colonial"]["deck"][-1 if defeated else 0] == "DUELLING_MASTER"
    assert after["labyrinths"]["colonial"]["face_up"] is (not defeated)


def test_only_from_ones_own_guardian_position():
    state = make({"KORVATH": ("White", "D8", [])})
    _, events = play(state, {"White": "CHALLENGE KORVATH"}, [])
    assert kinds(events, "guardian") == []


def test_chain_reaction():
    # KORVATH defeats the guardian from D9; the position moves to D8 where SEVEN waits
    # with his own CHALLENGE order: he takes on the next guardian (POWDER_MAGAZINE,
    # Wits blue vs blue = 7) at once.
    state = make({"KORVATH": ("White", "D9", []), "SEVEN": ("White", "D8", [])})
    script = g(2, 3) + [("dismissed/KORVATH", 1)] + g(3, 3) + [("dismissed/SEVEN", 2)]
    after, events = play(state, {"White": "CHALLENGE KORVATH\nCHALLENGE SEVEN"}, script)
    assert [e["char"] for e in kinds(events, "guardian")] == ["KORVATH", "SEVEN"]
    assert after["labyrinths"]["colonial"]["positions"]["White"] == 0


def test_a_position_at_the_entrance_does_not_move():
    # White's position is already at the entrance D7: a defeat leaves it there
    state = make({"KORVATH": ("White", "D7", [])},
                 labyrinths={"colonial": {"positions": {"White": 0, "Black": 2}}})
    after, events = play(state, {"White": "CHALLENGE KORVATH"},
                         g(2, 3) + [("dismissed/KORVATH", 1)])            # PASS
    assert kinds(events, "guardian")[0]["level"] == "PASS"
    assert after["labyrinths"]["colonial"]["positions"] == {"White": 0, "Black": 2}
    assert after["labyrinths"]["colonial"]["deck"][-1] == "DUELLING_MASTER"


def test_a_chain_reaction_in_the_same_space_after_a_failure():
    # the position does not move (KORVATH fails) and SEVEN shares it: he challenges the
    # same guardian, still face up, at once
    state = make({"KORVATH": ("White", "D9", []), "SEVEN": ("White", "D9", [])})
    script = g(5, 5) + [("banished/KORVATH", 1)] + g(5, 5) + [("banished/SEVEN", 2)]
    _, events = play(state, {"White": "CHALLENGE KORVATH\nCHALLENGE SEVEN"}, script)
    seen = kinds(events, "guardian")
    assert [(e["char"], e["guardian"]) for e in seen] == [("KORVATH", "DUELLING_MASTER"),
                                                         ("SEVEN", "DUELLING_MASTER")]


def test_begging_for_mercy():
    state = make({"KORVATH": ("White", "D9", [])},
                 labyrinths={"colonial": {"face_up": True}})
    after, events = play(state, {"White": "MERCY KORVATH"}, [("dismissed/KORVATH", 3)])
    assert after["labyrinths"]["colonial"]["deck"][-1] == "DUELLING_MASTER"
    assert after["labyrinths"]["colonial"]["face_up"] is False
    assert after["chars"]["KORVATH"]["space"] == "A5"


def test_drawn_cards_are_secret():
    state = make({"KORVATH": ("White", "D9", [])})
    after, events = play(state, {"White": "CHALLENGE KORVATH"},
                         g(1, 1) + [("dismissed/KORVATH", 1)])
    drawn = [e["card"] for e in after["chars"]["KORVATH"]["cards"]]
    assert drawn == state["deck"][:2]
    titles = [ENGINE.report(events, r) for r in ("White", "Black", None)]
    from games.duel_of_ages import catalog
    name = catalog.card(drawn[0])["title"]
    assert name in titles[0] and name not in titles[1] and name not in titles[2]
    assert ENGINE.view(after, "Black")["chars"]["KORVATH"]["unrevealed"] == 2


def test_the_face_up_guardian_is_public_and_the_rest_hidden():
    state = make({"KORVATH": ("White", "D9", [])},
                 labyrinths={"colonial": {"face_up": True}})
    view = ENGINE.view(state, "Black")["labyrinths"]["colonial"]
    assert view == {"positions": {"White": 2, "Black": 2}, "cards": 10,
                    "guardian": "DUELLING_MASTER",
                    "faces": ["DUELLING_MASTER"] + [None] * 9}
    assert "deck" in ENGINE.view(state, "*")["labyrinths"]["colonial"]


@pytest.mark.parametrize("white_pos, black_pos, white, black, winner", [
    (1, 2, 1, 2, None),          # labyrinth point to White, survivor point to Black: tie
    (0, 2, 2, 1, "White"),       # both points to White
    (2, 1, 2, 2, "Black"),       # only the labyrinth point
])
def test_points_at_the_end(white_pos, black_pos, white, black, winner):
    chars = {k: ("White", s, []) for k, s in [("DEX", "B1"), ("INES", "B2")][:white]}
    chars.update({k: ("Black", s, []) for k, s in [("TAMSIN", "J4"), ("SEVEN", "J5")][:black]})
    state = make(chars, active="Black", round_=10, rounds=10,
                 labyrinths={"modern": {"positions": {"White": white_pos,
                                                      "Black": black_pos}}})
    after, _ = play(state, {"Black": ""}, [])
    assert after["over"] is (winner is not None)
    assert after["winner"] == winner


def test_an_amaze_bonus_heals():
    # The Powder Magazine (Wits vs blue) heals 2 on an AMAZE, after the card draws.
    state = make({"OBED": ("White", "D9", [], 3)})
    deck = state["labyrinths"]["colonial"]["deck"]
    deck.insert(0, deck.pop(deck.index("POWDER_MAGAZINE")))
    after, events = play(state, {"White": "CHALLENGE OBED"},
                         g(1, 1) + [("dismissed/OBED", 1)])
    assert kinds(events, "guardian")[0]["results"][-1] == "heal 2"
    assert after["chars"]["OBED"]["health"] == 5
    assert "gains 2 health from the guardian's bonus" in ENGINE.report(events, None)
