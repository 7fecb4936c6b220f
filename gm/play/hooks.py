"""Where the apps above gm.play take part in its actions, without gm.play importing them.

gm.play is the bottom of the service: every other app imports it. An app that changes how
a turn opens or resolves (gm.notify fixes deadlines at a local hour, gm.absence lets a
grace or a vacation move a deadline and stands in for a missing seat) sets its hook here
from its AppConfig.ready. Unset, gm.play behaves as it did before those apps existed.
A hook list (JOIN_CHECKS, in gm.play.actions) works the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# (game, now, length: timedelta) -> datetime: when a turn opened `now` closes
deadline_for: Callable[..., Any] | None = None

# (game, turn, engine, state, now) -> a plan with `.postponed: bool` (the deadline moved
# instead: the turn is OPEN again) and `.stand_in(seat) -> Orders | None`
at_resolution: Callable[..., Any] | None = None


@dataclass(frozen=True)
class CreateSetting:
    """A part of a new game's settings another app keeps (POST /api/games/ field `name`):
    `clean(value: dict) -> cleaned` raises ActionError before the game exists;
    `store(game, user, cleaned)` runs in the creating transaction (skipped when the
    cleaned value is empty)."""

    name: str
    clean: Callable[[dict[str, Any]], Any]
    store: Callable[[Any, Any, Any], Any]


CREATE_SETTINGS: list[CreateSetting] = []


def add_create_setting(setting: CreateSetting) -> None:
    """Register `setting` (once per name: a second registration replaces the first)."""
    CREATE_SETTINGS[:] = [s for s in CREATE_SETTINGS if s.name != setting.name]
    CREATE_SETTINGS.append(setting)
