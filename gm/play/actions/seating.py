"""Creating a game, who may take a seat, joining, and starting it (the setup record and the
first turn).
"""

from __future__ import annotations

import os
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core import registry
from games.core.canonical import sha256_hex
from games.core.replay import run_setup, secret_rng
from games.core.types import OptionError

from .. import limits
from ..errors import (
    ActionError,
    Conflict,
    NotAllowed,
)
from ..models import (
    Game,
    Seat,
)
from ..text import one_line
from .common import engine_for, record_log
from .turns import open_turn


def create_game(user, *, ruleset: str, title: str, options: dict[str, Any] | None = None,
                turn_hours: int = 48, turn_minutes: int = 0, process_early: bool = True,
                hold_for_review: bool = False, max_seats: int = 0) -> Game:
    try:
        engine = registry.get(ruleset)
    except registry.UnknownRuleset as exc:
        raise ActionError(str(exc.args[0])) from None
    try:
        options = engine.new_game_options(options)  # at today's rules revision
    except OptionError as exc:
        raise ActionError(str(exc)) from None
    if not title.strip():
        raise ActionError("a game needs a title")
    title = one_line(title, "a game title")
    if turn_hours * 60 + turn_minutes < 1:
        raise ActionError("a turn must last at least one minute")
    if max_seats and not engine.min_seats <= max_seats <= engine.max_seats:
        raise ActionError(f"{engine.title} takes {engine.min_seats} to {engine.max_seats} players")
    limits.check_game_quota(user)
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset, title=title, options=options, turn_hours=turn_hours,
            turn_minutes=turn_minutes, process_early=process_early,
            hold_for_review=hold_for_review, max_seats=max_seats, gm=user)
        record_log(game, "created", f"{user.username} created the game ({engine.title}).",
                   actor=user)
    return game


def seat_capacity(game: Game) -> int:
    engine = engine_for(game)
    # a GM who names the seats (gm_adjudicated) sets the table's size with them
    return game.max_seats or engine.named_seat_count(game.options) or engine.max_seats


def seat_barred(game: Game, user, *, named: bool = False) -> str:
    """Why `user` may not take a seat in `game`, or "" (said to them, or with `named` to
    a GM handing them a seat: "alice is ...").

    In a game with hidden information nobody who sees everything plays: the GM and its
    co-GMs (the GM's desk shows every hand and die), and site admins, who see every game
    as its GM does (Game.is_gm). Each is told which of these they are. Where nothing is
    hidden anyone may play, the GM included.
    """
    if not engine_for(game).hidden_information:
        return ""
    role = game.gm_role(user)
    if role not in ("gm", "co-gm", "admin"):
        return ""
    who, are, see = (user.username, "is", "sees") if named else ("you", "are", "see")
    if role == "admin":
        return (f"{who} {are} a site admin, and site admins see every hidden card and die "
                f"of every game, so {who} cannot take a seat in a game that hides any")
    what = "this game's GM" if role == "gm" else "a co-GM of this game"
    return (f"{who} {are} {what} and {see} every hidden card and die, so {who} cannot "
            "take a seat in it")


# --- join checks (issue 25) ----------------------------------------------------------------
# Callables (game, user) -> str: why `user` may not join `game`, or "". Other apps append
# (gm.substitutes adds the game's minimum reliability record); join_game asks each.
JOIN_CHECKS: list = []


def join_game(game: Game, user) -> Seat:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.OPEN:
            raise Conflict("this game has already started")
        barred = seat_barred(game, user)
        if barred:
            raise Conflict(barred)
        if game.seats.filter(user=user).exists():
            raise Conflict("you already have a seat in this game")
        for check in JOIN_CHECKS:  # issue 25: e.g. a minimum reliability record
            why = check(game, user)
            if why:
                raise Conflict(why)
        taken = game.seats.count()
        if taken >= seat_capacity(game):
            raise Conflict("every seat is taken")
        name = engine_for(game).seat_names_for(seat_capacity(game), game.options)[taken]
        seat = Seat.objects.create(game=game, name=name, user=user)
        record_log(game, "joined", f"{user.username} took seat {name}.", actor=user)
    return seat


def start_game(game: Game, user, *, entropy: bytes | None = None) -> Game:
    """Deal the seats, run the engine's setup with a fresh secret, open turn 1."""
    if not game.is_gm(user):
        raise NotAllowed("only the game's GM can start it")
    engine = engine_for(game)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.OPEN:
            raise Conflict("this game has already started")
        seats = list(game.seats.order_by("id"))
        if len(seats) < engine.min_seats:
            raise Conflict(f"{engine.title} needs at least {engine.min_seats} players; "
                           f"{len(seats)} joined")
        # Seat names must be the engine's names for the final player count.
        names = engine.seat_names_for(len(seats), game.options)
        for seat, name in zip(seats, names):
            if seat.name != name:
                seat.name = f"~{seat.pk}"
                seat.save(update_fields=["name"])
        for seat, name in zip(seats, names):
            seat.name = name
            seat.save(update_fields=["name"])
        secret = (entropy or os.urandom(32)).hex()
        # The game plays by the rules revision it starts with, recorded in its options.
        try:
            game.options = engine.new_game_options(game.options)
        except OptionError as exc:
            raise Conflict(f"this game's options no longer hold: {exc}") from None
        step = run_setup(engine, names, dict(game.options), secret_rng(secret, None))
        now = timezone.now()
        game.secret = secret
        game.secret_sha256 = sha256_hex(secret)
        game.state = engine.to_json(step.state)
        game.state_hash = step.after_hash
        game.setup_record = {"draws": [d.to_json() for d in step.draws],
                             "state_hash": step.after_hash,
                             "events": [e.to_json() for e in step.events],
                             "seats": names}
        game.status = Game.Status.RUNNING
        game.started = now
        game.save()
        record_log(game, "started", f"{user.username} started the game. Dice secret "
                   f"SHA-256: {game.secret_sha256}", actor=user)
        open_turn(game, engine, step.state, 1, now)
    return game
