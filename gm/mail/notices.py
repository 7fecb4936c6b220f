"""Outbound notices from the service's signals, and deadline reminders.

Receivers only write outbox rows (unique per event and seat), so a signal delivered
twice, or a turn re-published after a rerun (a new record, a new key), mails exactly
what it should. Content comes from the turn's decision prompt for that seat and the
seat's own Report (engine.view / audience-filtered events): never another seat's.

A resolution's events (report published, then next turn opened or game over) travel in
ONE notify task and are composed by one `Mailing`: the game's seats and their mail
switches read once, the outbox rows written in one statement, one delivery task.
"""

from __future__ import annotations

import functools
import json
import logging
import textwrap
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gm import wakeups
from gm.play import actions
from gm.play.models import Game, Notice, Seat, Turn, TurnRecord, fill_html

from . import compose, notice_rows, outbox, plaintext, prefs
from .models import Kind, Outbox

log = logging.getLogger(__name__)


class Mailing:
    """The notices of one or more service events, composed together and written at once.

    Each game's seats (with users and profiles) are read once and their mail switches in
    one query, whatever the number of seats and events; `write` inserts every row in one
    statement and wakes one delivery for all of them (outbox.enqueue_many)."""

    def __init__(self) -> None:
        self.rows: list[Outbox] = []
        self._seats: dict[int, list[Seat]] = {}
        self._switches: prefs.Switches = {}
        self._gate = notify_gate()  # gm.notify's budget (None without the app)

    def seats(self, game: Game, names: list[str] | None = None) -> list[Seat]:
        """The game's active seats with a player (those named, in seat order)."""
        if game.pk not in self._seats:  # seats, players, profiles and switches: one read
            self._seats[game.pk], switches = notice_rows.active_seats(game)
            self._switches.update(switches)
            if self._gate is not None:  # the readers' notification settings: one read
                self._gate.known.update(self._gate.settings_for(
                    s.user for s in self._seats[game.pk]))
        seats = self._seats[game.pk]
        return seats if names is None else [s for s in seats if s.name in names]

    def wants(self, seat: Seat, kind: str) -> bool:
        """Whether the seat's player gets mail of `kind` (switches read with the seats)."""
        return prefs.wants(seat.user, kind, self._switches)

    def add(self, kind: str, key: str, seat: Seat, subject: str, template: str,
            context: dict[str, Any], html: str = "", turn: Turn | None = None,
            urgent: bool = False) -> bool:
        """Compose one seat's mail (False: the player switched this kind off, or their
        notification budget holds it: gm.notify; `urgent` may break quiet hours)."""
        if not self.wants(seat, kind):
            return False
        if self._gate is not None and not self._gate.mail_notice(seat, kind, key, subject,
                                                                 urgent):
            return False  # the person's budget: digest, quiet hours, another channel
        user = seat.user
        headers, unsubscribe = compose.headers_for(kind, user)
        headers["X-GM-Game"] = str(seat.game_id)
        # one thread per game in the reader's client, and a List-Id to filter it by
        headers["In-Reply-To"] = headers["References"] = compose.thread_root(seat.game_id)
        headers["List-Id"] = compose.list_id(seat.game)
        ctx = {"seat": seat, "game": seat.game, "game_url": compose.game_url(seat.game),
               "reply_address": seat.reply_address, **context}
        label = Kind(kind).label
        text = compose.render(template, ctx) + compose.footer(label, unsubscribe)
        # within 72 columns, but a report's own tables and boards as plaintext drew them
        text = compose.wrap(text, set(ctx["report_text"].split("\n"))
                            if ctx.get("report_text") else ())
        if html:
            reply = "The game is over. " if ctx.get("over") else \
                "Reply to this mail to send orders. "
            html += (f'<hr><p style="font-size:small">{reply}'
                     f'<a href="{unsubscribe}">Stop {label}</a>.</p>')
        self.rows.append(Outbox(
            key=key, kind=kind, user=user, to=user.email,
            subject=compose.header_value(subject, 255), body_text=text, body_html=html,
            headers=headers, reply_to=seat.reply_address,
            message_id=outbox.new_message_id(), turn=turn))
        return True

    def write(self) -> int:
        """Insert the composed rows (keys queued before are skipped); one delivery task.
        Returns how many were queued now."""
        rows, self.rows = self.rows, []
        if self._gate is not None:
            self._gate.flush()
        return len(outbox.enqueue_many(rows))


