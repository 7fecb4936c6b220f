"""The GM's powers: one function per act, each checked, atomic and written to the log.

Every act needs an author (a GM of the game: its GM, a co-GM or a superuser) and a
reason, and leaves a `LogEntry` whose `public` text is what players may read and whose
`private` JSON holds the details only GMs see. The turn machinery is gm.play's: turns are
opened, resolved and published by `gm.play.actions`, and a rerun is nothing but turns
opened again and resolved with the orders of their superseded records.

Timeline rules kept here:
* nothing is deleted: rerun and rollback mark Turns and TurnRecords `superseded`;
* a state amendment is a versioned patch appended to the open turn's `amendments` in the
  exact format `games.core.replay.replay()` applies, so an export shows it;
* a die fix is a `Turn.overrides` entry, only on a turn already resolved (its draws are
  known, so the fix can be checked) and applied by re-resolving that turn.

The acts live in one module each: `common` (checks and the log), `clock` (pause,
resume, deadlines, review holds), `amendments` (the state), `history` (rerun, rollback,
replaced orders, fixed dice) and `seats` (players, seat modes, co-GMs). Callers use this
package (`from gm.referee import actions`); the modules import one another one way only.
"""

from .amendments import (  # noqa: F401
    _amend_turn,
    _fresh_deadline,
    _recheck_open_orders,
    amend_state,
    make_amendment,
)
from .clock import (  # noqa: F401
    extend_deadline,
    force_resolution,
    pause,
    release,
    resume,
    set_hold,
)
from .common import (  # noqa: F401
    DEADLINE_MAX_AHEAD,
    REASON_MAX,
    _fmt,
    _lock,
    _reason,
    _running,
    _seat,
    _send,
    log_act,
    require_gm,
)
from .history import (  # noqa: F401
    RerunResult,
    _carry_amendments,
    _carry_open_orders,
    _carry_record_orders,
    _rewind,
    _set_aside,
    _supersede,
    _timeline,
    check_die_value,
    fix_die,
    replace_orders,
    rerun_from,
    rollback_to,
    state_before,
)
from .seats import (  # noqa: F401
    _require_main_gm,
    replace_player,
    set_co_gm,
    set_seat_mode,
)
