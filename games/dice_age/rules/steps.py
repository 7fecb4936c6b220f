"""The step queue carried out: every step handler of the Dice Age turn engine, by name.

Above every rules module (flow, turns, effects, windows) so that none of them needs
another to run the queue: each pushes steps by name (`flow.push`) and this table finds
the handler.
"""

from __future__ import annotations

from games.core.rng import RngBase
from games.core.types import Event

from ..state import State
from . import effects, flow, turns, windows

RUN_LIMIT = flow.RUN_LIMIT
TABLE = {**flow.STEPS, **turns.STEPS, **effects.STEPS, **windows.STEPS}


def run(state: State, rng: RngBase, events: list[Event]) -> None:
    """Carry out queued steps until a decision is owed or the game is over."""
    table = TABLE
    for _ in range(RUN_LIMIT):
        if state["pending"] is not None or state["winner"] is not None or not state["queue"]:
            return
        step = state["queue"].pop(0)
        table[step["do"]](state, step, rng, events)
    raise RuntimeError("Dice Age: a turn did not come to rest")  # pragma: no cover
