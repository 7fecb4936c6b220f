"""Outbound notices from the service's signals, and deadline reminders.

Receivers only write outbox rows (unique per event and seat), so a signal delivered
twice, or a turn re-published after a rerun (a new record, a new key), mails exactly
what it should. Content comes from the turn's decision prompt for that seat and the
seat's own Report (engine.view / audience-filtered events): never another seat's.
"""

from __future__ import annotations

import json
import logging
import re
import textwrap
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gm.play import actions
from gm.play.models import Game, Notice, Seat, Turn, TurnRecord

from . import compose, outbox, plaintext
from .models import Kind
from .prefs import wants

log = logging.getLogger(__name__)


def _seats(game: Game, names: list[str] | None = None):
    qs = game.seats.select_related("user", "user__profile").filter(mode=Seat.Mode.ACTIVE,
                                                                   user__isnull=False)
    return qs.filter(name__in=names) if names is not None else qs


def _queue(kind: str, key: str, seat: Seat, subject: str, template: str,
           context: dict[str, Any], html: str = "", turn: Turn | None = None) -> bool:
    user = seat.user
    if not wants(user, kind):
        return False
    headers, unsubscribe = compose.headers_for(kind, user)
    headers["X-GM-Game"] = str(seat.game_id)
    ctx = {"seat": seat, "game": seat.game, "game_url": compose.game_url(seat.game),
           "reply_address": seat.reply_address, **context}
    text = compose.render(template, ctx) + compose.footer(Kind(kind).label, unsubscribe)
    subject = compose.header_value(subject, 255)
    if html:
        html += (f'<hr><p style="font-size:small">Reply to this mail to send orders. '
                 f'<a href="{unsubscribe}">Stop {Kind(kind).label}</a>.</p>')
    return outbox.enqueue(key=key, kind=kind, to=user.email, user=user, subject=subject,
                          text=text, html=html, headers=headers,
                          reply_to=seat.reply_address, turn=turn) is not None


def render_prompt(prompt: dict[str, Any], number: int | None = None) -> list[str]:
    """An engine's JSON prompt as plain lines: title, help, example, then any lists.

    `number` is the service's turn number: an engine that counts its own turns ("Orders
    for combat turn 4" while the game is at turn 5) has its count replaced by it, so a
    mail names one turn number, the one in its subject and on the game page.
    """
    lines: list[str] = []
    for key in ("title", "help"):
        if prompt.get(key):
            text = str(prompt[key])
            if number is not None:
                text = one_numbering(text, number)
            lines += textwrap.wrap(text, plaintext.WIDTH, break_long_words=False) or [""]
    if prompt.get("example"):
        lines.append(f"Example: {prompt['example']}")
    for key, value in prompt.items():
        if key in ("title", "help", "example"):
            continue
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


_ENGINE_TURN = re.compile(r"\b(?:(?:combat|game|round)\s+)?(turn)\s+(\d+)(?:\s+of\s+\d+)?\b",
                          re.IGNORECASE)


def one_numbering(text: str, number: int) -> str:
    """`text` with any other turn count than `number` replaced by it ("Orders for combat
    turn 4" -> "Orders for turn 5"); a text already using `number` is left alone."""
    def fix(match: re.Match[str]) -> str:
        if int(match.group(2)) == number:
            return match.group(0)
        return f"{match.group(1)} {number}"
    return _ENGINE_TURN.sub(fix, text)


def engine_count(text: str, number: int) -> str | None:
    """The engine's own turn count in `text` ("combat turn 4") when it differs from the
    service's `number`, else None: what `one_numbering` replaces, to be named once."""
    for match in _ENGINE_TURN.finditer(text):
        if int(match.group(2)) != number:
            return " ".join(match.group(0).lower().split())
    return None


def turn_opened(turn: Turn) -> int:
    turn = Turn.objects.select_related("game").get(pk=turn.pk)
    if turn.status != Turn.Status.OPEN or turn.superseded:
        return 0
    game = turn.game
    title = compose.header_value(game.title, 80)
    sent = 0
    with transaction.atomic():
        for seat in _seats(game, turn.owing):
            prompt = turn.decision["prompts"].get(seat.name, {})
            sent += _queue(Kind.TURN_OPENED, f"turn_opened:{turn.pk}:{seat.pk}", seat,
                           f"[{title}] turn {turn.number}: your orders, seat {seat.name}",
                           "turn_opened.txt", {
                               "turn": turn,
                               "deadline": compose.fmt_deadline(turn.deadline, seat.user),
                               "prompt_lines": render_prompt(prompt, turn.number),
                               "example": prompt.get("example", "")}, turn=turn)
    return sent


