"""A turn's life: opened with its deadline, due (all orders in, the deadline, a GM),
resolved exactly once, its reports published, the next turn opened or the game finished.

Exactly-once resolution (ARCHITECTURE.md, "The service contract"): a turn becomes DUE by a
compare-and-set (OPEN -> DUE) from the sweep, the "all orders in" check or a GM's force;
`resolve_turn` claims it with a second compare-and-set (DUE -> RESOLVED, or HELD for
review) inside the same transaction that writes the record and opens the next turn, so a
killed worker rolls everything back and the redelivered task (acks_late) does it again,
once (RESOLVING is the GM's release of a held turn); a live TurnRecord is unique per
(game, number) in the database, a last line of defence.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core.engine import Engine
from games.core.replay import run_turn, secret_rng
from games.core.types import Decision, Event, Orders

from .. import hooks, live_rows, rows, signals, sweep, turn_rows
from ..models import (
    Game,
    Notice,
    Post,
    Seat,
    Submission,
    Turn,
    TurnRecord,
)
from .common import (
    GM_VIEWER,
    _enqueue_resolve,
    _send,
    engine_for,
    log,
    reaction_length,
    record_log,
    turn_length,
)


def open_turn(game: Game, engine: Engine, state: Any, number: int, now: datetime, *,
              attempt: int | None = None, notices: tuple[tuple[str, int], ...] = (),
              resolution: TurnRecord | None = None
              ) -> Turn | None:
    """Open turn `number` for orders (or finish the game).

    A number opened again after the GM set it aside draws from a fresh dice stream
    (attempt = one more than any earlier turn of that number) unless `attempt` says
    otherwise (a die fix keeps the stream of the draws it fixes). `notices`: the caller's
    events, recorded with this one's in one statement. `resolution`: the record whose
    publication opens it, named in the signal (one mail task for both).
    """
    decision = engine.decision(state)
    if decision is None:
        _finish(game, engine, state, now, notices=notices, resolution=resolution)
        return None
    opening = _opening(game, decision, number, now, attempt,
                       [(kind, rows.value(pk)) for kind, pk in notices])
    return _opened(game, decision, number, now, rows.chain(opening), resolution)


def _opening(game: Game, decision: Decision, number: int, now: datetime,
             attempt: int | None, notices: list[tuple[str, rows.Ref]]) -> list[rows.Stmt]:
    """The statements opening turn `number` on `decision`: the turn (its attempt, when
    None, one more than any earlier turn of that number: a subquery of the INSERT), and
    the caller's notices with its own, in one INSERT."""
    return [turn_rows.insert_turn(game.pk, number, decision.to_json(),
                                  _deadline(game, decision, now), attempt, now),
            turn_rows.insert_notices(game.pk, [*notices, (Notice.Kind.TURN_OPENED,
                                                          rows.ref("nxt"))], now)]


def _length(game: Game, decision: Decision) -> timedelta:
    return reaction_length(game) if decision.reaction else turn_length(game)


# --- gm.notify: deadlines at a human hour (issue 26) -----------------------------------
def _deadline(game: Game, decision: Decision, now: datetime) -> datetime:
    """When a turn opened `now` closes: its length, moved to the game's fixed local hour
    and off its excluded days when it has a schedule (gm.notify.schedule). Computed once
    per opening (the statements and the new Turn instance both ask)."""
    if decision.reaction:
        return now + reaction_length(game)
    memo = game.__dict__.get("_deadline_memo")
    if memo is not None and memo[0] == now:
        return memo[1]
    deadline = now + turn_length(game)
    if hooks.deadline_for is not None:  # gm.notify, when installed
        deadline = hooks.deadline_for(game, now, turn_length(game))
    game.__dict__["_deadline_memo"] = (now, deadline)
    return deadline
# --- end gm.notify ---------------------------------------------------------------------


