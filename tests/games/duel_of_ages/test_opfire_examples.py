"""The rulebook's five opportunity-fire examples, each on a small field built for it
(see `field`): the moving team is White, the opportunity firer A is OBED of Black.

The firer's orders are as a player writes them by mail: one FIRE line a shot, each
with its own AT (the primary target) and IN (the space). Where a choice is left open
the engine's rule is the README's: the best number to hit, the earliest space on a tie,
and movers in the order they moved.
"""

import pytest

from games.core.canonical import state_hash
from games.core.engine import REVISION

from .helpers import field, kinds, make, play

MISS = [("opfire/hit", 6), ("opfire/hit", 5)]
"""An 11: a miss that does not break the weapon."""

OPEN = field(". . . . .", ". . . . .", ". . . . .")


# -- Single target example ----------------------------------------------------------------
# C (INES) walks B2, C2 and into A's space D2; in C2 stand A's ally X (HOLLIS) and the
# enemy B (PSION), who does not move. A (OBED) has the Revolver: single target, OpFire 2.
# (The middle row: from D1, a line to B1 would run along the map's edge, a wall.)
SINGLE = {"OBED": ("Black", "D2", ["REVOLVER"]), "HOLLIS": ("Black", "C2", []),
          "PSION": ("White", "C2", []), "INES": ("White", "A2", [])}
C_WALKS = "MOVE INES TO B2 C2 D2\nHOLD INES\nHOLD PSION"
NO_MELEE = "\nHOLD OBED\nHOLD HOLLIS"
"""Melee is beside the point here: everyone sharing a space holds."""


@pytest.mark.parametrize("order, space", [
    ("FIRE OBED IN B2", "B2"),      # in the first space he passes through
    ("FIRE OBED IN C2", "C2"),      # or the second, crowded as it is: no random target
    ("FIRE OBED", "B2"),            # left open: the earliest of equal chances
])
def test_single_target_example(order, space):
    state = make(SINGLE, map_=OPEN)
    _, events = play(state, {"White": C_WALKS, "Black": order + NO_MELEE}, MISS)
    shots = kinds(events, "attack")
    # one shot only: never twice at C, never at B (who did not move), never in D2
    assert [(a["target"], a["space"]) for a in shots] == [("INES", space)]
    assert not kinds(events, "random_target")


@pytest.mark.parametrize("order, why", [
    ("FIRE OBED AT PSION", "no moving enemy in sight and range"),   # B did not move
    ("FIRE OBED IN D2", "no moving enemy in sight and range"),      # his own space
])
def test_single_target_example_shots_refused(order, why):
    state = make(SINGLE, map_=OPEN)
    _, events = play(state, {"White": C_WALKS, "Black": order + NO_MELEE}, [])
    assert not kinds(events, "attack")
    assert kinds(events, "no_shot")[0]["why"] == why


# -- Area target example -----------------------------------------------------------------
# A (OBED, the Flamer: area, OpFire 2) in C3. B (PSION) stays in A1. C (INES) moves to
# B1; D (ENVOY) moves through B1 to C1, where A's ally X (HOLLIS) stands.
C_THEN_D = [("INES", "B1"), ("ENVOY", "B1"),     # C the primary target in B1: C and D
            ("ENVOY", "C1"), ("HOLLIS", "C1")]   # D in a later space: his ally X too


@pytest.mark.parametrize("black, shots", [
    # left to the engine: the example's own choices (equal chances, the earliest space,
    # the first mover)
    ("FIRE OBED", C_THEN_D),
    # written as the example's player makes them, one line a shot
    ("FIRE OBED AT INES IN B1\nFIRE OBED AT ENVOY", C_THEN_D),
    # the other way round: D first in the later space, then C in the first
    ("FIRE OBED AT ENVOY IN C1\nFIRE OBED AT INES",
     [("ENVOY", "C1"), ("HOLLIS", "C1"), ("INES", "B1"), ("ENVOY", "B1")]),
    # B did not move: that line's shot cannot be taken and the next line's is; the last
    # line then allows no second shot (D was the primary target already)
    ("FIRE OBED AT PSION\nFIRE OBED AT ENVOY IN C1", [("ENVOY", "C1"), ("HOLLIS", "C1")]),
])
def test_area_target_example(black, shots):
    state = make({"OBED": ("Black", "C3", ["FLAMER"]), "HOLLIS": ("Black", "C1", []),
                  "PSION": ("White", "A1", []), "INES": ("White", "A1", []),
                  "ENVOY": ("White", "A1", [])}, map_=OPEN)
    _, events = play(state, {"White": "MOVE INES TO B1\nMOVE ENVOY TO B1 C1\nHOLD ENVOY",
                             "Black": black + "\nHOLD HOLLIS"}, MISS * len(shots))
    assert [(a["target"], a["space"]) for a in kinds(events, "attack")] == shots


