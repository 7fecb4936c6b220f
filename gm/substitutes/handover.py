"""Handing a seat to another player: the one path for substitutes and the GM's replace.

`hand_over` changes the seat's player, renews its mail token (the previous player's reply
address stops working), closes the old player's SeatHolding and opens the newcomer's,
gives the newcomer at least the game's `free_turns` full turn lengths before the open
turn's deadline (moving it on the record if needed), closes any live offer of the seat,
writes the public log and queues the briefing mail, all in the caller's transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from gm.play import actions as play
from gm.play import signals
from gm.play.errors import ActionError, Conflict
from gm.play.models import Game, Seat, Turn, new_token

from .models import SeatHolding, SeatOffer
from .policy import policy_of


def _lock(game: Game) -> tuple[Game, Turn | None]:
    """Lock the live turns then the game (resolve_turn's order: no deadlock)."""
    turns = list(Turn.objects.select_for_update().filter(game=game, superseded=False)
                 .order_by("-number"))
    game = Game.objects.select_for_update().get(pk=game.pk)
    return game, (turns[0] if turns else None)


def _close_holding(seat: Seat, now: datetime, why: str) -> None:
    """End the current player's holding (written now for a seat taken by joining)."""
    if seat.user_id is None:
        return
    current = seat.holdings.filter(ended__isnull=True).order_by("-started").first()
    if current is None or current.user_id != seat.user_id:
        current = SeatHolding(seat=seat, user=seat.user, username=seat.user.username,
                              how=SeatHolding.How.JOINED, started=seat.joined, from_turn=1)
    current.ended = now
    current.left_why = why[:120]
    current.save()


def give_time(game: Game, turn: Turn | None, seat: Seat, now: datetime, *,
              actor=None) -> str:
    """Move the open turn's deadline so the newcomer has `free_turns` full turn lengths;
    the public sentence saying so, or "" when nothing moved."""
    turns = policy_of(game).free_turns
    if not turns or turn is None:
        return ""
    need = play.turn_length(game) * turns
    if turn.status == Turn.Status.OPEN and turn.deadline is not None:
        if turn.deadline >= now + need:
            return ""
        turn.deadline = now + need
        turn.reminded = False
        turn.save(update_fields=["deadline", "reminded"])
        text = (f"The deadline of turn {turn.number} moves to {turn.deadline:%Y-%m-%d %H:%M} "
                f"UTC so the new player of seat {seat.name} has a full turn.")
    elif turn.status == Turn.Status.PAUSED:
        if (game.paused_remaining or need) >= need:
            return ""
        game.paused_remaining = need
        game.save(update_fields=["paused_remaining"])
        text = (f"Turn {turn.number} will have at least {need} left when the game resumes, "
                f"so the new player of seat {seat.name} has a full turn.")
    else:
        return ""
    play.record_log(game, "deadline", text, actor=actor, turn_number=turn.number,
                    reason="a new player took a seat",
                    private={"seat": seat.name, "deadline": turn.deadline.isoformat()
                             if turn.deadline else None})
    from gm.play.sweep import schedule_deadline

    transaction.on_commit(lambda: schedule_deadline(turn), robust=True)
    return text


def hand_over(game: Game, seat_name: str, new_user, *, actor, how: str,
              reason: str = "", log: bool = True, offer: SeatOffer | None = None,
              now: datetime | None = None) -> Seat:
    """Give seat `seat_name` to `new_user` (see the module docstring). `log=False` when
    the caller writes its own log entry for the act (the GM's replace does)."""
    now = now or timezone.now()
    with transaction.atomic():
        game, turn = _lock(game)
        seat = game.seats.select_related("user").filter(name=seat_name).first()
        if seat is None:
            raise ActionError(f"this game has no seat {seat_name!r}")
        if game.status == Game.Status.FINISHED:
            raise Conflict("this game is over: its seats no longer change hands")
        if new_user is None or not new_user.is_active:
            raise ActionError("choose an active user to take the seat")
        if game.seats.filter(user=new_user).exists():
            raise Conflict(f"{new_user.username} already has a seat in this game")
        barred = play.seat_barred(game, new_user, named=True)
        if barred:
            raise Conflict(f"{barred}: choose another player for seat {seat.name}")
        old = seat.player_name()
        old_user = seat.user
        _close_holding(seat, now, "substituted" if how == SeatHolding.How.SUBSTITUTE
                       else reason or "replaced")
        seat.user = new_user
        seat.mail_token = new_token()
        seat.emails = []
        seat.allow_any_sender = False
        seat.mode = Seat.Mode.ACTIVE
        seat.save(update_fields=["user", "mail_token", "emails", "allow_any_sender", "mode"])
        holding = SeatHolding.objects.create(
            seat=seat, user=new_user, username=new_user.username, how=how, started=now,
            from_turn=turn.number if turn is not None else None)
        live = SeatOffer.objects.filter(seat=seat, status__in=SeatOffer.LIVE)
        if offer is not None:
            live = live | SeatOffer.objects.filter(pk=offer.pk)
        live.update(status=SeatOffer.Status.FILLED, taker=new_user, closed=now)
        if log:
            verb = "takes over" if how == SeatHolding.How.SUBSTITUTE else "now plays"
            play.record_log(game, "seat-handed-over",
                            f"{new_user.username} {verb} seat {seat.name} (was {old}).",
                            actor=actor, reason=reason,
                            private={"seat": seat.name, "old": old, "new": new_user.username,
                                     "how": how},
                            turn_number=turn.number if turn is not None else None)
        give_time(game, turn, seat, now, actor=actor)
        from . import briefing

        briefing.mail_briefing(game, seat, holding)
        text = f"{new_user.username} now plays seat {seat.name} (was {old})."
        transaction.on_commit(lambda: signals.notable.send(
            sender=Game, game=game, kind="seat_taken", text=text, users=None, urgent=False,
            url=f"/games/{game.pk}/seats/"), robust=True)
        from .signals import seat_handed_over

        transaction.on_commit(lambda: seat_handed_over.send(
            sender=Game, game=game, seat=seat, old_user=old_user, new_user=new_user,
            how=how), robust=True)
    return seat


def history(seat: Seat) -> list[dict]:
    """The line of players who held `seat`, first to current; a seat taken by joining
    and never handed over has no row yet, so its player is listed from the seat."""
    rows = [{"player": h.username, "how": h.get_how_display(), "from": h.started,
             "to": h.ended, "from_turn": h.from_turn, "left_why": h.left_why}
            for h in seat.holdings.all()]
    if seat.user_id is not None and not any(r["to"] is None for r in rows):
        rows.append({"player": seat.user.username, "how": SeatHolding.How.JOINED.label,
                     "from": seat.joined, "to": None, "from_turn": 1, "left_why": ""})
    return rows
