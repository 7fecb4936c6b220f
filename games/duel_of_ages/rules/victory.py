"""Victory points and sudden death: the count that decides a game at time, and the check
that ends a tied game the moment the tie is broken."""

from __future__ import annotations

from games.core.types import Event

from ..state import SEATS, State, alive
from .combat import Events


class GameOver(Exception):
    """Raised where a sudden-death tie is broken, to stop the turn at that very point."""


def score(state: State) -> tuple[dict[str, int], dict[str, int]]:
    """Points per team (one for more characters alive, one per labyrinth led) and the
    characters alive per team (map and reserve)."""
    counts = {seat: len(alive(state, seat)) for seat in SEATS}
    points = {seat: 0 for seat in SEATS}
    for lab in state["labyrinths"].values():
        a, b = (lab["positions"][s] for s in SEATS)
        if a != b:
            points[SEATS[0] if a < b else SEATS[1]] += 1
    if counts[SEATS[0]] != counts[SEATS[1]]:
        points[max(SEATS, key=lambda s: counts[s])] += 1
    return points, counts


def detail(points: dict[str, int], counts: dict[str, int]) -> str:
    return (f"{points[SEATS[0]]} to {points[SEATS[1]]} points ({counts[SEATS[0]]} to "
            f"{counts[SEATS[1]]} characters alive)")


def finish(state: State, events: Events, winner: str | None, summary: str) -> None:
    state["over"], state["winner"], state["summary"] = True, winner, summary
    events.append(Event("game_over", {"winner": winner, "summary": summary}))


def check_sudden_death(state: State, events: Events) -> None:
    """In sudden death, the first shift of a point ends the game at once (raises
    GameOver); call it after every shot, melee wave and adventure."""
    if not state.get("sudden_death") or state["over"]:
        return
    points, counts = score(state)
    white, black = points[SEATS[0]], points[SEATS[1]]
    if white != black:
        finish(state, events, SEATS[0] if white > black else SEATS[1],
               f"sudden death: {detail(points, counts)}")
        raise GameOver
