"""Which seat a message is for, and whether its sender may speak for that seat.

The secret is the token in `play+<token>@domain` (Seat.mail_token). Clients or
forwarders that drop plus-addresses can put the token in the body instead, on lines
before the orders, like the classic judges:

    GAME 12
    SIGNON P1 k3j9x0abcdq

(`SIGNON <token>` alone works too; `GAME` only cross-checks.) Those lines are blanked,
not removed, so error line numbers still match what the player wrote.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from gm.accounts.models import Profile
from gm.play.models import Game, Seat
from gm.play.rows import Columns, cache_related, cursor, qn

from .prefs import confirmed

_GAME = re.compile(r"^\s*GAME\s+#?(\S+)\s*$", re.IGNORECASE)
_SIGNON = re.compile(r"^\s*SIGNON\s+(?:(\S+)\s+)?([A-Za-z0-9]+)\s*$", re.IGNORECASE)


class RouteError(Exception):
    def __init__(self, outcome: str, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message


@dataclass
class Route:
    seat: Seat
    text: str  # the body with control lines blanked
    via: str  # "address" or "signon"


def _address_re() -> re.Pattern[str]:
    local = re.escape(getattr(settings, "GM_MAIL_LOCALPART", "play"))
    domain = re.escape(getattr(settings, "GM_MAIL_DOMAIN", "localhost"))
    return re.compile(rf"^{local}\+([^@\s]+)@{domain}$", re.IGNORECASE)


def tokens_in(recipients: list[str]) -> list[str]:
    pattern = _address_re()
    return list(dict.fromkeys(m.group(1).lower() for r in recipients
                              if (m := pattern.match(r.strip()))))


@dataclass
class Extra:
    """More values for the seat lookup's round trip: `sql` is a scalar expression over
    the seat row (alias `s`), set as attribute `name` on the seat found (see
    `replies.reply_facts`)."""

    name: str
    sql: str
    params: list[Any]


@functools.cache
def _lookup() -> tuple[tuple[Columns, ...], str, str]:
    """(columns of seat, game, user, profile; the SELECT list; the FROM ... WHERE part),
    built once (the user model is known only once the apps are loaded)."""
    user_model = get_user_model()
    cols = (Columns(Seat, "s"), Columns(Game, "g", defer=("state", "setup_record")),
            Columns(user_model, "u"), Columns(Profile, "p"))
    select = ", ".join(c.sql() for c in cols)
    tail = (f" FROM {qn(Seat._meta.db_table)} s "
            f"INNER JOIN {qn(Game._meta.db_table)} g ON g.{qn('id')} = s.{qn('game_id')} "
            f"LEFT OUTER JOIN {qn(user_model._meta.db_table)} u "
            f"ON u.{qn('id')} = s.{qn('user_id')} "
            f"LEFT OUTER JOIN {qn(Profile._meta.db_table)} p "
            f"ON p.{qn('user_id')} = u.{qn('id')} "
            f"WHERE s.{qn('mail_token')} = %s")
    return cols, select, tail


def _seat_by_token(token: str, extras: list[Extra] | None = None) -> Seat | None:
    """The seat with its game, user and the user's profile (time zone, confirmation) in
    one plain-SQL statement (the ORM's select_related cost more CPU than the database's
    work, bench/README.md); the game's state and setup record, the big columns, are left
    to whoever needs them. `extras`: more values for the same round trip."""
    extras = extras or []
    (seat_cols, game_cols, user_cols, profile_cols), select, tail = _lookup()
    sql = "SELECT " + select + "".join(f", {e.sql}" for e in extras) + tail
    with cursor() as cur:
        cur.execute(sql, [*(p for e in extras for p in e.params), token.lower()])
        row = cur.fetchone()
    if row is None:
        return None
    parts, at = [], 0
    for cols in (seat_cols, game_cols, user_cols, profile_cols):
        parts.append(row[at:at + len(cols)])
        at += len(cols)
    seat = seat_cols.instance(parts[0])
    cache_related(seat, "game", game_cols.instance(parts[1]))
    user = user_cols.instance(parts[2]) if parts[2][0] is not None else None
    cache_related(seat, "user", user)
    if user is not None:
        profile = profile_cols.instance(parts[3]) if parts[3][0] is not None else None
        # select_related's way of saying "no profile" too: the attribute reads None
        Profile._meta.get_field("user").remote_field.set_cached_value(user, profile)
        if profile is not None:
            cache_related(profile, "user", user)
    for extra, value in zip(extras, row[at:]):
        setattr(seat, extra.name, value)
    return seat


def by_address(recipients: list[str], extras: list[Extra] | None = None) -> Seat | None:
    """The seat of the first plus-address; RouteError when it names no seat (forged)."""
    tokens = tokens_in(recipients)
    if not tokens:
        return None
    for token in tokens:
        seat = _seat_by_token(token, extras)
        if seat is not None:
            return seat
    raise RouteError("unknown_address", "this reply address does not belong to any seat "
                     "(it may be mistyped, or from a game that was deleted)")


def route(recipients: list[str], text: str | None,
          extras: list[Extra] | None = None) -> Route:
    """Find the seat from the plus-address, else from GAME/SIGNON lines in `text`."""
    seat = by_address(recipients, extras)
    if seat is not None:
        return Route(seat, _blank_control_lines(text or "")[0], "address")
    if text is None:
        raise RouteError("unknown_address", _MISSING)
    body, game_ref, signon = _blank_control_lines(text)
    if game_ref is not None and not _game_exists(game_ref):
        raise RouteError("unknown_game", f"there is no game {game_ref}")
    if signon is None:
        raise RouteError("unknown_address", _MISSING)
    seat_name, token = signon
    seat = _seat_by_token(token, extras)
    if seat is None or (seat_name and seat_name.lower() != seat.name.lower()) or (
            game_ref is not None and str(seat.game_id) != game_ref.lstrip("#")):
        raise RouteError("unknown_address", "the SIGNON line does not match any seat")
    return Route(seat, body, "signon")


def _game_exists(ref: str) -> bool:
    return ref.isdigit() and Game.objects.filter(pk=int(ref)).exists()


def _blank_control_lines(text: str) -> tuple[str, str | None, tuple[str | None, str] | None]:
    game_ref: str | None = None
    signon: tuple[str | None, str] | None = None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if (m := _GAME.match(line)) and game_ref is None:
            game_ref = m.group(1).lstrip("#")
            lines[i] = ""
        elif (m := _SIGNON.match(line)) and signon is None:
            signon = (m.group(1), m.group(2))
            lines[i] = ""
    return "\n".join(lines), game_ref, signon


_MISSING = ("this message does not say which seat it is for: reply to the address in your "
            "game mails (play+<token>@...), or, if your mail service drops the +token, put "
            "a line SIGNON <seat> <token> before your orders")


def sender_allowed(seat: Seat, sender: str) -> bool:
    """The seat's user's address once confirmed, or one of Seat.emails (which the
    seat's player set), unless the seat allows anyone."""
    if seat.allow_any_sender:
        return True
    allowed = {e.strip().lower() for e in (seat.emails or []) if e}
    if seat.user is not None and seat.user.email and confirmed(seat.user):
        allowed.add(seat.user.email.strip().lower())
    return sender.strip().lower() in allowed
