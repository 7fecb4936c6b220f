"""Rules revision 4, each reading as a scenario table (state + orders -> outcome), played
by revision 4 and, where the old way differs, by revision 3 (which stored games replay).

The skirmish field: the colonial labyrinth runs D7 (entrance), D8, D9 (red eye), the
ancient one F3, F2, F1; the Tower of Maneuver is B9, the Great Vortex J9; domes 1 A1,
2 K1, 3 A5, 4 K5, 5 A9, 6 K9. The test decks (helpers.make) have DUELLING_MASTER on top
of the colonial deck, then POWDER_MAGAZINE, STORM_AT_SEA; BRONZE_WARDEN on top of the
ancient one.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.core.rng import Rng
from games.core.types import OrdersInvalid
from games.duel_of_ages import catalog
from games.duel_of_ages.engine import ENGINE

from .helpers import field, kinds, make, play


def _guardian(*dice: int) -> list[tuple[str, int]]:
    return [("guardian", d) for d in dice]


# -- (a) a guardian's face ---------------------------------------------------------------
#
# A guardian is turned face up when a character first challenges it, and from then on
# both teams (and the public) see it. Defeated, it goes face up under its deck; begged
# away, it goes under with the face it had. From revision 4 it keeps that face in the
# deck: when the deck comes round to a guardian turned up before, it lies face up on top
# for both teams to see, and the next challenger faces it without turning a card.
# Revision 3 and before took every card that came to the top as face down.

COLONIAL = ["DUELLING_MASTER", "POWDER_MAGAZINE", "STORM_AT_SEA"]


@pytest.mark.parametrize("revision, shown, orders, script, revealed, top, faces_end", [
    # a face-down guardian is turned up by the challenge, defeated, goes face up under;
    # the next one is face down
    (4, [], "CHALLENGE KORVATH", _guardian(1, 1) + [("dismissed/KORVATH", 1)],
     True, None, "DUELLING_MASTER"),
    # the next one was turned up before (defeated on an earlier round of the deck): it
    # comes to the top face up, shown to both teams
    (4, ["POWDER_MAGAZINE"], "CHALLENGE KORVATH",
     _guardian(1, 1) + [("dismissed/KORVATH", 1)], True, "POWDER_MAGAZINE",
     "DUELLING_MASTER"),
    # revision 3: the card coming round is taken as face down
    (3, None, "CHALLENGE KORVATH", _guardian(1, 1) + [("dismissed/KORVATH", 1)],
     None, None, None),
    # begging for mercy before anyone challenged: the guardian goes under unseen
    (4, [], "MERCY KORVATH", [("dismissed/KORVATH", 1)], None, None, None),
    # begging for mercy with the next one face up: it shows
    (4, ["POWDER_MAGAZINE"], "MERCY KORVATH", [("dismissed/KORVATH", 1)], None,
     "POWDER_MAGAZINE", None),
])
def test_a_guardian_keeps_its_face_in_the_deck(revision, shown, orders, script, revealed,
                                               top, faces_end):
    labyrinths: dict[str, Any] = {}
    if shown is not None:
        labyrinths = {"colonial": {"shown": shown}}
    state = make({"KORVATH": ("White", "D9", [])}, revision=revision, labyrinths=labyrinths)
    after, events = play(state, {"White": orders}, script)
    lab = after["labyrinths"]["colonial"]
    assert lab["face_up"] is (top is not None)
    for seat in ("White", "Black", None):
        seen = ENGINE.view(after, seat)["labyrinths"]["colonial"]
        assert seen["guardian"] == top
        assert seen["faces"][0] == top
        assert seen["faces"][-1] == faces_end          # under the deck, face up or not
        assert "deck" not in seen
    assert ENGINE.view(after, "*")["labyrinths"]["colonial"]["deck"] == \
        COLONIAL[1:] + [g for g in lab["deck"] if g not in COLONIAL] + COLONIAL[:1]
    if revealed is not None:
        assert kinds(events, "guardian")[0]["revealed"] is revealed
    report = ENGINE.report(events, "Black")
    if top:
        assert f"Next in that labyrinth, face up: {catalog.guardians()[top]['title']}" \
            in report
    else:
        assert "Next in that labyrinth" not in report


def test_a_guardian_face_up_on_top_is_faced_without_turning_a_card():
    state = make({"KORVATH": ("White", "D9", [])},
                 labyrinths={"colonial": {"face_up": True, "shown": ["DUELLING_MASTER"]}})
    assert ENGINE.view(state, "Black")["labyrinths"]["colonial"]["guardian"] == \
        "DUELLING_MASTER"
    _, events = play(state, {"White": "CHALLENGE KORVATH"},
                     _guardian(6, 6) + [("banished/KORVATH", 1)])          # FOPP
    assert kinds(events, "guardian")[0]["revealed"] is False
    assert "The Duelling Master, face up already," in ENGINE.report(events, None)


def test_the_face_down_guardians_are_the_only_hidden_ones():
    """No leak: every way of reordering what a team cannot see (the face-down guardians
    among themselves) leaves its view as it was; the face-up ones never move."""
    state = make({"KORVATH": ("White", "D9", [])},
                 labyrinths={"colonial": {"shown": ["POWDER_MAGAZINE", "STORM_AT_SEA"]}})
    lab = state["labyrinths"]["colonial"]
    lab["deck"] = lab["deck"][1:] + lab["deck"][:1]       # POWDER_MAGAZINE on top
    lab["face_up"] = True
    assert ENGINE.invariants(state) == []
    views = {seat: ENGINE.view(state, seat) for seat in ("White", "Black", None)}
    rng = Rng("perturb", "revision4")
    moved = 0
    for n in range(200):
        def pick(seq, n=n):
            items = list(seq)
            return items[rng.below(f"pick/{n}", len(items))]
        changed = ENGINE.perturb_hidden(state, "Black", pick)
        if changed is None:
            continue
        assert ENGINE.invariants(changed) == []
        assert ENGINE.view(changed, "Black") == views["Black"]
        new = changed["labyrinths"]["colonial"]["deck"]
        assert [g for g in new if g in ("POWDER_MAGAZINE", "STORM_AT_SEA")] == \
            [g for g in lab["deck"] if g in ("POWDER_MAGAZINE", "STORM_AT_SEA")]
        assert new.index("STORM_AT_SEA") == lab["deck"].index("STORM_AT_SEA")
        moved += new != lab["deck"]
    assert moved                                           # the hidden ones did move


# -- (b) the order of the Adventure phase -------------------------------------------------
#
# The team decides in which order its characters adventure. From revision 4 that is the
# order of its adventure lines (CHALLENGE, MERCY, HAVOC, MANEUVER; a character's first
# line places him), characters in a tower that no line names after them; a chain
# reaction goes at once. Revision 3 and before: every tower first, then the labyrinths.
# KORVATH stands in the Tower of Maneuver (Strength yellow vs blue 9: 4+5 SQUEAK, an ally
# dismissed and he banished); SEVEN on the colonial red eye (12: a FOPP, lose all and
# banished); OBED on the ancient red eye.

M = {"KORVATH": ("White", "B9", []), "SEVEN": ("White", "D9", [])}
SQUEAK = [("tower/KORVATH", 4), ("tower/KORVATH", 5)]


@pytest.mark.parametrize("revision, chars, orders, script, adventurers", [
    # the challenge written first goes first, then the tower (which dismisses SEVEN from
    # the dome he was banished to)
    (4, M, "CHALLENGE SEVEN\nMANEUVER KORVATH DISMISS SEVEN",
     _guardian(6, 6) + [("banished/SEVEN", 1)] + SQUEAK
     + [("dismissed/SEVEN", 2), ("banished/KORVATH", 3)],
     ["SEVEN", "KORVATH"]),
    # the tower written first: SEVEN is plucked off the red eye before his challenge
    (4, M, "MANEUVER KORVATH DISMISS SEVEN\nCHALLENGE SEVEN",
     SQUEAK + [("dismissed/SEVEN", 1), ("banished/KORVATH", 2)], ["KORVATH"]),
    # revision 3: the tower always first, whatever the order written
    (3, M, "CHALLENGE SEVEN\nMANEUVER KORVATH DISMISS SEVEN",
     SQUEAK + [("dismissed/SEVEN", 1), ("banished/KORVATH", 2)], ["KORVATH"]),
    # a character in a tower that no line names goes after the named ones
    (4, M, "CHALLENGE SEVEN",
     _guardian(6, 6) + [("banished/SEVEN", 1)] + SQUEAK
     + [("dismissed/SEVEN", 2), ("banished/KORVATH", 3)],
     ["SEVEN", "KORVATH"]),
    (3, M, "CHALLENGE SEVEN",
     SQUEAK + [("dismissed/SEVEN", 1), ("banished/KORVATH", 2)], ["KORVATH"]),
    # a chain reaction goes at once, before the rest of the written order: KORVATH
    # defeats the colonial guardian (AMAZE), the position moves under SEVEN on D8, who
    # challenges the next one before OBED takes on the ancient guardian
    (4, {"KORVATH": ("White", "D9", []), "OBED": ("White", "F1", []),
         "SEVEN": ("White", "D8", [])},
     "CHALLENGE KORVATH\nCHALLENGE OBED\nCHALLENGE SEVEN",
     _guardian(1, 1) + [("dismissed/KORVATH", 1)] + _guardian(6, 6)
     + [("banished/SEVEN", 2)] + _guardian(6, 6) + [("banished/OBED", 3)],
     ["KORVATH", "SEVEN", "OBED"]),
    (3, {"KORVATH": ("White", "D9", []), "OBED": ("White", "F1", []),
         "SEVEN": ("White", "D8", [])},
     "CHALLENGE KORVATH\nCHALLENGE OBED\nCHALLENGE SEVEN",
     _guardian(1, 1) + [("dismissed/KORVATH", 1)] + _guardian(6, 6)
     + [("banished/OBED", 2)] + _guardian(6, 6) + [("banished/SEVEN", 3)],
     ["KORVATH", "OBED", "SEVEN"]),
    # the chain reaches a character whose line came first, when the position moves
    # under him later
    (4, {"KORVATH": ("White", "D9", []), "SEVEN": ("White", "D8", [])},
     "CHALLENGE SEVEN\nCHALLENGE KORVATH",
     _guardian(1, 1) + [("dismissed/KORVATH", 1)] + _guardian(6, 6)
     + [("banished/SEVEN", 2)], ["KORVATH", "SEVEN"]),
])
def test_the_team_orders_its_adventures(revision, chars, orders, script, adventurers):
    state = make(dict(chars), revision=revision)
    _, events = play(state, {"White": orders}, script)
    assert [e.data["char"] for e in events if e.kind in ("guardian", "tower")] == adventurers


# -- (d) the Great Vortex ------------------------------------------------------------------
#
# A Yellow challenge of Strength or Wits, the challenger's choice. Both face the same
# colour and the same result list, whose levels are ordered from worst to best, so the
# better rating is at least as likely to reach every level: it is the choice a challenger
# makes, and the engine makes it for him (either, when they are equal). Healing only
# mends wounds: up to 1, 2 or 4 health, never past the maximum.

@pytest.mark.parametrize("who, health, dice, rating, number, level, after_health", [
    ("KORVATH", 3, (3, 4), "strength", 7, "SQUEAK", 4),    # yellow Strength, red Wits
    ("INES", 2, (3, 4), "wits", 8, "PASS", 4),              # blue Strength, white Wits
    ("HOLLIS", 5, (1, 1), "strength", 6, "AMAZE", 6),       # green and green: 4 healed
    ("INES", 5, (1, 1), "wits", 8, "AMAZE", 5),             # not wounded: nothing healed
    ("INES", 1, (6, 6), "wits", 8, "FOPP", 0),              # 1 damage kills him
])
def test_the_great_vortex(who, health, dice, rating, number, level, after_health):
    state = make({who: ("White", "J9", ["SLING"], health), "TAMSIN": ("Black", "A3", [])})
    script = [(f"tower/{who}", d) for d in dice]
    if after_health:
        script.append((f"banished/{who}", 1))
    after, events = play(state, {"White": "", "Black": ""}, script)
    seen = kinds(events, "tower")[0]
    assert (seen["tower"], seen["rating"], seen["number"], seen["level"]) == \
        ("vortex", rating, number, level)
    c = after["chars"][who]
    assert c["health"] == after_health
    assert c["status"] == ("map" if after_health else "dead")
    assert [e["card"] for e in c["cards"]] == ([] if level == "FOPP" else ["SLING"])
    if after_health:
        assert kinds(events, "placed")[0] == {"char": who, "how": "banished", "die": 1,
                                              "roller": "Black", "space": "A1"}


# -- (c) a trade on the way ----------------------------------------------------------------
#
# Trading costs each trader 2 move points in one space during the Move phase; nothing
# ends his movement. From revision 4 a TRADE waypoint in a MOVE carries out, there and
# then, the trades of his TRADE lines with team-mates in his space (each spends 2), and
# he walks on with what is left; a team-mate who has not moved yet starts his own move 2
# points down. TRADE lines no waypoint reached are carried out after every move, as in
# revision 3, where every trade waited for the end of the Move phase (so a trade was the
# end of a trader's movement).
# A row of clear spaces A1-H1; DEX (Speed 7, the Sling) and INES (Speed 6, the Spear).

ROW = field(". . . . . . . .")


@pytest.mark.parametrize("dex, ines, orders, end_dex, end_ines, traded", [
    # on to F1 after trading at C1: 2 + 2 + 3 = 7 points
    ("A1", "C1", "MOVE DEX TO C1 TRADE F1", "F1", "C1", True),
    # the trade's points are spent: he cannot reach H1 (would need 9)
    ("A1", "C1", "MOVE DEX TO C1 TRADE H1", "F1", "C1", True),
    # INES moves after the trade, 2 points down: 4 of her 6 take her to G1, not H1
    ("A1", "C1", "MOVE DEX TO C1 TRADE\nMOVE INES TO H1", "C1", "G1", True),
    # INES moved first and kept 4 points: she pays 2 of them; DEX, 4 + 2 spent, has 1
    # left for F1 (G1 is out of reach)
    ("A1", "C1", "MOVE INES TO E1\nMOVE DEX TO E1 TRADE G1", "F1", "E1", True),
    # INES moved first and kept only 1 point: no trade, and DEX walks on
    ("A1", "A1", "MOVE INES TO F1\nMOVE DEX TO F1 TRADE H1", "H1", "F1", False),
    # a trade in his starting space, then on (he is a target there: see below)
    ("A1", "A1", "MOVE DEX TO TRADE F1", "F1", "A1", True),
    # no waypoint: the trade waits for the end of the phase, as before
    ("A1", "C1", "MOVE DEX TO C1\nMOVE INES TO C1", "C1", "C1", True),
])
def test_a_trade_does_not_end_movement(dex, ines, orders, end_dex, end_ines, traded):
    state = make({"DEX": ("White", dex, ["SLING"]), "INES": ("White", ines, ["SPEAR"])},
                 map_=ROW)
    after, events = play(state, {"White": orders + "\nTRADE DEX WITH INES GIVE SLING"}, [])
    assert after["chars"]["DEX"]["space"] == end_dex
    assert after["chars"]["INES"]["space"] == end_ines
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == \
        (["SPEAR", "SLING"] if traded else ["SPEAR"])
    assert bool(kinds(events, "trade")) is traded


def test_revision_3_has_no_trade_on_the_way():
    state = make({"DEX": ("White", "A1", ["SLING"]), "INES": ("White", "C1", ["SPEAR"])},
                 map_=ROW, revision=3)
    with pytest.raises(OrdersInvalid) as caught:
        ENGINE.parse_orders(state, "White", "MOVE DEX TO C1 TRADE F1")
    assert "rules revision 4" in caught.value.errors[0].message
    # the same trade written alone: at the end of the phase, where DEX no longer is
    after, events = play(state, {"White": "MOVE DEX TO C1 F1\n"
                                          "TRADE DEX WITH INES GIVE SLING"}, [])
    assert after["chars"]["DEX"]["space"] == "F1"
    assert kinds(events, "no_trade")[0]["why"] == "they are not in the same space"


def test_a_trade_on_the_way_is_undone_when_he_is_shot_before_it():
    # Black's TAMSIN (A7, Longbow) shoots DEX (1 health) in D8, on his way D9 -> D8 ->
    # D7 (the trade with INES) -> D6: he never reached the trade, so it never happened.
    state = make({"DEX": ("White", "D9", ["SLING"], 1), "INES": ("White", "D7", ["SPEAR"]),
                  "TAMSIN": ("Black", "A7", ["LONGBOW"])})
    kill = [("opfire/hit", 1), ("opfire/hit", 1), ("opfire/damage", 1), ("opfire/damage", 1)]
    after, events = play(state, {
        "White": "MOVE DEX TO D7 TRADE D6\nTRADE DEX WITH INES GIVE SLING TAKE SPEAR",
        "Black": "FIRE TAMSIN AT DEX IN D8"}, kill)
    assert [t["char"] for t in kinds(events, "trade")] == ["DEX"]     # made on the way
    assert kinds(events, "trade_undone") == [{"char": "DEX", "with": "INES"}]
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SPEAR"]
    assert [e["card"] for e in after["ground"]["D8"]] == ["SLING"]
    assert after["chars"]["DEX"]["status"] == "dead"


def test_a_trade_in_the_starting_space_makes_him_a_target_there():
    state = make({"DEX": ("White", "D9", ["SLING"], 1), "INES": ("White", "D9", ["SPEAR"]),
                  "TAMSIN": ("Black", "A7", ["LONGBOW"])})
    kill = [("opfire/hit", 1), ("opfire/hit", 1), ("opfire/damage", 1), ("opfire/damage", 1)]
    after, events = play(state, {
        "White": "MOVE DEX TO TRADE D6\nTRADE DEX WITH INES GIVE SLING\nHOLD INES",
        "Black": "FIRE TAMSIN AT DEX IN D9"}, kill)
    assert kinds(events, "attack")[0]["space"] == "D9"
    assert after["chars"]["DEX"]["status"] == "dead"
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SPEAR", "SLING"]


# -- the dome a character is placed in ------------------------------------------------------
#
# A dismissal or banishment roll names a number; the character goes to one of the empty
# domes of that number, placed by whoever rolls: his own team for a dismissal or a
# reinforcement, the enemy for a banishment. From revision 4 that team's CHOOSE DOME
# list (written in advance, in either team's orders) picks among them; without one, or
# in revision 3, the first of them. Two domes 6 (A1, C1), a dome 1 (E1), the Tower of
# Havoc G1 (the Amazon's Strength green vs green 7: a 10 FAILs, banished; a 7 SQUEAKs,
# the lone enemy loses his cards and she is dismissed).

DOMES = field("6 . 6 . 1 . T", towers={"G1": "havoc"})
AMAZON = {"AMAZON": ("White", "G1", []), "TYRANT": ("Black", "B1", [])}
FAIL = [("tower/AMAZON", 6), ("tower/AMAZON", 4), ("banished/AMAZON", 6)]
DISMISSED = [("tower/AMAZON", 3), ("tower/AMAZON", 4), ("dismissed/AMAZON", 6)]


@pytest.mark.parametrize("revision, chars, white, black, script, char, dome", [
    (4, AMAZON, "", "CHOOSE DOME C1", FAIL, "AMAZON", "C1"),      # Black places her
    (4, AMAZON, "CHOOSE DOME C1", "", FAIL, "AMAZON", "A1"),      # not White's to say
    (4, AMAZON, "", "CHOOSE DOME E1 C1", FAIL, "AMAZON", "C1"),   # no 1 rolled: next one
    (3, AMAZON, "", "CHOOSE DOME C1", FAIL, "AMAZON", "A1"),      # revision 3: the first
    (4, AMAZON, "CHOOSE DOME C1", "CHOOSE DOME A1", DISMISSED, "AMAZON", "C1"),  # White's
    (4, AMAZON, "", "CHOOSE DOME C1", DISMISSED, "AMAZON", "A1"),
    (4, {"INES": ("White", "reserve", []), "TYRANT": ("Black", "B1", [])},
     "CHOOSE DOME C1", "", [("reinforcement/INES", 6)], "INES", "C1"),
])
def test_the_placer_chooses_among_the_domes_of_the_number(revision, chars, white, black,
                                                         script, char, dome):
    state = make(dict(chars), map_=DOMES, revision=revision)
    after, _ = play(state, {"White": white, "Black": black}, script)
    assert after["chars"][char]["space"] == dome


def test_a_list_of_domes_came_with_revision_4():
    state = make(dict(AMAZON), map_=DOMES, revision=3)
    with pytest.raises(OrdersInvalid):
        ENGINE.parse_orders(state, "Black", "CHOOSE DOME C1 A1")
    state = make(dict(AMAZON), map_=DOMES)
    orders = ENGINE.parse_orders(state, "Black", "CHOOSE DOME C1 A1")
    assert orders.text == "CHOOSE DOME C1 A1"


# The moving team's prompt tells the two new ways of writing orders (a trade on the way,
# the adventure order) only in games that play them; a revision-3 game's prompt, which
# refuses a trade on the way, keeps the help it had.
@pytest.mark.parametrize("revision, told", [(4, True), (3, False)])
def test_the_moving_prompt_tells_revision_4s_orders(revision, told):
    state = make({"DEX": ("White", "A1", []), "INES": ("White", "A2", [])},
                 revision=revision)
    prompt = ENGINE.decision(state).prompts[state["seats"]["White"]]
    assert ("TRADE <space>" in prompt["help"]) is told
    assert ("order of your CHALLENGE" in prompt["help"]) is told
    if told:  # the form it names parses in such a game
        ENGINE.parse_orders(state, "White", "MOVE DEX TO C1 TRADE F1")