# The notification layer's gate class (gm.notify.budget.MailGate), set by gm.notify's
# AppConfig.ready: gm.notify stands on this app, so this app does not import it.
GATE: Any = None


def notify_gate() -> Any:
    """The notification layer's gate for one batch, or None when gm.notify is not
    installed: then every mail goes as before."""
    return GATE() if GATE is not None else None


def render_prompt(prompt: dict[str, Any]) -> list[str]:
    """An engine's JSON prompt as plain lines: title, help, example, then any lists.

    Engines name their own round in words ("Orders for combat round 4") and never write a
    turn number of their own, so the prompt is shown as written: a mail names one turn
    number, the one in its subject and on the game page (issues 28 and 30).
    """
    lines: list[str] = []
    for key in ("title", "help"):
        if prompt.get(key):
            text = str(prompt[key])
            for paragraph in text.split("\n"):  # one help line per hero, per option...
                lines += _paragraph_lines(paragraph)
    if prompt.get("example"):
        lines.append(f"Example: {prompt['example']}")
    for key, value in prompt.items():
        if key in ("title", "help", "example") or isinstance(value, bool):
            continue  # a true/false flag is for the order form, not for the reader
        label = key.replace("_", " ").capitalize()
        if isinstance(value, list):
            lines.append(f"{label}:")
            lines += [f"  {v if isinstance(v, str) else json.dumps(v, sort_keys=True)}"
                      for v in value]
        elif isinstance(value, dict):
            lines.append(f"{label}: {json.dumps(value, sort_keys=True)}")
        elif value not in (None, ""):
            lines.append(f"{label}: {value}")
    return lines


@functools.lru_cache(maxsize=1024)
def _paragraph_lines(paragraph: str) -> tuple[str, ...]:
    """A prompt's paragraph wrapped to the text width; kept per process (an engine's help
    is the same text every turn, for every seat)."""
    return tuple(textwrap.wrap(paragraph, plaintext.WIDTH, break_long_words=False) or [""])


def turn_opened(turn: Turn) -> int:
    """Queue the orders request of a turn opened on its own (returns the mails queued)."""
    return _one(_turn_opened, turn.pk)


def turn_published(record: TurnRecord) -> int:
    """Queue the reports of a record published on its own (returns the mails queued)."""
    return _one(_turn_published, record.pk)


def game_finished(game: Game) -> int:
    """Queue the game-over mails of a game finished on its own (returns the mails queued)."""
    return _one(_game_finished, game.pk)


def _one(composer, pk: int) -> int:
    mailing = Mailing()
    with transaction.atomic():
        composer(mailing, pk)
        return mailing.write()


def _turn_opened(mailing: Mailing, pk: int) -> None:
    turn = notice_rows.turn_with_game(pk)
    if turn is None or turn.status != Turn.Status.OPEN or turn.superseded:
        return
    game = turn.game
    title = compose.header_value(game.title, 80)
    for seat in mailing.seats(game, turn.owing):
        prompt = turn.decision["prompts"].get(seat.name, {})
        mailing.add(Kind.TURN_OPENED, f"turn_opened:{turn.pk}:{seat.pk}", seat,
                    f"[{title}] turn {turn.number}: your orders, seat {seat.name}",
                    "turn_opened.txt", {
                        "turn": turn,
                        "deadline": compose.fmt_deadline(turn.deadline, seat.user),
                        "prompt_lines": render_prompt(prompt),
                        "example": prompt.get("example", "")}, turn=turn)


