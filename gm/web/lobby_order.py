"""The lobby's order and the first visit's "new" marks (issues 26 and 28).

The lobby lists the reader's games by what needs them: games where they owe orders first,
soonest deadline first; then other running games by deadline; then the rest (open,
paused, finished) by title. A game page opened for the first time marks as new what the
lobby counted as new for it (everything but the reader's own items), instead of nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

FAR = datetime.max.replace(tzinfo=UTC)
NEVER_SEEN = datetime(1970, 1, 1, tzinfo=UTC)


def urgency(row: dict[str, Any]) -> tuple:
    """Sort key of a lobby row (see the module doc)."""
    deadline = row.get("deadline")
    return (not row.get("i_owe"), deadline is None, deadline or FAR,
            row["game"].title.lower(), row["game"].pk)


def first_visit(game: Any, user: Any) -> datetime | None:
    """The "seen" time of a game page never opened: everything is new to its players and
    GM (the lobby counted it all), nothing is to a passer-by."""
    if not getattr(user, "is_authenticated", False):
        return None
    if game.gm_id == user.pk or game.seat_of(user) is not None or game.is_gm(user):
        return NEVER_SEEN
    return None
