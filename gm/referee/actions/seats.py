"""Seats and co-GMs: replacing a player (through the substitutes app's one hand-over path),
a seat's mode, co-GMs.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from gm.play import actions as play
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, Seat, Turn

from .common import _lock, _reason, _seat, log_act, require_gm


def replace_player(game: Game, actor, reason: str, seat_name: str, new_user) -> Seat:
    """Give a seat to another user: reports are per seat, so its history goes along.

    The seat's mail token is renewed and its extra sender addresses cleared, so the
    previous player's reply address stops working.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    with transaction.atomic():
        game, _turn = _lock(game)
        seat = _seat(game, seat_name)
        old = seat.player_name()
        # issue 25: one path for every hand-over (seat history, newcomer's time and
        # briefing). It checks the newcomer (active, not seated here, and the rule of
        # joining: where the ruleset hides anything, nobody who sees everything plays),
        # renews the mail token and clears the extra sender addresses.
        from gm.substitutes.handover import hand_over

        seat = hand_over(game, seat.name, new_user, actor=actor, how="gm", reason=reason,
                         log=False)
        log_act(game, "player-replaced", f"Seat {seat.name} is now played by "
                f"{new_user.username} (was {old}).", actor=actor, reason=reason,
                private={"seat": seat.name, "old": old, "new": new_user.username})
    return seat


def set_seat_mode(game: Game, actor, reason: str, seat_name: str, mode: str) -> Seat:
    """Active, default orders, or abandoned: the last two play the engine's defaults."""
    require_gm(game, actor)
    reason = _reason(reason)
    if mode not in Seat.Mode.values:
        raise ActionError(f"unknown seat mode {mode!r}; choose one of: "
                          f"{', '.join(Seat.Mode.values)}")
    with transaction.atomic():
        game, turn = _lock(game)
        seat = _seat(game, seat_name)
        seat.mode = mode
        seat.save(update_fields=["mode"])
        log_act(game, "seat-mode", f"Seat {seat.name} is now {seat.get_mode_display()}.",
                actor=actor, reason=reason, private={"seat": seat.name, "mode": mode})
        if turn is not None and turn.status == Turn.Status.OPEN:
            play.maybe_due_early(game, turn)
    return seat


def _require_main_gm(game: Game, user) -> None:
    if not (getattr(user, "is_authenticated", False)
            and (user.pk == game.gm_id or user.is_superuser)):
        raise NotAllowed("only the game's own GM or a site admin can change its co-GMs")


def set_co_gm(game: Game, actor, reason: str, username: str, add: bool) -> list[str]:
    """Add or remove a co-GM (who then has every power here, and sees everything)."""
    _require_main_gm(game, actor)
    reason = _reason(reason)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ActionError(f"there is no user {username!r}")
    with transaction.atomic():
        game, _turn = _lock(game)
        if add:
            if user.pk == game.gm_id:
                raise Conflict(f"{username} is already this game's GM")
            if game.seats.filter(user=user).exists():
                raise Conflict(f"{username} plays in this game and cannot be its co-GM "
                               "(a co-GM sees every hidden card and die)")
            game.co_gms.add(user)
        else:
            if not game.co_gms.filter(pk=user.pk).exists():
                raise Conflict(f"{username} is not a co-GM of this game")
            game.co_gms.remove(user)
        log_act(game, "co-gm", f"{username} is {'now' if add else 'no longer'} a co-GM.",
                actor=actor, reason=reason, private={"user": username, "add": add})
        return sorted(game.co_gms.values_list("username", flat=True))
