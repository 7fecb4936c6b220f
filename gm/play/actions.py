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
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games.core import registry
from games.core.canonical import sha256_hex
from games.core.engine import Engine
from games.core.replay import FORMAT, run_setup, run_turn, secret_rng
from games.core.types import Decision, Event, OptionError, Orders, OrdersInvalid
from gm import wakeups

from . import hooks, limits, live_rows, rows, signals, sweep, turn_rows
from .errors import (  # noqa: F401 (re-exported)
    ActionError,
    Conflict,
    LateOrders,
    NotAllowed,
    TurnClosed,
)
from .models import (
    Game,
    LogEntry,
    Notice,
    Post,
    Report,
    Seat,
    Submission,
    Turn,
    TurnRecord,
    fill_html,
)
from .rendering import render_markdown
from .text import one_line

log = logging.getLogger(__name__)
GM_VIEWER = "*"


# --- helpers ---------------------------------------------------------------------------
def engine_for(game: Game) -> Engine:
    return registry.get(game.ruleset)


def turn_length(game: Game) -> timedelta:
    return timedelta(hours=game.turn_hours, minutes=game.turn_minutes)


def reaction_length(game: Game) -> timedelta:
    """The deadline of an out-of-turn reaction window (a Decision with reaction=True).

    The game's `reaction_minutes` option where its engine declares one, else the
    GM_REACTION_MINUTES setting; never longer than a whole turn.
    """
    minutes = settings.GM_REACTION_MINUTES
    if "reaction_minutes" in engine_for(game).options:
        minutes = game.options.get("reaction_minutes", minutes)
    return min(timedelta(minutes=minutes), turn_length(game))


def record_log(game: Game, action: str, public: str, *, actor=None, reason: str = "",
               private: dict[str, Any] | None = None, turn_number: int | None = None
               ) -> LogEntry:
    return LogEntry.objects.create(game=game, actor=actor, action=action, public=public,
                                   reason=reason, private=private or {},
                                   turn_number=turn_number)


def _on_commit(func, *args, **kwargs) -> None:
    # robust: the transaction has committed; a broker that is down must not turn the
    # player's receipt into a 500. What the callback would have woken up is recorded in
    # the database (a DUE turn, a Notice) and the periodic sweep picks it up.
    transaction.on_commit(lambda: func(*args, **kwargs), robust=True)


def _notice(game: Game, kind: str, object_id: int) -> None:
    """Record an event that must reach people, in the caller's transaction (see Notice)."""
    _notices(game, [(kind, object_id)])


def _notices(game: Game, events: list[tuple[str, int]]) -> None:
    """Record events in the caller's transaction (see Notice), in the order given.

    One INSERT ... ON CONFLICT DO NOTHING for all of them (a row is unique per event), not
    get_or_create's SELECT, SAVEPOINT, INSERT, RELEASE for each."""
    rows.chain([turn_rows.insert_notices(
        game.pk, [(kind, rows.value(pk)) for kind, pk in events], timezone.now())])


def _send(signal, **kwargs) -> None:
    _on_commit(signal.send, sender=Game, **kwargs)


def _enqueue_resolve(turn_id: int) -> None:
    # by name: gm.play.tasks imports this module (gm/wakeups.py)
    _on_commit(wakeups.task("gm.play.tasks.resolve_turn").delay, turn_id)


# --- games and seats -------------------------------------------------------------------
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
# --- end join checks ---------------------------------------------------------------------


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


# --- turns -----------------------------------------------------------------------------
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


def maybe_due_early(game: Game, turn: Turn, *, idle: set[str] | None = None) -> None:
    """Claim the turn (mark_due) when the game processes early and every owing seat is in.

    `idle`: for a turn opened in this transaction (no orders yet, so only the seats that
    do not play actively are in, as `seats_in` counts them), those seats as the caller
    read them under the game's lock: no query."""
    if not game.process_early or turn.status != Turn.Status.OPEN:
        return
    if set(turn.owing) <= (seats_in(turn) if idle is None else idle):
        mark_due(turn, reason="all orders in")


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


