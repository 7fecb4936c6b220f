"""The one inbound pipeline: raw MIME bytes in, orders submitted and a reply queued.

Every path (SMTP listener, IMAP poll, MTA pipe, provider webhooks) calls `process`.

1. parse; record the message under its Message-ID (or the SHA-256 of its bytes) in its
   own committed row, so a redelivery finds it;
2. in one transaction: drop loop mail silently, route to the seat (plus-address token
   or SIGNON line), check the sender, take the text, strip quotes, signature, forwards,
   greetings and sign-offs (`greetings`), and submit through
   `gm.play.actions.submit_orders` (source "email", the same action as the web form,
   naming the turn the mail answers, if any);
3. the outcome, the submission and the reply (an outbox row, sent after commit) are
   committed together, the outcome by a compare-and-set on the row ("received" ->
   outcome): a second delivery racing the first finds the row done and rolls its own
   work back. A crash anywhere in 2-3 rolls back to "received" and the next delivery
   of the same message does the work once.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.core.orders import order_lines
from games.core.types import Orders, OrdersInvalid
from gm.play import actions
from gm.play.errors import ActionError, LateOrders
from gm.play.models import Game, Seat, Submission

from . import authres, compose, greetings, mime, outbox, press, replay, replies
from . import rows as mailrows
from .bodytext import is_auto_reply_subject, is_forward_subject, order_text, strip_reply
from .models import InboundMessage, Kind, Outbox, Outcome
from .routing import RouteError, route, sender_allowed

log = logging.getLogger(__name__)

# Mail commands of the apps above this one, tried in order on a seat's mail before it is
# read as orders: (seat, text) -> (outcome, detail, reply context), or None when the text
# is not that command. Apps append theirs in AppConfig.ready (gm.absence: VACATION).
COMMANDS: list[Callable[[Any, str], tuple[str, str, dict[str, Any]] | None]] = []


def max_bytes() -> int:
    return int(getattr(settings, "GM_MAIL_MAX_BYTES", 256 * 1024))


def max_attempts() -> int:
    """Deliveries of a message that failed with an error before it is set aside."""
    return int(getattr(settings, "GM_MAIL_MAX_ATTEMPTS", 5))


@dataclass
class Result:
    outcome: str
    message_id: str
    inbound_id: int | None = None
    duplicate: bool = False
    submission_id: int | None = None
    reply_id: int | None = None
    detail: str = ""


class Timer:
    """Accumulates seconds per pipeline step (for bench/inbound.py): wall time under the
    step's name and this process's CPU time under "cpu:<name>"; free when unused."""

    def __init__(self, sink: dict[str, float] | None) -> None:
        self.sink = sink

    def __call__(self, name: str) -> contextlib.AbstractContextManager[None]:
        return _UNTIMED if self.sink is None else _Step(self.sink, name)


_UNTIMED = contextlib.nullcontext()


class _Step:
    __slots__ = ("sink", "name", "start", "cpu")

    def __init__(self, sink: dict[str, float], name: str) -> None:
        self.sink, self.name = sink, name

    def __enter__(self) -> None:
        self.start, self.cpu = time.perf_counter(), time.process_time()

    def __exit__(self, *exc: object) -> None:
        sink, name = self.sink, self.name
        sink[name] = sink.get(name, 0.0) + time.perf_counter() - self.start
        sink["cpu:" + name] = sink.get("cpu:" + name, 0.0) + time.process_time() - self.cpu


@dataclass
class _Verdict:
    outcome: str
    detail: str = ""
    seat: Seat | None = None
    submission: Submission | None = None
    context: dict[str, Any] = field(default_factory=dict)
    reply: bool = True
    draft: Any = None  # writes the reply instead of replies.draft_reply (press.gm_reply)


# What a mail with an autoresponder's subject may still do: orders that are valid as
# they stand (a person wrote them under an "Out of office until ..." subject). Its text
# is never posted as press (`_decide`): two players' autoresponders would answer each
# other's through the press mails for ever.
_KEPT = (Outcome.ACCEPTED,)


def _auto_reply(verdict: _Verdict) -> _Verdict:
    """An autoresponder that set no header ("Automatic reply: ...", "Abwesenheitsnotiz",
    "Réponse automatique"; see `bodytext.is_auto_reply_subject`): never answered (an
    answer could start a loop with it, and would tell the player of "errors" in a text
    they never wrote), nothing kept. Read as orders first, so valid orders still count."""
    return _Verdict(Outcome.LOOP, f"auto-reply by its subject (read as {verdict.outcome}: "
                    f"{verdict.detail}"[:300] + "); not answered", verdict.seat, reply=False)


class _AlreadyDone(Exception):
    """Another delivery of the same message committed its outcome while this one worked."""


def process(raw: bytes, *, envelope: mime.Envelope | None = None, transport: str = "pipe",
            timings: dict[str, float] | None = None) -> Result:
    """Run one raw message through the pipeline; safe to call again with the same bytes."""
    timer = Timer(timings)
    with timer("parse"):
        mail = mime.parse(raw, envelope, max_bytes=max_bytes())
    with timer("store"):
        row = _record(mail, raw, transport)
    if row.done:
        return Result(row.outcome, mail.message_id, row.pk, duplicate=True)
    if row.attempts > max_attempts():
        return _set_aside(row, mail)
    try:
        with transaction.atomic():
            facts: dict[str, str] = {}
            verdict = _decide(mail, envelope, timer, facts)
            if verdict.reply and verdict.outcome not in _KEPT and \
                    is_auto_reply_subject(mail.subject):
                verdict = _auto_reply(verdict)
            with timer("reply"):
                draft, suppressed = (None, "loop mail") if not verdict.reply else \
                    (verdict.draft or replies.draft_reply)(row, mail, verdict.outcome,
                                                           verdict.seat, verdict.context)
            with timer("store"):
                # The claim: only a row still "received" takes an outcome. A concurrent
                # delivery of the same message waits on this row (or on the turn) until
                # the first commits, then finds it done and rolls back all it did. The
                # reply's row goes with it (one statement on PostgreSQL), under the
                # claim's row lock, where no other delivery can write it.
                claim = {
                    "outcome": verdict.outcome, "detail": verdict.detail[:4000],
                    "seat_id": verdict.seat.pk if verdict.seat else None,
                    "submission_id": verdict.submission.pk if verdict.submission else None,
                    "reply_suppressed": suppressed[:40], "processed": timezone.now(),
                    # kept for mails that took effect: a replay of one is refused (replay)
                    "body_digest": facts.get("digest", "")
                    if verdict.outcome in replay.TOOK_EFFECT else ""}
                if draft:
                    reply_id = mailrows.claim_and_reply(row.pk, claim, _reply_values(draft),
                                                        _wake)
                    claimed = reply_id is not None
                else:
                    reply_id, claimed = None, mailrows.claim(row.pk, claim)
                if not claimed:
                    raise _AlreadyDone
    except _AlreadyDone:
        done = InboundMessage.objects.get(pk=row.pk)
        return Result(done.outcome, mail.message_id, row.pk, duplicate=True)
    return Result(verdict.outcome, mail.message_id, row.pk,
                  submission_id=verdict.submission.pk if verdict.submission else None,
                  reply_id=reply_id, detail=verdict.detail)


_DRAFT_KEYS = {"key", "kind", "to", "user", "subject", "text", "html", "headers", "reply_to",
               "verbatim",
               "message_id", "turn", "inbound"}


def _reply_values(draft: dict[str, Any]) -> dict[str, Any]:
    """`replies.draft_reply`'s `outbox.enqueue` arguments as the outbox row's columns."""
    unknown = set(draft) - _DRAFT_KEYS
    if unknown:
        raise TypeError(f"a reply draft with arguments outbox.enqueue does not take: {unknown}")
    user, turn, inbound = draft.get("user"), draft.get("turn"), draft.get("inbound")
    return {"key": draft["key"][:200], "kind": draft["kind"], "to": draft["to"],
            "user_id": user.pk if user is not None else None,
            "subject": draft["subject"][:255], "body_text": compose.wrap(draft["text"], draft.get("verbatim", ())),
            "body_html": draft.get("html", ""), "headers": draft.get("headers") or {},
            "reply_to": draft.get("reply_to", ""),
            "message_id": draft.get("message_id") or outbox.new_message_id(),
            "turn_id": turn.pk if turn is not None else None,
            "inbound_id": inbound.pk if inbound is not None else None}


def _wake(pk: int) -> None:
    outbox._queue(pk)  # looked up at commit: tests and the bench replace it


def _record(mail: mime.Mail, raw: bytes, transport: str) -> InboundMessage | mailrows.Recorded:
    """The received row, committed on its own before any processing (one INSERT ... ON
    CONFLICT DO NOTHING: the unique Message-ID turns a redelivery into a read of the
    existing row).

    On PostgreSQL this commit does not wait for its WAL to reach the disk (an fsync per
    message, 10 ms on a busy disk): nothing is acknowledged to the transport before the
    outcome's commit, which is synchronous and flushes this row's WAL with its own. A
    crash in between can lose only this row, and the transport then delivers again."""
    found = mailrows.record({
        "message_id": mail.message_id, "sha256": mail.sha256, "transport": transport[:16],
        "sender": mail.sender[:254], "recipients": mail.recipients[:20],
        "subject": mail.subject, "size": mail.size, "raw": raw[:max_bytes()]})
    if found is not None:
        return found
    # A redelivery: count it, so a message that fails every time is eventually set aside
    # instead of blocking an IMAP folder or an MTA queue for ever.
    with transaction.atomic():
        InboundMessage.objects.filter(message_id=mail.message_id,
                                      outcome=Outcome.RECEIVED).update(attempts=F("attempts") + 1)
    return InboundMessage.objects.get(message_id=mail.message_id)


def _set_aside(row: InboundMessage | mailrows.Recorded, mail: mime.Mail) -> Result:
    """Give up on a message that raised on every delivery: mark it (no reply), keep it."""
    detail = (f"failed {row.attempts - 1} times; set aside for the operator (raw message "
              "kept in the admin)")
    InboundMessage.objects.filter(pk=row.pk, outcome=Outcome.RECEIVED).update(
        outcome=Outcome.ERROR, detail=detail, processed=timezone.now(),
        reply_suppressed="error")
    log.error("inbound message %s %s", mail.message_id, detail)
    return Result(Outcome.ERROR, mail.message_id, row.pk, detail=detail)


def _decide(mail: mime.Mail, envelope: mime.Envelope | None, timer: Timer,
            facts: dict[str, str]) -> _Verdict:
    """What the mail does; `facts["digest"]` is set to its body digest (`replay`)."""
    with timer("authenticate"):
        loop = mime.loop_reason(mail, envelope)
        if loop:
            return _Verdict(Outcome.LOOP, loop, reply=False)
        if mail.headers_only:
            return _too_large(mail)
    with timer("strip"):
        text: str | None = None
        no_text: _Verdict | None = None
        try:
            text, _kind = mime.body_text(mail)
        except mime.NoText as exc:
            no_text = _Verdict(Outcome.NO_TEXT, str(exc))
    with timer("authenticate"):
        forged = authres.forged(mail)  # our MTA's DMARC/SPF/DKIM verdict on the From
        auto = is_auto_reply_subject(mail.subject)  # an autoresponder without headers
        # to a GM's press address: the GM answering press (an autoresponder's text is not
        # posted: its address is then unknown to `route`, and the mail dropped in `process`)
        gm = None if auto else press.gm_reply(mail, text, forged=forged)
        if gm is not None:
            facts["digest"] = gm.digest
            return _Verdict(gm.outcome, gm.detail, context=gm.context, draft=gm.draft)
        facts["digest"] = digest = replay.digest(mail.sender, text)
        try:
            found = route(mail.recipients, text,
                          [*replies.reply_facts(mail.sender), replay.extra(digest)])
        except RouteError as exc:
            return _Verdict(exc.outcome, exc.message, context={"message": exc.message})
        seat = found.seat
        if not sender_allowed(seat, mail.sender):
            return _Verdict(Outcome.WRONG_SENDER, f"{mail.sender} may not order for {seat}",
                            seat, context={"sender": mail.sender})
        if forged:
            return _Verdict(Outcome.WRONG_SENDER, f"From {mail.sender} forged for {seat} "
                            f"(Authentication-Results: {forged})", seat,
                            context={"sender": mail.sender, "forged": forged})
        if digest and getattr(seat, "replayed", None):
            return _Verdict(Outcome.DUPLICATE, "same sender and text as a mail that took "
                            "effect this turn: not read again", seat)
        thread = thread_of(mail, seat)
        if thread.press_id is not None and no_text is None:
            if auto:
                return _Verdict(Outcome.LOOP, "auto-reply by its subject to press: not "
                                "posted, not answered", seat, reply=False)
            outcome, detail, context = press.answer(seat, thread.press_id, found.text)
            return _Verdict(outcome, detail, seat, context=context)
        game = seat.game
        if game.status == Game.Status.FINISHED:
            return _Verdict(Outcome.FINISHED, "game over", seat,
                            context={"result": game.result or {}})
        if no_text is not None:
            if no_text.detail == mime.FORWARDED_ONLY:  # "Forward as attachment"
                return _Verdict(Outcome.EMPTY, "no orders found: forwarded mail is not read "
                                "as orders", seat, context={"forwarded": True})
            no_text.seat = seat
            no_text.context = {"tnef": no_text.detail == mime.TNEF_ONLY,
                               "attachments": mime.attachment_names(mail)}
            return no_text
        turn_number = thread.turn_number
    with timer("strip"):
        stripped = strip_reply(order_text(found.text))
        # commands other apps answer (gm.absence: "VACATION <from> TO <to>"), each with
        # a receipt of its own instead of orders
        for command in COMMANDS:
            answered = command(seat, stripped.orders)
            if answered is not None:
                return _Verdict(answered[0], answered[1], seat, context=answered[2])
        saving = _take_save_line(stripped)  # "SAVE" first: saved, not ready
        forwarded = stripped.forwarded or is_forward_subject(mail.subject)
        engine = actions.engine_for(game)
        try:  # greetings and sign-offs: the rule the web form uses too
            trimmed = greetings.for_seat(game, seat, stripped.orders)
        except ActionError as exc:
            return _Verdict(Outcome.REFUSED, exc.message, seat,
                            context={"message": exc.message})
        if not trimmed.has_orders or not order_lines(trimmed.text):
            why = ("no orders found: forwarded mail is not read as orders" if forwarded
                   else "no orders in the text")
            return _Verdict(Outcome.EMPTY, why, seat, context={
                "rest": stripped.rest, "skipped": trimmed.skipped, "forwarded": forwarded,
                "vocabulary": _vocabulary_hint(engine),
                "attachments": mime.attachment_names(mail),
                "subject_orders": not forwarded and _orders_in_subject(game, seat, mail)})
    with timer("validate"):
        try:
            sub = actions.submit_orders(game, seat, trimmed.text,
                                        source=Submission.Source.EMAIL, author=seat.user,
                                        turn_number=turn_number, ready=not saving)
        except OrdersInvalid as exc:
            lines = trimmed.text.split("\n")
            errors = [{"line": e.line, "message": e.message, "hint": e.hint,
                       "text": lines[e.line - 1].strip() if 0 < e.line <= len(lines) else ""}
                      for e in exc.errors]
            return _Verdict(Outcome.INVALID, str(exc), seat, context={
                "errors": errors, "accepted": exc.accepted, "rest": stripped.rest,
                "skipped": trimmed.skipped, "previous": _current(game, seat)})
        except LateOrders as exc:
            return _Verdict(Outcome.LATE, exc.message, seat,
                            context={"message": exc.message, **_open_turn(game, seat)})
        except ActionError as exc:
            return _Verdict(Outcome.REFUSED, exc.message, seat,
                            context={"message": exc.message})
    return _Verdict(Outcome.ACCEPTED, f"version {sub.version}, receipt {sub.receipt}", seat,
                    sub, context={"submission": sub, "rest": stripped.rest,
                                  "skipped": trimmed.skipped})


def _take_save_line(stripped: Any) -> bool:
    """A first line "SAVE" (alone, any case) makes the orders saved, not ready, as the web
    form's Save button does: they count at the deadline, but the turn does not close
    early for them. The line is taken out before the orders are read."""
    lines = stripped.orders.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or lines[first].strip().upper() != "SAVE":
        return False
    stripped.orders = "\n".join(lines[:first] + lines[first + 1:])
    return True


_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|vs|antw|r|rif|odp|ynt|wg|fwd?)\s*"
                           r"(?:\[\d+\])?\s*:\s*|\[[^\]]*\]\s*)+", re.IGNORECASE)


def _orders_in_subject(game: Game, seat: Seat, mail: mime.Mail) -> bool:
    """Whether a mail with no orders in its text wrote them in its subject instead (a
    subject is never read as orders: the reply says so rather than "no orders")."""
    subject = order_text(_REPLY_PREFIX.sub("", mail.subject or "")).strip()
    if not subject:
        return False
    engine = actions.engine_for(game)
    try:
        if not greetings.for_seat(game, seat, subject).has_orders:
            return False
        with actions.stored_state(game, "read"):
            state = engine.from_json(Game.objects.values_list("state", flat=True)
                                     .get(pk=game.pk))
            engine.parse_orders(state, seat.name, subject)
    except (ActionError, OrdersInvalid):
        return False  # not orders as they stand (our own notice's subject, "Re: turn 3")
    return True


def _vocabulary_hint(engine: Any) -> str:
    vocab = greetings.vocabulary(engine)
    return ", ".join(sorted(vocab.keywords)) if vocab is not None else ""


@dataclass
class Thread:
    """What the newest of our own mails in a message's thread makes of it."""

    turn_number: int | None = None  # the turn it answers (None: the open turn)
    press_id: int | None = None  # the press message it answers (gm.mail.press)


