"""The mail command `VACATION <from> TO <to>` sent to a seat's reply address.

Dates are YYYY-MM-DD, optionally followed by HH:MM, in the player's time zone. A date
without a time means: from the start of the first day, to the end of the last day (so
`VACATION 2026-12-24 TO 2027-01-02` is away from 24 Dec 00:00 until 3 Jan 00:00). The
answer is a receipt naming the window, or why it was refused; a game whose GM forbids
vacations refuses it (gm.absence.actions.add_vacation).
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import Any

from gm.accounts.timezones import format_deadline, zone_of
from gm.play.errors import ActionError

_LINE = re.compile(r"^\s*VACATION\s+(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?\s+TO\s+"
                   r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?\s*$", re.IGNORECASE)
_WORD = re.compile(r"^\s*VACATION\b", re.IGNORECASE)


def first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def is_command(text: str) -> bool:
    return bool(_WORD.match(first_line(text)))


def parse(text: str, zone) -> tuple[datetime, datetime]:
    """The window of a VACATION line, aware in `zone`; ActionError when it does not read."""
    found = _LINE.match(first_line(text))
    if found is None:
        raise ActionError("write it as VACATION 2026-12-24 TO 2027-01-02 (dates "
                          "YYYY-MM-DD, a time HH:MM after a date if you want one)")
    d1, t1, d2, t2 = found.groups()
    try:
        start = datetime.combine(datetime.strptime(d1, "%Y-%m-%d").date(),
                                 _time(t1) if t1 else time(0, 0))
        end_day = datetime.strptime(d2, "%Y-%m-%d").date()
        end = datetime.combine(end_day, _time(t2)) if t2 else \
            datetime.combine(end_day + timedelta(days=1), time(0, 0))
    except ValueError as exc:
        raise ActionError(f"not a date or time: {exc}") from None
    return start.replace(tzinfo=zone), end.replace(tzinfo=zone)


def _time(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def answer(seat, text: str) -> tuple[str, str, dict[str, Any]] | None:
    """(outcome, detail, reply context) for a VACATION mail; None: not the command."""
    from gm.mail.models import Outcome

    from . import actions

    if not is_command(text):
        return None
    user = seat.user
    if user is None:
        return (Outcome.REFUSED, "vacation: the seat has no player",
                {"message": "this seat has no player to take a vacation",
                 "vacation_refused": True, "label": "vacation not recorded"})
    zone = zone_of(user)
    try:
        starts, ends = parse(text, zone)
        vac = actions.add_vacation(user, starts, ends, game=seat.game)
    except ActionError as exc:
        return (Outcome.REFUSED, f"vacation refused: {exc.message}",
                {"message": f"your vacation was not recorded: {exc.message}",
                 "vacation_refused": True, "label": "vacation not recorded"})
    absence = actions.seat_absence(seat)
    return (Outcome.ACCEPTED, f"vacation {vac.pk} recorded", {
        "label": "vacation recorded",
        "vacation": {"id": vac.pk, "starts": format_deadline(vac.starts, zone),
                     "ends": format_deadline(vac.ends, zone),
                     "choice": absence.get_away_choice_display(),
                     "line": actions.away_text(seat, vac, absence, zone)}})