def _opened(game: Game, decision: Decision, number: int, now: datetime,
            written: dict[str, Any], resolution: TurnRecord | None,
            idle: set[str] | None = None) -> Turn:
    """After `_opening`'s statements ran: the new turn, signalled, maybe due at once
    (`idle`: see maybe_due_early), its deadline scheduled."""
    row = written["nxt"]
    turn = turn_rows.new_turn(game, number, decision.to_json(), _deadline(game, decision, now),
                              row["attempt"], now, row["id"])
    # signalled before a resolution at once can queue (in-process: run) the next one, so
    # this resolution's mail goes out before the next one's
    _send(signals.turn_opened, turn=turn, resolution=resolution)
    # Seats that only play defaults owe nothing a human can give: maybe resolve at once.
    maybe_due_early(game, turn, idle=idle)
    if turn.status == Turn.Status.OPEN:
        sweep.schedule_deadline(turn)  # resolved at the deadline itself, the sweep as backstop
    return turn


def _finish(game: Game, engine: Engine, state: Any, now: datetime, *,
            notices: tuple[tuple[str, int], ...] = (),
            resolution: TurnRecord | None = None) -> None:
    rows.chain(_finishing(game, engine, state, now,
                          [(kind, rows.value(pk)) for kind, pk in notices]))
    _send(signals.game_finished, game=game, resolution=resolution)


def _finishing(game: Game, engine: Engine, state: Any, now: datetime,
               notices: list[tuple[str, rows.Ref]], *, update: bool = True
               ) -> list[rows.Stmt]:
    """The statements ending the game: its status, end and result (`update` False: the
    caller's UPDATE of the game row writes them, `turn_rows.set_game_state`), the log line
    revealing the dice secret, the caller's notices with game_finished (one INSERT); the
    game set so in memory."""
    game.status = Game.Status.FINISHED
    game.finished = now
    game.result = engine.result(state)
    summary = game.result.get("summary") or "The game is over."
    writes = [turn_rows.finish_game(game.pk, now, game.result)] if update else []
    return [*writes,
            turn_rows.insert_log(game.pk, "finished", f"{summary} The dice secret is now "
                                 f"public: {game.secret}", timezone.now()),
            turn_rows.insert_notices(game.pk, [*notices, (Notice.Kind.GAME_FINISHED,
                                                          rows.value(game.pk))], now)]


def latest_submission(turn: Turn, seat: Seat) -> Submission | None:
    return turn.submissions.filter(seat=seat).order_by("-version").first()


def seats_in(turn: Turn) -> set[str]:
    """Owing seats whose latest version holds orders (withdrawn ones do not count)."""
    return live_rows.seats_in(turn)


def seats_ready(turn: Turn) -> set[str]:
    """Owing seats in and ready (issue 28): a saved, not ready latest version is in (it
    stands at the deadline) but does not let the turn close early."""
    return live_rows.seats_ready(turn)


def maybe_due_early(game: Game, turn: Turn, *, idle: set[str] | None = None) -> None:
    """Claim the turn (mark_due) when the game processes early and every owing seat is in
    and ready (`seats_ready`: saved, not ready orders wait for the deadline).

    `idle`: for a turn opened in this transaction (no orders yet, so only the seats that
    do not play actively are in, as `seats_in` counts them), those seats as the caller
    read them under the game's lock: no query."""
    if not game.process_early or turn.status != Turn.Status.OPEN:
        return
    if set(turn.owing) <= (seats_ready(turn) if idle is None else idle):
        mark_due(turn, reason="all orders in and ready")


def mark_due(turn: Turn, *, reason: str = "deadline") -> bool:
    """Compare-and-set OPEN -> DUE and queue resolution (after commit). True if claimed."""
    claimed = Turn.objects.filter(pk=turn.pk, status=Turn.Status.OPEN, superseded=False
                                  ).update(status=Turn.Status.DUE, claimed_at=timezone.now())
    if claimed:
        turn.status = Turn.Status.DUE
        log.info("turn %s of game %s is due (%s)", turn.number, turn.game_id, reason)
        _enqueue_resolve(turn.pk)
    return bool(claimed)