def _turn_published(mailing: Mailing, pk: int) -> None:
    found = notice_rows.record_with_reports(pk)
    if found is None:
        return
    record, stored = found
    if record.superseded or not record.published:
        return
    game = record.game
    title = compose.header_value(game.title, 80)
    reports = {r.audience: r for r in stored}
    mailed = [(seat, report) for seat in mailing.seats(game)
              if (report := reports.get(seat.name) or reports.get("")) is not None
              and mailing.wants(seat, Kind.REPORT)]
    # HTML is rendered on first read: the texts this mail reads first, in one UPDATE
    fill_html(report for _seat, report in mailed)
    texts: dict[int, str] = {}
    for seat, report in mailed:
        if report.pk not in texts:
            texts[report.pk] = plaintext.render(report.markdown)
        mailing.add(Kind.REPORT, f"report:{record.pk}:{seat.pk}", seat,
                    f"[{title}] report for turn {record.number}",
                    "report.txt", {"record": record, "report_text": texts[report.pk],
                                   # the last report: no "reply to send orders" any more
                                   "over": game.status == Game.Status.FINISHED},
                    html=report.html)


def _game_finished(mailing: Mailing, pk: int) -> None:
    game = Game.objects.defer("state", "setup_record").filter(pk=pk).first()
    if game is None:
        return
    title = compose.header_value(game.title, 80)
    for seat in mailing.seats(game):
        mailing.add(Kind.GAME_OVER, f"game_over:{game.pk}:{seat.pk}", seat,
                    f"[{title}] game over", "game_over.txt",
                    {"result": game.result or {}, "secret": game.secret,
                     "winners": _winners(game.result or {})})


def _winners(result: dict[str, Any]) -> str:
    """The winners in words, said only when the engine's summary is empty (the summary
    names them already: the mail said the result twice)."""
    names = [str(w) for w in result.get("winners") or []]
    if not names:
        return ""
    if len(names) == 1:
        return f"The winner: {names[0]}."
    return f"The winners: {', '.join(names[:-1])} and {names[-1]}."


_COMPOSERS = {Notice.Kind.TURN_PUBLISHED: _turn_published,
              Notice.Kind.TURN_OPENED: _turn_opened,
              Notice.Kind.GAME_FINISHED: _game_finished}


def remind_before(turn: Turn) -> timedelta:
    """How long before the deadline to remind: the setting, at most half the turn."""
    hours = float(getattr(settings, "GM_MAIL_REMIND_HOURS", 12))
    return min(timedelta(hours=hours), actions.turn_length(turn.game) / 2)


def send_reminders(now: datetime | None = None) -> int:
    """Remind owing seats without orders, once per turn (Turn.reminded is the claim)."""
    now = now or timezone.now()
    sent = 0
    horizon = now + timedelta(hours=float(getattr(settings, "GM_MAIL_REMIND_HOURS", 12)))
    due = (Turn.objects.select_related("game")
           .filter(status=Turn.Status.OPEN, reminded=False, superseded=False,
                   deadline__gt=now, deadline__lte=horizon))
    for turn in due[:500]:
        if turn.deadline - remind_before(turn) > now:
            continue
        mailing = Mailing()  # a turn's reminders: one insert, one delivery task
        with transaction.atomic():
            if not Turn.objects.filter(pk=turn.pk, reminded=False).update(reminded=True):
                continue
            done = actions.seats_in(turn)
            waiting = [name for name in turn.owing if name not in done]
            for seat in mailing.seats(turn.game, waiting):
                _remind(mailing, turn, seat)
            sent += mailing.write()
    return sent


def _remind(mailing: Mailing, turn: Turn, seat: Seat, *, window: str = "",
            last_one: bool = False, urgent: bool = False) -> bool:
    """Compose one seat's reminder: the deadline in the seat's own time zone. `window`
    names one of gm.notify's escalation windows (one reminder per window), `last_one`
    says every other owing seat is in."""
    prompt = turn.decision["prompts"].get(seat.name, {})
    deadline = compose.fmt_deadline(turn.deadline, seat.user)
    title = compose.header_value(turn.game.title, 80)
    last = "you are the last one, " if last_one else ""
    return mailing.add(Kind.REMINDER, f"reminder:{turn.pk}:{seat.pk}{window}", seat,
                       f"[{title}] reminder: {last}turn {turn.number} orders due {deadline}",
                       "reminder.txt", {"turn": turn, "deadline": deadline,
                                        "last_one": last_one,
                                        "prompt_lines": render_prompt(prompt)},
                       turn=turn, urgent=urgent)


