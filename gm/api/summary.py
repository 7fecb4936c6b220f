"""The game summary as the API serves it: one turn numbering, as the page and mail have.

An engine that counts its own turns titles its prompt with that count ("Orders for
combat turn 4" while the service is at turn 5); the page and the mails rewrite it with
`gm.mail.notices.one_numbering`, and so does the API, naming the engine's own count once
in `turn.own_count` for clients that want to show it.
"""

from __future__ import annotations

from typing import Any

from gm.mail.notices import engine_count, one_numbering
from gm.play import actions
from gm.play.models import Game


def game_summary(game: Game, user) -> dict[str, Any]:
    data = actions.game_summary(game, user)
    turn = data.get("turn") or {}
    prompt = turn.get("my_prompt")
    if not isinstance(prompt, dict):
        return data
    number = turn["number"]
    fixed = dict(prompt)
    for key in ("title", "help"):
        if isinstance(prompt.get(key), str):
            fixed[key] = one_numbering(prompt[key], number)
    turn["my_prompt"] = fixed
    turn["own_count"] = engine_count(str(prompt.get("title", "")), number)
    return data