def sweep_deadlines(now: datetime | None = None) -> list[int]:
    """Claim every open turn past its deadline; re-queue claims whose worker vanished.

    Set-based (gm.play.sweep): one statement per 1,000 claims, one producer connection;
    the (status, deadline) index keeps its cost proportional to the due turns only.
    """
    return sweep.sweep(now or timezone.now())


def _orders_for(engine: Engine, state: Any, turn: Turn, stand_in: Any = None
                ) -> tuple[dict[str, Orders], list[str], set[str]]:
    """The orders in force for each owing seat: its latest version, or its defaults (no
    orders, withdrawn, or a seat not playing actively); and the game's seats that do not
    play actively (see maybe_due_early). One query, no model instances."""
    seats = turn_rows.latest_orders(turn)
    orders: dict[str, Orders] = {}
    defaulted: list[str] = []
    for name in turn.owing:
        mode, sent = seats.get(name, (None, None))
        # None: no version, or the latest withdrew them
        if mode == Seat.Mode.ACTIVE and sent is not None:
            orders[name] = Orders.from_json(sent)
        elif mode is None and name in engine.pseudo_seats and \
                (given := _pseudo_orders(turn, name)) is not None:
            orders[name] = given  # played by the game's GM (see signals.pseudo_orders)
        else:
            # gm.absence: a bot's or the seat's "if I miss" orders before the defaults
            orders[name] = (stand_in(name) if stand_in else None) or \
                engine.default_orders(state, name)
            defaulted.append(name)
    return orders, defaulted, {n for n, (mode, _o) in seats.items() if mode != Seat.Mode.ACTIVE}


def _pseudo_orders(turn: Turn, seat: str) -> Orders | None:
    """A pseudo seat's orders for `turn` from the app that keeps them, or None."""
    for _receiver, given in signals.pseudo_orders.send(sender=Turn, turn=turn, seat=seat):
        if given is not None:
            return given
    return None


def resolve_turn(turn_id: int, *, hold: bool | None = None) -> bool:
    """Resolve a DUE turn exactly once. Returns False when there was nothing to do.

    `hold`: hold the outcome for the GM's review (None: as the game's review mode says).
    A GM's rerun passes False for the turns it publishes on its way (newcomer, issue 28:
    the log said "held for the GM's review" of turns the rerun published at once)."""
    try:
        with transaction.atomic():
            now = timezone.now()
            # A turn the GM set aside is never resolved (superseded is checked under the
            # row lock the claim takes, so a rerun committing meanwhile wins). The claim
            # writes the turn's final status at once: nobody sees it before the commit,
            # and a failure rolls it back to DUE with everything else. It locks the turn,
            # then its game, and reads both (turn_rows.claim: one statement).
            claimed = turn_rows.claim(turn_id, Turn.Status.RESOLVED.value, now)
            if claimed is None:
                return False
            turn, game = claimed
            holding = game.hold_for_review if hold is None else hold  # newcomer
            engine = engine_for(game)
            # the stored state read and put in canonical form in one pass, handed to
            # run_turn with its canonical text (the before hash is taken of it)
            state, text = engine.read(game.state)
            # --- gm.absence: a grace or a vacation wait moves the deadline instead
            # (the turn back to OPEN, in this transaction); else who stands in for whom
            plan = None if hooks.at_resolution is None else \
                hooks.at_resolution(game, turn, engine, state, now)
            if plan is not None and plan.postponed:
                return False
            orders, defaulted, idle = _orders_for(engine, state, turn,
                                                  plan.stand_in if plan else None)
            # --- end gm.absence
            step = run_turn(engine, state, orders, secret_rng(
                game.secret, turn.number, turn.overrides, turn.attempt), text=text)
            record = TurnRecord(
                game=game, turn_id=turn.pk, number=turn.number,
                orders={s: o.to_json() for s, o in sorted(orders.items())},
                defaulted=defaulted, draws=[d.to_json() for d in step.draws],
                events=[e.to_json() for e in step.events],
                overrides={str(k): v for k, v in turn.overrides.items()},
                amendments=list(turn.amendments), attempt=turn.attempt,
                # the JSON value of the canonical text run_turn read the state back
                # from (what engine.to_json gives, without encoding the state again);
                # that text is what is stored
                state_before=game.state, state_after=json.loads(step.text),
                before_hash=step.before_hash, after_hash=step.after_hash,
                published=not holding, created=now)
            # the turn cached on the record one way only: `turn=turn` would also cache
            # the record on the turn (a one-to-one), a reference cycle that left the
            # resolution's objects, its states' dicts and lists with them (about 150 per
            # turn), to the cyclic garbage collector instead of freeing them on return
            rows.cache_related(record, "turn", turn)
            if holding:
                written = rows.chain([*_record_writes(record, now, step.text),
                                      turn_rows.set_turn_status(turn.pk,
                                                                Turn.Status.HELD.value)])
                rows.saved(record, written["rec"]["id"])
                record_log(game, "held", f"Turn {turn.number} is resolved and held for the "
                           "GM's review.", turn_number=turn.number)
            else:
                # the record is written with its publication (one statement)
                publish(record, closed=True, state=step.state, idle=idle, text=step.text)
    except IntegrityError:
        # Another worker wrote this turn's record first: that is the exactly-once guard.
        log.warning("turn id %s already has a record; skipping duplicate resolution", turn_id)
        return False
    return True