def thread_of(mail: mime.Mail, seat: Seat) -> Thread:
    """Which turn, or which press message, this mail answers.

    The newest of our own mails in its thread decides (In-Reply-To first, then
    References from the newest): a turn notice or reminder of this game names its turn,
    and so does the receipt of accepted orders; a press mail sent to this seat's player
    makes the mail a press reply; anything else of ours (a refusal, a report) names no
    turn. No mail of ours in the thread: the open turn. References that cannot be ours
    (another domain) cost no query; ours cost one.
    """
    domain = "@" + str(getattr(settings, "GM_MAIL_DOMAIN", "localhost")).lower() + ">"
    ours = [r for r in reversed(mail.references) if r.lower().endswith(domain)][:20]
    if not ours:
        return Thread()
    rows = {mid: rest for mid, *rest in
            Outbox.objects.filter(message_id__in=ours)
            .values_list("message_id", "kind", "key", "user_id", "turn__game_id",
                         "turn__number")}
    for ref in ours:
        if ref in rows:
            kind, key, user_id, game_id, number = rows[ref]
            if kind == Kind.PRESS:
                press_id = press.message_of_key(key)
                mine = user_id is not None and user_id == seat.user_id
                return Thread(press_id=press_id if mine else None)
            return Thread(turn_number=number if game_id == seat.game_id else None)
    return Thread()


