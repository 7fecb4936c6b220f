"""Amendments to the live state: a versioned patch on the open turn, in the format replay
applies, with the open orders checked again and a fresh deadline where one is due.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core.canonical import state_hash
from games.core.engine import Engine
from games.core.types import Orders, OrdersInvalid
from gm.play import actions as play
from gm.play.errors import Conflict
from gm.play.models import Game, Submission, Turn

from .. import patching, signals
from .common import _lock, _reason, _running, _send, log_act, require_gm


def make_amendment(engine: Engine, actor, reason: str, from_json: Any, new_json: Any
                   ) -> dict[str, Any]:
    """The replay-format amendment from one state to another, checked by the invariants."""
    try:
        state = engine.from_json(new_json)
        problems = engine.invariants(state)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise patching.PatchError(f"the engine cannot read the amended state: {exc}") from None
    if problems:
        raise patching.PatchError("the amended state breaks the rules: " + "; ".join(problems))
    canon = engine.to_json(state)
    return {"author": actor.username, "reason": reason,
            "from_hash": state_hash(engine.to_json(engine.from_json(from_json))),
            "state": canon, "to_hash": state_hash(canon)}


def _amend_turn(game: Game, engine: Engine, turn: Turn, actor, reason: str,
                changes: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply a patch to game.state and append it to `turn.amendments` (both saved)."""
    new_json, patch = patching.apply(game.state, changes)
    patching.check_readable(engine, new_json, (game.setup_record or {}).get("seats", []))
    amendment = make_amendment(engine, actor, reason, game.state, new_json)
    decision = engine.decision(engine.from_json(amendment["state"]))
    if decision is None:
        raise patching.PatchError("the amended state would end the game; amend it so the game "
                                  "goes on, the rules decide when it ends")
    turn.amendments = [*turn.amendments, amendment]
    turn.decision = decision.to_json()
    turn.save(update_fields=["amendments", "decision"])
    game.state = amendment["state"]
    game.state_hash = amendment["to_hash"]
    game.save(update_fields=["state", "state_hash"])
    return amendment, patch


def amend_state(game: Game, actor, reason: str, changes: list[dict[str, Any]], *,
                now: datetime | None = None) -> dict[str, Any]:
    """Patch the state before the open turn resolves (a versioned amendment, see replay).

    Orders already in that no longer parse against the new state are withdrawn (a GM
    version) and their seats get a fresh deadline; the turn's decision is recomputed.
    """
    require_gm(game, actor)
    reason = _reason(reason)
    now = now or timezone.now()
    engine = play.engine_for(game)
    with transaction.atomic():
        game, turn = _lock(game)
        _running(game)
        if turn is None or turn.status not in (Turn.Status.OPEN, Turn.Status.PAUSED):
            raise Conflict("the state can be amended while a turn is open for orders; to "
                           "change a resolved turn, rerun it with the amendment")
        amendment, patch = _amend_turn(game, engine, turn, actor, reason, changes)
        version = len(turn.amendments)
        log_act(game, "amended", f"{actor.username} amended the game state before turn "
                f"{turn.number} (amendment {version}, {len(patch)} value"
                f"{'s' if len(patch) != 1 else ''} changed).", actor=actor, reason=reason,
                turn_number=turn.number,
                private={"version": version, "patch": patch,
                         "from_hash": amendment["from_hash"], "to_hash": amendment["to_hash"]})
        invalid = _recheck_open_orders(game, engine, turn, actor, now)
        if turn.status == Turn.Status.OPEN and not invalid:
            play.maybe_due_early(game, turn)
    return {"version": version, "patch": patch, **amendment}


def _recheck_open_orders(game: Game, engine: Engine, turn: Turn, actor,
                         now: datetime) -> list[str]:
    """Withdraw open-turn orders the new state no longer accepts; give those seats time."""
    state = engine.from_json(game.state)
    invalid = []
    for seat in game.seats.all():
        sub = play.latest_submission(turn, seat)
        if sub is None or sub.withdrawn:
            continue
        if seat.name not in turn.owing:
            invalid.append(seat.name)
        else:
            try:
                engine.parse_orders(state, seat.name, Orders.from_json(sub.orders).text)
                continue
            except OrdersInvalid:
                invalid.append(seat.name)
        play.new_version(turn, seat, "", None, "", Submission.Source.GM, actor)
    if invalid:
        _fresh_deadline(game, turn, invalid, now)
    return invalid


def _fresh_deadline(game: Game, turn: Turn, seats: list[str], now: datetime) -> None:
    fresh = now + play.turn_length(game)
    if turn.status == Turn.Status.PAUSED:
        game.paused_remaining = max(game.paused_remaining or timedelta(0),
                                    play.turn_length(game))
        game.save(update_fields=["paused_remaining"])
    elif turn.deadline is None or turn.deadline < fresh:
        turn.deadline = fresh
        turn.save(update_fields=["deadline"])
    play.record_log(game, "orders-invalidated", f"Orders from {', '.join(seats)} no longer fit "
                    f"the game after the GM's change; {'they' if len(seats) > 1 else 'it'} "
                    f"must send new orders for turn {turn.number}.", turn_number=turn.number)
    _send(signals.orders_invalidated, turn=turn, seats=list(seats))