def resolve_at_deadline(turn_id: int, queued_deadline: str | None = None) -> bool:
    """Run by the task queued for the deadline: claim (OPEN -> DUE) and resolve at once.

    The claim is the same compare-and-set as the sweep's, so a turn the sweep, the "all
    orders in" check or a GM already claimed is left to them (resolve_turn is exactly
    once either way). A turn still open was reached early (its deadline is the one this
    task was queued for: queued again for it) or has a deadline the GM moved (queued
    when that one comes near, unless the sweep did already).
    """
    now = timezone.now()
    if Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN, superseded=False,
                           deadline__lte=now).update(status=Turn.Status.DUE, claimed_at=now):
        return resolve_turn(turn_id)
    row = (Turn.objects.filter(pk=turn_id, superseded=False)
           .values_list("status", "deadline").first())
    if row is None or row[0] not in (Turn.Status.OPEN, Turn.Status.DUE):
        return False  # resolved, set aside, gone
    status, deadline = row
    if status == Turn.Status.OPEN:
        if sweep.timed() and deadline is not None:
            if queued_deadline is not None and sweep.moment(queued_deadline) == deadline:
                sweep.publish_resolves((), [(turn_id, deadline)])  # early: the same deadline
            else:
                sweep.publish_resolves((), sweep.mark_queued(now, turn_id))
        return False
    # claimed by someone else and not resolved yet: resolving here is still once only
    return resolve_turn(turn_id)


def _record_writes(record: TurnRecord, now: datetime, text: str | None = None, *,
                   finished: tuple[datetime, Any] | None = None) -> list[rows.Stmt]:
    """The statements storing a new record and the game's state after it (the state
    encoded once, for both: `text`, the canonical text of record.state_after when the
    caller holds it, is sent as it is), and setting it in memory on the record's game.
    `finished` (when, result): the same UPDATE ends the game (see _finishing)."""
    game = record.game
    game.state, game.state_hash = record.state_after, record.after_hash
    return [turn_rows.insert_record(record, now, text),
            turn_rows.set_game_state(game.pk, rows.ref("rec", "state_after"),
                                     record.after_hash, finished=finished)]