def _open_turn(game: Game, seat: Seat) -> dict[str, Any]:
    """For a refusal of orders for a closed turn: the turn open now, whether the seat
    owes orders in it and the orders already in for it (the reply names them and the
    deadline, not only what stood for the closed turn)."""
    turn = game.current_turn()
    if turn is None or turn.status != turn.Status.OPEN:
        return {}
    sub = actions.latest_submission(turn, seat)
    if sub is not None and sub.withdrawn:
        sub = None
    return {"open_turn": turn, "owes": seat.name in turn.owing, "open_sub": sub,
            "open_orders": Orders.from_json(sub.orders).text.splitlines() if sub else []}


def _current(game: Game, seat: Seat) -> Submission | None:
    sub = actions.my_orders(game, seat)
    return None if sub is None or sub.withdrawn else sub


def _too_large(mail: mime.Mail) -> _Verdict:
    seat = None
    try:
        found = route(mail.recipients, None)
        seat = found.seat if sender_allowed(found.seat, mail.sender) else None
    except RouteError:
        pass
    limit = max_bytes()
    return _Verdict(Outcome.TOO_LARGE, f"{mail.size} bytes > {limit}", seat,
                    context={"size_kb": (mail.size + 1023) // 1024,
                             "limit_kb": limit // 1024})
