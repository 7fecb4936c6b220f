"""The game summary as the API serves it: one turn numbering, as the page and mail have.

Engines name their own round in words ("Orders for combat round 4") and never write a
turn number of their own into prompts (issues 28 and 30), so the prompt is served as the
engine wrote it; the service's `turn.number` is the only turn number.
"""

from __future__ import annotations

from typing import Any

from gm.play import actions
from gm.play.models import Game


def game_summary(game: Game, user) -> dict[str, Any]:
    return actions.game_summary(game, user)
