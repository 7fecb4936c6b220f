"""The newcomer's briefing: what a player taking over a seat needs to know, on a page
(/games/<id>/briefing/) and in one mail when they take the seat.

SECTIONS is a registry: each Section builds markdown from (game, seat, now) out of the
seat's own view and reports only (never the full state), or "" to leave itself out.
Other apps append theirs (the absence app adds the seat's "if I miss" orders), e.g.

    from gm.substitutes.briefing import SECTIONS, Section
    SECTIONS.append(Section("if_i_miss", "If you miss a deadline", build, order=35))
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from gm.play import actions as play
from gm.play.models import Game, Report, Seat, Submission, Turn
from gm.play.rendering import render_markdown

from .models import SeatHolding

REPORTS_SHOWN = 3


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    build: Callable[[Game, Seat, datetime], str]
    order: int = 50


def _left(delta) -> str:
    minutes = max(0, int(delta.total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    return (f"{days} d " if days else "") + f"{hours} h {minutes:02d} min"


def deadline_section(game: Game, seat: Seat, now: datetime) -> str:
    turn = game.current_turn()
    if game.status == Game.Status.FINISHED:
        return "The game is over."
    if turn is None:
        return "No turn is open yet."
    if turn.status == Turn.Status.PAUSED:
        return f"Turn {turn.number} is paused by the GM; its deadline is set on resume."
    if turn.status != Turn.Status.OPEN or turn.deadline is None:
        return f"Turn {turn.number} is {turn.get_status_display()}."
    owing = seat.name in turn.owing
    return (f"Turn {turn.number} is open. Orders are due "
            f"{turn.deadline:%Y-%m-%d %H:%M} UTC, in {_left(turn.deadline - now)}. "
            + ("Your seat owes orders this turn." if owing else
               "Your seat owes no orders this turn."))


def view_section(game: Game, seat: Seat, now: datetime) -> str:
    state = play.published_state(game, seat.name)
    if state is None:
        return ""
    view = play.view_of(game, state, seat.name)
    return ("What seat " + seat.name + " sees now:\n\n```\n"
            + json.dumps(view, indent=2, sort_keys=True, default=str) + "\n```")


def orders_section(game: Game, seat: Seat, now: datetime) -> str:
    latest = (Submission.objects.filter(seat=seat, turn__superseded=False)
              .select_related("turn").order_by("-turn__number", "-version").first())
    if latest is None or latest.withdrawn:
        return ("No orders are on file for this seat. Standing orders the seat gave stay "
                "in force inside the game until you change them.")
    return (f"The seat's last orders (turn {latest.turn.number}, "
            f"{latest.get_source_display()}); standing orders among them stay in force:\n\n"
            "```\n" + (latest.text.strip() or "(empty)") + "\n```")


def reports_section(game: Game, seat: Seat, now: datetime) -> str:
    records = list(game.records.filter(superseded=False, published=True)
                   .order_by("-number")[:REPORTS_SHOWN])
    if not records:
        return "No turn has been reported yet."
    reports = {(r.record_id, r.audience): r for r in Report.objects.filter(
        record__in=records, audience__in=["", seat.name])}
    parts = []
    for record in records:
        for audience, label in (("", "public report"), (seat.name, f"seat {seat.name}")):
            report = reports.get((record.pk, audience))
            if report is not None and report.markdown.strip():
                parts.append(f"#### Turn {record.number}: {label}\n\n{report.markdown.strip()}")
    return "\n\n".join(parts)


SECTIONS: list[Section] = [
    Section("deadline", "Time until the deadline", deadline_section, order=10),
    Section("view", "Your seat now", view_section, order=20),
    Section("orders", "Standing orders", orders_section, order=30),
    Section("reports", f"The last {REPORTS_SHOWN} reports", reports_section, order=40),
]


def sections(game: Game, seat: Seat, now: datetime | None = None) -> list[dict[str, str]]:
    """The briefing as [{"key", "title", "markdown"}], in section order, empty ones out."""
    now = now or timezone.now()
    out = []
    for section in sorted(SECTIONS, key=lambda s: s.order):
        try:
            with play.stored_state(game):
                text = section.build(game, seat, now)
        except play.StateUnreadable:
            # a hand-over must not fail for a briefing's part: say so, show the rest
            text = "This part cannot be shown just now; the game page has it."
        if text:
            out.append({"key": section.key, "title": section.title, "markdown": text})
    return out


def as_markdown(game: Game, seat: Seat, parts: list[dict[str, str]]) -> str:
    head = (f"# Briefing: seat {seat.name} in {game.title}\n\n"
            f"You now play seat {seat.name}. Send orders on the game page "
            f"or by replying to this mail.")
    return head + "\n\n" + "\n\n".join(f"## {p['title']}\n\n{p['markdown']}" for p in parts)


def mail_briefing(game: Game, seat: Seat, holding: SeatHolding) -> bool:
    """Queue the briefing mail to the seat's new player (in the caller's transaction;
    one per holding, ever). False when the player has no confirmed address or switched
    "a new turn is open" mail off (the briefing travels under that switch)."""
    from gm.mail import compose, outbox, prefs
    from gm.mail.models import Kind

    user = seat.user
    if user is None or not user.email or not prefs.wants(user, Kind.TURN_OPENED):
        return False
    parts = sections(game, seat)
    text = as_markdown(game, seat, parts)
    headers, unsubscribe = compose.headers_for(Kind.TURN_OPENED, user)
    headers["X-GM-Game"] = str(game.pk)
    headers["In-Reply-To"] = headers["References"] = compose.thread_root(game.pk)
    body = (text + f"\n\nBriefing page: {compose.site_url(f'/games/{game.pk}/briefing/')}\n"
            f"Game page: {compose.game_url(game)}\n\n"
            + compose.footer(Kind.TURN_OPENED.label, unsubscribe))
    title = compose.header_value(game.title, 80)
    return outbox.enqueue(
        key=f"briefing:{holding.pk}", kind=Kind.TURN_OPENED, to=user.email, user=user,
        subject=f"[{title}] you now play seat {seat.name}: your briefing", text=body,
        html=render_markdown(text), headers=headers, reply_to=seat.reply_address) is not None