def test_a_game_of_rules_revision_1_lets_the_first_fire_line_govern_every_shot():
    """Games recorded before rules revision 2 replay as they were played: the first FIRE
    line of a character governed all its shots and later lines were ignored."""
    state = make({"OBED": ("Black", "C3", ["FLAMER"]), "HOLLIS": ("Black", "C1", []),
                  "PSION": ("White", "A1", []), "INES": ("White", "A1", []),
                  "ENVOY": ("White", "A1", [])}, map_=OPEN, revision=1)
    after, events = play(state, {"White": "MOVE INES TO B1\nMOVE ENVOY TO B1 C1\nHOLD ENVOY",
                                 "Black": "FIRE OBED AT ENVOY IN C1\nFIRE OBED AT INES"
                                          "\nHOLD HOLLIS"}, MISS * 2)
    assert [(a["target"], a["space"]) for a in kinds(events, "attack")] == [
        ("ENVOY", "C1"), ("HOLLIS", "C1")]  # revision 2 also shoots INES in B1
    assert REVISION not in after
    # the very state the engine of commit 4dcf1fc^ reached from this turn
    assert state_hash(after) == \
        "550abd8f131ea7d93b0032be159994a87851751c18904c8dcaf679c330ec38c0"


# -- Avoiding opportunity fire -----------------------------------------------------------
# A (OBED) in A1; the Tower of Desperation in A3. B (PSION) stands on the tunnel
# entrance B2, C (INES) in B4 (in sight) with A4 behind the tower, D (ENVOY) in A2.
AVOID = field(". . . . .", ". . . . .", "T . . . .", ". . . . .", ". . . . .",
              towers={"A3": "desperation"}, tunnels=[["B2", "C2"]], entrances=["B2"])


@pytest.mark.parametrize("b_moves, shots", [
    ("MOVE PSION TO DOWN", 0),         # down the tunnel where he started: no target
    ("MOVE PSION TO C2", 1),           # had he walked on the surface, A could fire
])
def test_avoiding_opportunity_fire_example(b_moves, shots):
    state = make({"OBED": ("Black", "A1", ["REVOLVER"]), "PSION": ("White", "B2", []),
                  "INES": ("White", "B4", []), "ENVOY": ("White", "A2", [])}, map_=AVOID)
    after, events = play(state, {"White": f"{b_moves}\nMOVE INES TO A4",
                                 "Black": "FIRE OBED"}, MISS * shots)
    assert after["chars"]["INES"]["space"] == "A4"       # behind the tower, out of sight
    assert len(kinds(events, "attack")) == shots
    if not shots:
        assert kinds(events, "no_shot")[0]["why"] == "no moving enemy in sight and range"


# -- One space only ----------------------------------------------------------------------
# B (PSION) and C (INES) are in the tunnel under A1; it runs to the entrance B1, beside
# A's space C1. A (OBED) has the Revolver (OpFire 2).
def test_one_space_only_example():
    tunnel = field(". . . . .", ". . . . .", tunnels=[["A1", "B1"]], entrances=["B1"])
    state = make({"OBED": ("Black", "C1", ["REVOLVER"]), "PSION": ("White", "A1/t", []),
                  "INES": ("White", "A1/t", [])}, map_=tunnel)
    _, events = play(state, {"White": "MOVE PSION TO B1 UP C1\nMOVE INES TO B1 UP C1\n"
                                      "HOLD PSION\nHOLD INES",
                             "Black": "FIRE OBED\nHOLD OBED"}, MISS)
    # B is shot in B1, where they came up; C only ever was in B1 (already fired into)
    # and in A's own space: one shot of the two the Revolver allows
    assert [(a["target"], a["space"]) for a in kinds(events, "attack")] == [("PSION", "B1")]


# -- Enemy in space must be unmoving -------------------------------------------------------
# A (OBED) and B (PSION) in B1; C (INES) comes in from A1.
@pytest.mark.parametrize("b_order, shots, why", [
    ("MOVE PSION TO C1", [("PSION", "C1")], None),        # B leaves, C enters: A fires
    ("HOLD PSION", [], "an enemy stayed in his space"),   # B stays: A cannot
])
def test_enemy_in_space_must_be_unmoving_example(b_order, shots, why):
    state = make({"OBED": ("Black", "B1", ["REVOLVER"]), "PSION": ("White", "B1", []),
                  "INES": ("White", "A1", [])}, map_=OPEN)
    _, events = play(state, {"White": f"{b_order}\nMOVE INES TO B1\nHOLD INES",
                             "Black": "FIRE OBED\nHOLD OBED"}, MISS * len(shots))
    assert [(a["target"], a["space"]) for a in kinds(events, "attack")] == shots
    if why:
        assert kinds(events, "no_shot")[0]["why"] == why