def compose_report(game: Game, record: TurnRecord, audience: str | None, *,
                   events: list[Event] | None = None) -> str:
    """The turn's markdown for one reader: who missed the deadline, then the engine's story.

    `events`: the record's events already read (one reading for all the audiences)."""
    engine = engine_for(game)
    if events is None:
        events = [Event.from_json(e) for e in record.events]
    # the title is the GM's plain text: markup in it ("<a href=...>") stays text in the
    # report's HTML, which goes to every seat by mail and on the pages
    title = game.title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    lines = [f"# {title}: turn {record.number}", ""]
    for seat in record.defaulted:
        default = Orders.from_json(record.orders[seat])
        if audience in (seat, GM_VIEWER):
            shown = "; ".join(default.text.splitlines()) or "no orders"
            lines.append(f"*{seat} sent no orders in time; default orders were used: {shown}.*")
        else:
            lines.append(f"*{seat} sent no orders in time; default orders were used.*")
    if record.defaulted:
        lines.append("")
    lines.append(engine.report(events, audience))
    return "\n".join(lines).rstrip() + "\n"


def publish(record: TurnRecord, *, closed: bool = False, state: Any = None,
            idle: set[str] | None = None, text: str | None = None) -> None:
    """Write the reports, post the public one to the thread, open the next turn (or end
    the game).

    A record not stored yet (resolve_turn's) is stored with them, with the game's new
    state: all the writes are one statement on PostgreSQL (`rows.chain`), the notices,
    the next turn or the end of the game included. `closed`: the caller already marked
    the turn RESOLVED (resolve_turn's claim does). `state`: the engine's state after the
    turn when the caller holds it (resolve_turn), so it is not read from the record's
    JSON again, and `text` its canonical text (stored as the record's state_after
    without encoding it again); `idle`: the game's seats that do not play actively,
    when the caller read them under the game's lock (see maybe_due_early)."""
    game = record.game
    engine = engine_for(game)
    now = timezone.now()
    events = [Event.from_json(e) for e in record.events]
    audiences = ["", GM_VIEWER, *record.orders.keys(), *game.setup_record["seats"]]
    # markdown only: each text is rendered by its first reader (RenderedMarkdown.html)
    texts = [(audience, compose_report(game, record, audience or None, events=events))
             for audience in dict.fromkeys(audiences)]
    opens = game.status == Game.Status.RUNNING
    if opens and state is None:
        state = engine.from_json(record.state_after)
    decision = engine.decision(state) if opens else None
    ends = opens and decision is None  # the engine has no decision left: the game is over
    published = Notice.Kind.TURN_PUBLISHED
    stored = rows.ref("rec") if record.pk is None else rows.value(record.pk)
    # the end of the game: the published notice is written with game_finished (one
    # INSERT), and a game whose state is written here is ended by that same UPDATE
    finishing = _finishing(game, engine, state, now, [(published, stored)],
                           update=record.pk is not None) if ends else []
    writes: list[rows.Stmt] = []
    if record.pk is None:
        writes += _record_writes(record, now, text, finished=(
            (now, game.result) if ends else None))
    elif not record.published:  # a held turn released (resolve_turn writes it published)
        record.published = True
        writes.append(turn_rows.mark_published(record.pk))
    if not closed:
        writes.append(turn_rows.set_turn_status(record.turn_id, Turn.Status.RESOLVED.value))
    writes += [turn_rows.insert_reports(stored, texts),
               turn_rows.insert_post(game.pk, Post.Kind.REPORT.value, record.number,
                                     texts[0][1], now)]
    if decision is not None:
        # the published notice is written with the next turn's own (one INSERT)
        writes += _opening(game, decision, record.number + 1, now, None,
                           [(published, stored)])
    elif ends:
        writes += finishing
    else:
        writes.append(turn_rows.insert_notices(game.pk, [(published, stored)], now))
    written = rows.chain(writes)
    if record.pk is None:
        rows.saved(record, written["rec"]["id"])
    # followed: the next turn's turn_opened (or game_finished) names this record, so the
    # mail side wakes one task for the whole resolution
    _send(signals.turn_published, record=record, followed=opens)
    if decision is not None:
        _opened(game, decision, record.number + 1, now, written, resolution=record,
                idle=idle)
    elif ends:
        _send(signals.game_finished, game=game, resolution=record)
