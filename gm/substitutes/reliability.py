"""A player's reliability record: games finished, deadlines met, misses, civil disorders,
vacations used, and what the substitutes app knows (seats left, seats taken over).

PROVIDERS is a registry of callables user -> {count name: int}; the record sums them.
Other apps append theirs (the absence app contributes "vacations_used"). Deadlines are
counted from the turn records: a seat that owed orders (its name in the turn's decision)
met the deadline unless the record lists it among the seats that got default orders.
A player is counted for the turns opened after they took the seat and resolved before
they left it: the turn open at a hand-over counts for neither (the leaver was gone at its
deadline, the newcomer came in during it and may have had little time).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from gm.play.models import Game, TurnRecord

from .models import SeatHolding, SeatOffer

COUNTS = ("games_finished", "deadlines_met", "misses", "civil_disorders", "vacations_used",
          "seats_left", "seats_taken_over")

Provider = Callable[[Any], dict[str, int]]


def _windows(user) -> list[tuple[int, str, datetime | None, datetime | None]]:
    """(game id, seat name, from, to) of every time `user` held a seat."""
    out = [(h.seat.game_id, h.seat.name, h.started, h.ended)
           for h in SeatHolding.objects.filter(user=user).select_related("seat")]
    held = {(g, s) for g, s, _f, to in out if to is None}
    for seat in user.seats.all():
        if (seat.game_id, seat.name) not in held:
            # joined and never handed over: from the start (an ended holding of an
            # earlier time in the same seat bounds nothing here; it is rare and counted)
            out.append((seat.game_id, seat.name, None, None))
    return out


def deadlines(user) -> dict[str, int]:
    """Deadlines met and missed, and games finished in a seat, from the play tables."""
    windows = _windows(user)
    met = missed = 0
    games = {g for g, _s, _f, _t in windows}
    records = (TurnRecord.objects.filter(game_id__in=games, superseded=False)
               .values_list("game_id", "turn__decision", "defaulted", "turn__opened",
                            "created"))
    by_game: dict[int, list] = {}
    for row in records:
        by_game.setdefault(row[0], []).append(row)
    for game_id, name, start, end in windows:
        for _g, decision, defaulted, opened, resolved in by_game.get(game_id, ()):
            if name not in (decision or {}).get("prompts", {}):
                continue
            if start is not None and opened < start:
                continue
            if end is not None and resolved >= end:
                continue
            if name in (defaulted or []):
                missed += 1
            else:
                met += 1
    current = {g for g, _s, _f, to in windows if to is None}
    finished = Game.objects.filter(pk__in=current, status=Game.Status.FINISHED).count()
    return {"games_finished": finished, "deadlines_met": met, "misses": missed}


def substitutes(user) -> dict[str, int]:
    """What this app recorded: civil disorders of seats the player held (from the offers
    made when the absence app reported them), seats left, seats taken over."""
    offers = SeatOffer.objects.filter(holder=user)
    return {
        "civil_disorders": offers.filter(reason=SeatOffer.Reason.CIVIL_DISORDER).count(),
        "seats_left": offers.filter(reason=SeatOffer.Reason.LEAVING,
                                    status=SeatOffer.Status.FILLED).count(),
        "seats_taken_over": SeatHolding.objects.filter(
            user=user, how=SeatHolding.How.SUBSTITUTE).count(),
    }


PROVIDERS: list[Provider] = [deadlines, substitutes]


def record(user) -> dict[str, Any]:
    """The sum of every provider's counts, each named in COUNTS present (0 when none
    gives it), and `met_percent`: deadlines met out of all owed, None before any."""
    out: dict[str, Any] = dict.fromkeys(COUNTS, 0)
    for provider in PROVIDERS:
        for name, value in provider(user).items():
            out[name] = out.get(name, 0) + int(value)
    owed = out["deadlines_met"] + out["misses"]
    out["met_percent"] = round(100 * out["deadlines_met"] / owed) if owed else None
    return out


def shortfall(game: Game, user) -> str:
    """Why `user`'s record is below what `game` asks to join, or ""."""
    from .policy import policy_of

    policy = policy_of(game)
    if not (policy.min_finished or policy.min_met_percent):
        return ""
    mine = record(user)
    if mine["games_finished"] < policy.min_finished:
        return (f"this game asks for at least {policy.min_finished} finished game"
                f"{'' if policy.min_finished == 1 else 's'} (your record shows "
                f"{mine['games_finished']})")
    if policy.min_met_percent and (mine["met_percent"] or 0) < policy.min_met_percent:
        shown = "no deadlines yet" if mine["met_percent"] is None \
            else f"{mine['met_percent']}%"
        return (f"this game asks for at least {policy.min_met_percent}% of deadlines met "
                f"(your record shows {shown})")
    return ""


def join_check(game: Game, user) -> str:
    """gm.play.actions.JOIN_CHECKS entry: the game's minimum record (its GM is exempt)."""
    if user.pk == game.gm_id:
        return ""
    return shortfall(game, user)