# --- signal receivers (connected in apps.MailConfig.ready) ------------------------------
# The event itself is a gm.play Notice row, written in the transaction that published the
# turn; the receivers only send a wake-up through the broker, so composing a notice per
# seat never lengthens a resolution. When the wake-up is lost (broker down or emptied),
# `catch_up` (periodic) handles the notice from the database. The outbox's unique key per
# (event, recipient) makes handling it twice harmless.
#
# A resolution's events share ONE wake-up: publish() sends turn_published with
# `followed=True` when the next event of the same resolution (turn_opened or
# game_finished, sent with `resolution=<the record>`) comes after it; that last signal
# wakes the task for both. Standalone events (a GM opening a turn or ending a game,
# a held turn released while paused) wake their own.
def _wake(events: list[tuple[str, int]]) -> None:
    try:
        # plain strings, not Notice.Kind members: the same JSON whatever the enum
        wakeups.task("gm.mail.tasks.notify").delay([[str(kind), pk] for kind, pk in events])
    except Exception:  # the broker is down: the Notice rows wait for catch_up
        log.warning("could not queue notices %s; the periodic job will", events,
                    exc_info=True)


def _with_resolution(event: tuple[str, int], resolution: Any) -> list[tuple[str, int]]:
    if resolution is None:
        return [event]
    return [(Notice.Kind.TURN_PUBLISHED, getattr(resolution, "pk", resolution)), event]


def on_turn_opened(sender, turn: Turn, resolution: TurnRecord | None = None,
                   **kwargs: Any) -> None:
    _wake(_with_resolution((Notice.Kind.TURN_OPENED, turn.pk), resolution))


def on_turn_published(sender, record: TurnRecord, followed: bool = False,
                      **kwargs: Any) -> None:
    if not followed:  # else the resolution's next signal wakes the task for both
        _wake([(Notice.Kind.TURN_PUBLISHED, record.pk)])


def on_game_finished(sender, game: Game, resolution: TurnRecord | None = None,
                     **kwargs: Any) -> None:
    _wake(_with_resolution((Notice.Kind.GAME_FINISHED, game.pk), resolution))


def notify(event: str, pk: int) -> int:
    """Compose and queue the notices of one service event (see notify_many)."""
    return notify_many([(event, pk)])


def notify_many(events: list[tuple[str, int]]) -> int:
    """Compose and queue the notices of service events together, in the order given (a
    resolution: its reports, then the next turn's orders requests or the game over), and
    mark their Notices handled, all in one transaction (run by tasks.notify and by
    catch_up). Returns how many mails were queued now."""
    unknown = [event for event, _pk in events if event not in _COMPOSERS]
    if unknown:
        raise ValueError(f"unknown notice event {unknown[0]!r}")
    mailing = Mailing()
    with transaction.atomic():
        for event, pk in events:
            _COMPOSERS[event](mailing, pk)
        queued = mailing.write()
        notice_rows.mark_handled(events, timezone.now())
    return queued


def catch_up(now: datetime | None = None, *, older_than: float = 30.0,
             limit: int = 200) -> int:
    """Handle notices whose wake-up never ran (periodic), a game's events together as
    their task would have. Returns how many notices were handled."""
    now = now or timezone.now()
    pending = (Notice.objects.filter(handled__isnull=True,
                                     created__lte=now - timedelta(seconds=older_than))
               .order_by("created", "id").values_list("game_id", "kind", "object_id")[:limit])
    by_game: dict[int, list[tuple[str, int]]] = {}
    for game_id, kind, object_id in pending:
        by_game.setdefault(game_id, []).append((kind, object_id))
    done = 0
    for events in by_game.values():
        try:
            notify_many(events)
            done += len(events)
            continue
        except Exception:  # then one by one: one broken event must not block the others
            log.warning("notices %s failed together; trying each", events, exc_info=True)
        for event in events:
            try:
                notify_many([event])
                done += 1
            except Exception:
                log.exception("notice %s %s failed", *event)
    return done
