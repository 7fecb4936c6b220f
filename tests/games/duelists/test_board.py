"""The Duelists board is HTML that wraps on a phone, built from a view only."""

from __future__ import annotations

from games.duelists.board import html


def _view(viewer: str = "P1") -> dict:
    card = {"name": "Haft <Strike>", "defence": {"slash": 2, "stab": 2, "blunt": 2},
            "attacks": ["(1-4)+3 Blunt"]}
    return {"viewer": viewer, "players": {
        "P1": {"champion": "Nathrax", "hand_count": 1, "deck_count": 3, "discard_count": 0,
               "exhausted": [], "tokens": {"disarmed": 1},
               "queue": [{"face_up": True, "defended": True, "card": card},
                         {"face_up": False, "defended": False, "card": card}],
               "hand": [{"name": "Armor", "armor": True}]},
        "P2": {"champion": None, "hand_count": 2, "deck_count": 3, "discard_count": 0,
               "exhausted": [], "tokens": {}, "queue": [{"face_up": False, "card": None}]},
    }}


def test_face_down_is_a_line_of_its_own_and_text_is_escaped():
    board = html(_view())
    assert board.startswith('<div class="board-html"')
    assert "Haft &lt;Strike&gt;" in board and "<Strike>" not in board
    assert board.count('class="board-note">face down: only you see it</span>') == 1
    assert '<span class="board-note">defended</span>' in board
    assert "disarmed 1" in board and "my hand" in board and "Armor" in board


def test_the_other_side_sees_backs_and_no_hand():
    board = html(_view("P2"))
    assert "my hand" not in board.split("P2 · no champion yet", 1)[1]
    assert '<li class="board-card board-back">' in board