def turn_published(record: TurnRecord) -> int:
    record = TurnRecord.objects.select_related("game").get(pk=record.pk)
    if record.superseded or not record.published:
        return 0
    game = record.game
    title = compose.header_value(game.title, 80)
    reports = {r.audience: r for r in record.reports.all()}
    texts: dict[int, str] = {}
    sent = 0
    with transaction.atomic():
        for seat in _seats(game):
            report = reports.get(seat.name) or reports.get("")
            if report is None:
                continue
            if report.pk not in texts:
                texts[report.pk] = plaintext.render(report.markdown)
            sent += _queue(Kind.REPORT, f"report:{record.pk}:{seat.pk}", seat,
                           f"[{title}] report for turn {record.number}",
                           "report.txt", {"record": record, "report_text": texts[report.pk]},
                           html=report.html)
    return sent


def game_finished(game: Game) -> int:
    game = Game.objects.get(pk=game.pk)
    title = compose.header_value(game.title, 80)
    sent = 0
    with transaction.atomic():
        for seat in _seats(game):
            sent += _queue(Kind.GAME_OVER, f"game_over:{game.pk}:{seat.pk}", seat,
                           f"[{title}] game over", "game_over.txt",
                           {"result": game.result or {}, "secret": game.secret})
    return sent


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
        with transaction.atomic():
            if not Turn.objects.filter(pk=turn.pk, reminded=False).update(reminded=True):
                continue
            done = actions.seats_in(turn)
            waiting = [name for name in turn.owing if name not in done]
            for seat in _seats(turn.game, waiting):
                sent += _remind(turn, seat)
    return sent


def _remind(turn: Turn, seat: Seat) -> int:
    """Queue one seat's reminder: the deadline in the seat's own time zone."""
    prompt = turn.decision["prompts"].get(seat.name, {})
    deadline = compose.fmt_deadline(turn.deadline, seat.user)
    title = compose.header_value(turn.game.title, 80)
    return _queue(Kind.REMINDER, f"reminder:{turn.pk}:{seat.pk}", seat,
                  f"[{title}] reminder: turn {turn.number} orders due {deadline}",
                  "reminder.txt", {"turn": turn, "deadline": deadline,
                                   "prompt_lines": render_prompt(prompt, turn.number)},
                  turn=turn)


# --- signal receivers (connected in apps.MailConfig.ready) ------------------------------
# The event itself is a gm.play Notice row, written in the transaction that published the
# turn; the receivers only send a wake-up through the broker, so composing a notice per
# seat never lengthens a resolution. When the wake-up is lost (broker down or emptied),
# `catch_up` (periodic) handles the notice from the database. The outbox's unique key per
# (event, recipient) makes handling it twice harmless.
def _wake(event: str, pk: int) -> None:
    from . import tasks

    try:
        tasks.notify.delay(event, pk)
    except Exception:  # the broker is down: the Notice row waits for catch_up
        log.warning("could not queue %s notices for %s; the periodic job will", event, pk,
                    exc_info=True)


def on_turn_opened(sender, turn: Turn, **kwargs: Any) -> None:
    _wake(Notice.Kind.TURN_OPENED, turn.pk)


def on_turn_published(sender, record: TurnRecord, **kwargs: Any) -> None:
    _wake(Notice.Kind.TURN_PUBLISHED, record.pk)


def on_game_finished(sender, game: Game, **kwargs: Any) -> None:
    _wake(Notice.Kind.GAME_FINISHED, game.pk)


def notify(event: str, pk: int) -> None:
    """Compose and queue the notices of one service event, and mark its Notice handled,
    all in one transaction (run by tasks.notify and by catch_up)."""
    with transaction.atomic():
        if event == "turn_opened":
            turn = Turn.objects.select_related("game").filter(pk=pk).first()
            if turn is not None:
                turn_opened(turn)
        elif event == "turn_published":
            record = TurnRecord.objects.select_related("game", "turn").filter(pk=pk).first()
            if record is not None:
                turn_published(record)
        elif event == "game_finished":
            game = Game.objects.filter(pk=pk).first()
            if game is not None:
                game_finished(game)
        else:
            raise ValueError(f"unknown notice event {event!r}")
        Notice.objects.filter(kind=event, object_id=pk, handled__isnull=True).update(
            handled=timezone.now())


def catch_up(now: datetime | None = None, *, older_than: float = 30.0,
             limit: int = 200) -> int:
    """Handle notices whose wake-up never ran (periodic). Returns how many were handled."""
    now = now or timezone.now()
    pending = (Notice.objects.filter(handled__isnull=True,
                                     created__lte=now - timedelta(seconds=older_than))
               .order_by("created").values_list("kind", "object_id")[:limit])
    done = 0
    for kind, object_id in list(pending):
        try:
            notify(kind, object_id)
            done += 1
        except Exception:  # one broken event must not block the others
            log.exception("notice %s %s failed", kind, object_id)
    return done
