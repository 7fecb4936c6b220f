"""How the absence layer plugs into the substitutes app, when both are installed.

The substitutes app keeps registries other apps add to (a newcomer's briefing sections,
the reliability record's counts) and a signal for a seat changing hands; this module
adds the absence layer's parts, from `AbsenceConfig.ready`, so neither app imports the
other at module level:

* the briefing's "If you miss a deadline" section: what a missed deadline would play for
  the seat now, and its standing "if I miss" orders;
* the record's `vacations_used`: the vacation windows a player has begun;
* a seat handed over leaves civil disorder, its miss counters reset.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone


def if_miss_section(game: Any, seat: Any, now: datetime) -> str:
    from .actions import if_missed_line
    from .models import SeatAbsence

    line = if_missed_line(game, seat)
    absence = SeatAbsence.objects.filter(seat=seat).first()
    text = (line[0].upper() + line[1:] + ".") if line else \
        "No turn asks this seat for orders now."
    filed = (absence.if_miss_text or "").strip() if absence is not None else ""
    if filed:
        text += "\n\nThe seat's \"if I miss\" orders, as filed:\n\n" + "\n".join(
            "    " + row for row in filed.splitlines())
    return text + f"\n\nChange them on the game's absence page: /games/{game.pk}/absence/"


def vacations_used(user: Any) -> dict[str, int]:
    from .models import Vacation

    return {"vacations_used": Vacation.objects.filter(user=user,
                                                       starts__lte=timezone.now()).count()}


def _handed_over(sender: Any, seat: Any = None, **kwargs: Any) -> None:
    from .actions import end_disorder

    if seat is not None:
        end_disorder(seat)


def connect() -> None:
    """Called once from AbsenceConfig.ready when gm.substitutes is installed."""
    from gm.substitutes import briefing, reliability
    from gm.substitutes.signals import seat_handed_over

    if not any(s.key == "if_i_miss" for s in briefing.SECTIONS):
        briefing.SECTIONS.append(briefing.Section("if_i_miss", "If you miss a deadline",
                                                  if_miss_section, order=35))
    if vacations_used not in reliability.PROVIDERS:
        reliability.PROVIDERS.append(vacations_used)
    seat_handed_over.connect(_handed_over, dispatch_uid="absence-seat-handed-over")
