"""The service logic: every view, task, command and mail handler goes through here.

Exactly-once resolution (ARCHITECTURE.md, "The service contract"):
* a turn becomes DUE by a compare-and-set (OPEN -> DUE) from the sweep, the "all orders
  in" check or a GM's force;
* `resolve_turn` claims it with a second compare-and-set (DUE -> RESOLVED, or HELD for
  review) inside the same transaction that writes the record and opens the next turn, so
  a killed worker rolls everything back and the redelivered task (acks_late) does it
  again, once (RESOLVING is the GM's release of a held turn);
* a live TurnRecord is unique per (game, number) in the database, a last line of defence;
* orders are accepted only while the turn row is OPEN, checked under the row lock, so an
  order racing the deadline is either in the resolution or refused as late.

The behaviours live in one module each: `common` (shared helpers), `seating` (create,
join, start), `turns` (opening, due, resolution, publishing), `orders` (check, submit,
withdraw) and `reading` (views, reports, export, summaries). Callers use this package
(`from gm.play import actions; actions.submit_orders(...)`); the modules import one
another one way only: common < turns < seating < reading < orders.
"""

from ..errors import (  # noqa: F401 (re-exported)
    ActionError,
    Conflict,
    LateOrders,
    NotAllowed,
    TurnClosed,
)
from .common import (  # noqa: F401
    GM_VIEWER,
    _enqueue_resolve,
    _notice,
    _notices,
    _on_commit,
    _send,
    engine_for,
    reaction_length,
    record_log,
    turn_length,
)
from .orders import (  # noqa: F401
    _closed,
    _open_turn_for,
    _why_closed,
    check_orders,
    new_version,
    orders_state,
    submit_orders,
    withdraw_orders,
)
from .reading import (  # noqa: F401
    _UNREAD,
    StateUnreadable,
    _rep,
    export_game,
    game_summary,
    my_orders,
    orders_error_payload,
    owing_summary,
    post_message,
    published_state,
    receipt_json,
    reports_for,
    setup_report,
    stored_state,
    view_for,
    view_of,
    viewer_for,
)
from .seating import (  # noqa: F401
    JOIN_CHECKS,
    create_game,
    join_game,
    seat_barred,
    seat_capacity,
    start_game,
)
from .turns import (  # noqa: F401
    _deadline,
    _finish,
    _finishing,
    _length,
    _opened,
    _opening,
    _orders_for,
    _pseudo_orders,
    _record_writes,
    compose_report,
    latest_submission,
    mark_due,
    maybe_due_early,
    open_turn,
    publish,
    resolve_at_deadline,
    resolve_turn,
    seats_in,
    seats_ready,
    sweep_deadlines,
)