# --- orders ----------------------------------------------------------------------------
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
                  author=None, turn_number: int | None = None) -> Submission:
    """Validate and store a new version of the seat's orders; raise OrdersInvalid/LateOrders.

    The seat's previous accepted version stays in force when the new text has errors.
    `turn_number` names the turn the orders were written for (see `_open_turn_for`).

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
                              author)
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
                source: str, author) -> Submission:
    """The next version of `seat`'s orders for `turn` (the caller holds the turn's lock)."""
    return live_rows.insert_version(turn, seat, text, orders, receipt, source, author,
                               timezone.now())


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


# --- reading -----------------------------------------------------------------------------
def viewer_for(game: Game, user) -> str | None:
    """Whose eyes `user` reads this game with: their seat first, the GM's only seatless.

    A seat wins over GM powers (a site admin who plays, or a seat taken before the GM
    rule), so no player page ever shows the omniscient view by accident; the GM's desk
    reads the full state through its own permission check.
    """
    seat = game.seat_of(user)
    if seat is not None:
        return seat.name
    return GM_VIEWER if game.is_gm(user) else None


class StateUnreadable(ActionError):
    """The stored state cannot be shown (a bug or a bad amendment): a clear 503, no 500."""

    status = 503


@contextmanager
def stored_state(game: Game, doing: str = "shown") -> Iterator[None]:
    """Engine calls on a game's stored state: a failure that is not the engine's own
    verdict (OrdersInvalid) or an action's refusal becomes StateUnreadable, logged, so
    no page, API answer or mail reply is a 500. A database error stays itself (an
    outage has its own 503)."""
    try:
        yield
    except (ActionError, OrdersInvalid, DatabaseError):
        raise
    except Exception as exc:  # noqa: BLE001 - any engine failure on stored data
        log.exception("game %s: the stored state cannot be %s", game.pk, doing)
        raise StateUnreadable(
            f"this game's stored state cannot be {doing} just now ({type(exc).__name__}); "
            "its GM can amend the state or roll the game back") from exc


def view_for(game: Game, user) -> dict[str, Any] | None:
    viewer = viewer_for(game, user)
    state = published_state(game, viewer)
    return None if state is None else view_of(game, state, viewer)


def view_of(game: Game, state: Any, viewer: str | None) -> dict[str, Any]:
    """`viewer`'s view of a stored state (the current one or a past turn's)."""
    engine = engine_for(game)
    with stored_state(game):
        return engine.view(engine.from_json(state), viewer)


def published_state(game: Game, viewer: str | None) -> Any:
    """The state `viewer` may be shown: the GM's is the latest; everyone else's is the
    state of the last published turn, so a turn held for review shows no outcome."""
    if viewer == GM_VIEWER or game.state is None:
        return game.state
    held = (TurnRecord.objects.filter(game=game, superseded=False, published=False,
                                      turn__status=Turn.Status.HELD)
            .values_list("state_before", flat=True).first())
    return game.state if held is None else held


def setup_report(game: Game, viewer: str | None) -> str:
    if not game.setup_record:
        return ""
    with stored_state(game):
        events = [Event.from_json(e) for e in game.setup_record.get("events", [])]
        return engine_for(game).report(events, viewer)


def reports_for(game: Game, user, number: int | None = None, *, after: int = 0,
                limit: int | None = None) -> list[dict[str, Any]]:
    """Published reports: public plus the reader's own (or the GM's full one).

    `after`/`limit` page through them by turn number (the API's ?after=&limit=)."""
    viewer = viewer_for(game, user)
    records = game.records.filter(superseded=False, published=True).order_by("number")
    if number is not None:
        records = records.filter(number=number)
    if after:
        records = records.filter(number__gt=after)
    if limit is not None:
        records = records[:limit]
    shown: list[tuple[int, Report | None, Report | None]] = []
    for record in records.prefetch_related("reports"):
        by_audience = {r.audience: r for r in record.reports.all()}
        shown.append((record.number, by_audience.get(""),
                      by_audience.get(viewer) if viewer is not None else None))
    # the texts first read here are rendered and stored together (one UPDATE)
    fill_html(r for _n, public, mine in shown for r in (public, mine) if r is not None)
    out = []
    for number, public, mine in shown:
        entry: dict[str, Any] = {"turn": number, "public": _rep(public)}
        if viewer is not None:
            entry["mine"] = _rep(mine)
        out.append(entry)
    return out


def _rep(report: Report | None) -> dict[str, str] | None:
    return None if report is None else {"markdown": report.markdown, "html": report.html}


def post_message(game: Game, user, text: str) -> Post:
    if not text.strip():
        raise ActionError("a message cannot be empty")
    if len(text) > 20000:
        raise ActionError("a message can be at most 20000 characters")
    if not (game.is_gm(user) or game.seat_of(user)):
        raise NotAllowed("only the game's players and GM can post in its thread")
    kind = Post.Kind.GM if game.is_gm(user) else Post.Kind.MESSAGE
    return Post.objects.create(game=game, author=user, kind=kind, markdown=text,
                               html=render_markdown(text))


def export_game(game: Game, *, for_gm: bool = False) -> dict[str, Any]:
    """The public record (input of `python -m games.core.verify`).

    Players get it once the game is over (with the secret); the GM may fetch it any
    time, without the secret until the end.
    """
    if game.status != Game.Status.FINISHED and not for_gm:
        raise Conflict("the export is published when the game is over")
    turns = []
    for rec in game.records.filter(superseded=False, published=True).order_by("number"):
        turns.append({"number": rec.number, "attempt": rec.attempt, "orders": rec.orders,
                      "overrides": rec.overrides, "amendments": rec.amendments,
                      "draws": rec.draws, "before_hash": rec.before_hash,
                      "after_hash": rec.after_hash})
    setup = game.setup_record or {}
    record = {"format": FORMAT, "ruleset": game.ruleset, "title": game.title,
              "seats": setup.get("seats", []), "options": game.options,
              "secret_sha256": game.secret_sha256,
              "setup": {"draws": setup.get("draws", []), "state_hash": setup.get("state_hash")},
              "turns": turns}
    if turns:
        record["final_hash"] = turns[-1]["after_hash"]
    if game.status == Game.Status.FINISHED:
        record["secret"] = game.secret
    return record


_UNREAD: Any = object()


def owing_summary(game: Game, turn: Turn | None = _UNREAD) -> dict[str, Any]:
    """Who still owes orders this turn (never what anyone ordered). `turn`: the game's
    current turn when the caller has read it already (None: it has none)."""
    if turn is _UNREAD:
        turn = game.current_turn()
    if turn is None or turn.status != Turn.Status.OPEN:
        return {"turn": turn.number if turn else None, "owing": [], "in": []}
    done = seats_in(turn)
    return {"turn": turn.number, "owing": [s for s in turn.owing if s not in done],
            "in": sorted(done)}


def orders_error_payload(exc: OrdersInvalid) -> dict[str, Any]:
    return {"errors": [e.to_json() for e in exc.errors], "accepted": exc.accepted}


def receipt_json(sub: Submission) -> dict[str, Any]:
    orders = [] if sub.withdrawn else Orders.from_json(sub.orders).text.splitlines()
    return {"turn": sub.turn.number, "seat": sub.seat.name, "version": sub.version,
            "orders": orders, "receipt": sub.receipt, "withdrawn": sub.withdrawn,
            "source": sub.source, "created": sub.created}


def my_orders(game: Game, seat: Seat) -> Submission | None:
    turn = game.current_turn()
    return latest_submission(turn, seat) if turn else None


def game_summary(game: Game, user) -> dict[str, Any]:
    """What the game page and GET /api/games/<id>/ show this reader."""
    engine = engine_for(game)
    turn = game.current_turn()
    seat = game.seat_of(user)
    viewer = viewer_for(game, user)
    data: dict[str, Any] = {
        "id": game.pk, "title": game.title, "ruleset": game.ruleset, "ruleset_title":
        engine.title, "status": game.status, "gm": game.gm.username,
        "options": game.options, "turn_hours": game.turn_hours,
        "turn_minutes": game.turn_minutes, "process_early": game.process_early,
        "seats": [{"name": s.name, "player": s.player_name(), "mode": s.mode}
                  for s in game.all_seats()],
        "capacity": seat_capacity(game),
        "secret_sha256": game.secret_sha256 or None,
        "secret": game.secret if game.status == Game.Status.FINISHED else None,
        "turn": None, "my_seat": seat.name if seat else None,
        "is_gm": viewer == GM_VIEWER, "view": view_for(game, user), "result": game.result,
    }
    if turn is not None:
        owing = owing_summary(game, turn)
        data["turn"] = {
            "number": turn.number, "status": turn.status, "deadline": turn.deadline,
            "phase": turn.decision.get("phase"), "owing": owing["owing"],
            "in": owing["in"], "waiting_for": turn.owing,
        }
        if seat and seat.name in turn.owing and turn.status == Turn.Status.OPEN:
            data["turn"]["my_prompt"] = turn.decision["prompts"][seat.name]
            sub = latest_submission(turn, seat)
            data["turn"]["my_orders"] = receipt_json(sub) if sub else None
    return data
