"""Orders: checked by the engine, stored as a new version under the live turn's row lock
(so an order racing the deadline is either in the resolution or refused as late),
withdrawn; and why a late order was refused.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games.core.types import Orders, OrdersInvalid

from .. import limits, live_rows, signals
from ..errors import (
    ActionError,
    Conflict,
    LateOrders,
    TurnClosed,
)
from ..models import (
    Game,
    LogEntry,
    Seat,
    Submission,
    Turn,
    TurnRecord,
)
from .common import _send, engine_for
from .reading import receipt_json, stored_state
from .turns import latest_submission, maybe_due_early, seats_in


def _open_turn_for(game: Game, seat: Seat, *,
                   turn_number: int | None = None) -> tuple[Turn, Game]:
    """The live turn `seat` may order for now, locked, with its game read fresh under
    the lock (one statement, `live_rows.lock_live_turn`); or the reason why not.

    With `turn_number` (the turn the orders were written for: API field, form field, mail
    reference) anything but the open turn of that number is refused as late, with the
    receipt of what stands for it: an order is never moved to another turn.
    """
    found = live_rows.lock_live_turn(game.pk)
    turn, game = found if found is not None else (None, game)
    if game.status == Game.Status.FINISHED:
        raise LateOrders("this game is over; no more orders are taken")
    if game.status == Game.Status.OPEN:
        raise Conflict("this game has not started yet")
    if turn is None:  # a GM rerun/rollback superseded the turn while we waited for it
        raise Conflict("the GM is replaying turns of this game right now; look at the game "
                       "page and send your orders again")
    is_open = turn.status == Turn.Status.OPEN and not (turn.deadline
                                                       and turn.deadline <= timezone.now())
    if turn_number is not None and turn_number < 1:  # a hand-edited form field
        raise ActionError(f"there is no turn {turn_number}: turns are numbered from 1, and "
                          f"the current turn is {turn.number}")
    if turn_number is not None and turn_number > turn.number:
        raise Conflict(f"turn {turn_number} has not opened yet; the current turn is "
                       f"{turn.number}")
    paused = turn.status == Turn.Status.PAUSED or game.status == Game.Status.PAUSED
    if turn_number is not None and (turn_number < turn.number or not (is_open or paused)):
        raise _closed(game, seat, turn_number, turn if is_open else None)
    if paused:
        raise Conflict("the GM has paused this game; orders open again when it resumes")
    if not is_open:
        raise _closed(game, seat, turn.number, None)
    if seat.name not in turn.owing:
        raise Conflict(f"seat {seat.name} owes no orders this turn (waiting for: "
                       f"{', '.join(turn.owing)})")
    return turn, game


def _closed(game: Game, seat: Seat, number: int, open_turn: Turn | None) -> TurnClosed:
    """The refusal of orders for closed turn `number`, with the receipt of what stands."""
    closed = Turn.objects.filter(game=game, superseded=False, number=number).first()
    standing = latest_submission(closed, seat) if closed else None
    if standing is not None and standing.withdrawn:
        standing = None
    where = (f" Turn {open_turn.number} is open now: send orders for it."
             if open_turn is not None else "")
    kept = (f" Your version {standing.version} (receipt {standing.receipt[:16]}) stands."
            if standing else " You had no orders in for it.")
    return TurnClosed(f"{_why_closed(game, closed, number)}; those orders were not "
                      f"kept.{kept}{where}", turn=number,
                      open_turn=open_turn.number if open_turn else None,
                      standing=receipt_json(standing) if standing else None)


def _why_closed(game: Game, turn: Turn | None, number: int) -> str:
    """Why turn `number` takes no more orders, as it happened: its deadline passed, or it
    closed early (the GM forced it, or every owing seat was in). Read on refusals only."""
    if turn is None:
        return f"turn {number} is closed"
    closed_at = turn.claimed_at or turn.resolved_at
    if turn.deadline is not None and (closed_at is None or closed_at >= turn.deadline):
        why = (f"the deadline for turn {number} has passed" if closed_at is not None
               or turn.deadline <= timezone.now() else f"turn {number} is closed")
    elif closed_at is None:
        why = f"turn {number} is closed"
    elif LogEntry.objects.filter(game=game, action="forced", turn_number=number,
                                 created__gte=turn.opened).exists():
        why = f"the GM closed turn {number} early for resolution"
    elif set(turn.owing) <= seats_in(turn):
        why = f"turn {number} closed early: every seat's orders were in"
    else:
        why = f"turn {number} closed before its deadline"
    if turn.status == Turn.Status.HELD:
        why += " (its report waits for the GM's review)"
    return why


def submit_orders(game: Game, seat: Seat, text: str, *, source: str = Submission.Source.WEB,
                  author=None, turn_number: int | None = None,
                  ready: bool = True) -> Submission:
    """Validate and store a new version of the seat's orders; raise OrdersInvalid/LateOrders.

    The seat's previous accepted version stays in force when the new text has errors.
    `turn_number` names the turn the orders were written for (see `_open_turn_for`).
    `ready` False (issue 28): saved, not ready: the version stands at the deadline like
    any other but does not close the turn early (`maybe_due_early`).

    The hot path of web, API and mail (bench/orders.py, bench/inbound.py): one statement
    locks the turn and reads the game, one INSERT stores the version, one more checks
    whether every owing seat is in when the game processes early. No savepoint (two
    round trips on every order): nothing is written before a refusal, and the refusal
    is raised after the atomic block, so it does not doom a caller's transaction (the
    mail pipeline writes its answer in it). A database error still dooms it, as it must.
    """
    limits.check_order_text(text)
    engine = engine_for(game)
    refusal: Exception | None = None
    with transaction.atomic(savepoint=False):
        try:
            turn, game = _open_turn_for(game, seat, turn_number=turn_number)
            with stored_state(game, "read"):
                orders = engine.parse_orders(engine.from_json(game.state), seat.name, text)
        except (ActionError, OrdersInvalid) as exc:
            refusal = exc
        else:
            sub = new_version(turn, seat, text, orders.to_json(), orders.receipt, source,
                              author, ready=ready)
            if ready:  # a saved version changes nothing early processing waits for
                maybe_due_early(game, turn)
            _send(signals.orders_received, submission=sub)
    if refusal is not None:
        raise refusal
    return sub


def withdraw_orders(game: Game, seat: Seat, *, source: str = Submission.Source.WEB,
                    author=None, turn_number: int | None = None) -> Submission:
    """A new, empty version; refused like `submit_orders`, without a savepoint."""
    refusal: Exception | None = None
    with transaction.atomic(savepoint=False):
        try:
            turn, _game = _open_turn_for(game, seat, turn_number=turn_number)
            current = latest_submission(turn, seat)
            if current is None or current.withdrawn:
                raise Conflict("there are no orders to withdraw")
        except ActionError as exc:
            refusal = exc
        else:
            sub = new_version(turn, seat, "", None, "", source, author)
            _send(signals.orders_received, submission=sub)
    if refusal is not None:
        raise refusal
    return sub


def new_version(turn: Turn, seat: Seat, text: str, orders: dict | None, receipt: str,
                source: str, author, *, ready: bool = True) -> Submission:
    """The next version of `seat`'s orders for `turn` (the caller holds the turn's lock)."""
    return live_rows.insert_version(turn, seat, text, orders, receipt, source, author,
                                    timezone.now(), ready=ready)


def check_orders(game: Game, seat: Seat, text: str) -> Orders:
    """Parse without storing (for previews); raises OrdersInvalid.

    Read against the published state (`orders_state`): while a turn is held for review,
    the stored state is its unpublished outcome, and a preview's verdict on it would
    tell the player what the report has not told yet."""
    limits.check_order_text(text)
    engine = engine_for(game)
    with stored_state(game, "read"):
        return engine.parse_orders(engine.from_json(orders_state(game.pk)), seat.name, text)


def orders_state(game_pk: int) -> Any:
    """The state a player's text is read against outside a submission (previews, the
    greeting trim of web and mail): the published one, read fresh in one statement, so
    a turn held for review gives its state before, never its outcome. (A submission
    reads `game.state` under the live turn's lock: it is refused while a turn is held.)"""
    held = (TurnRecord.objects.filter(game=OuterRef("pk"), superseded=False, published=False,
                                      turn__status=Turn.Status.HELD)
            .values("state_before")[:1])
    state, before = (Game.objects.filter(pk=game_pk).annotate(held=Subquery(held))
                     .values_list("state", "held").get())
    return state if before is None else before
