"""The daily digest and the quiet-hours catch-up: one mail across all games.

A digest lists what needs the person now (orders owed, with the time left), then what
happened since the last one (reports, press, posts, GM acts...). It goes at the person's
chosen local hour. Notifications held by quiet hours go together in one mail when they
end. Each notification is in one mail at most (its state moves to DIGESTED/SENT).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from gm.accounts.timezones import format_deadline
from gm.play.models import Seat, Turn

from . import budget, notes, quiet, webhooks
from .models import Mode, Notification, Settings, Webhook


def owed(user_id: int) -> list[tuple[Turn, Seat]]:
    """The open turns where the person's seat owes orders and has none in."""
    from gm.play import actions

    out = []
    seats = Seat.objects.filter(user_id=user_id).select_related("game")
    for seat in seats:
        turn = (Turn.objects.filter(game_id=seat.game_id, status=Turn.Status.OPEN,
                                    superseded=False).order_by("-number").first())
        if turn is not None and seat.name in turn.owing \
                and seat.name not in actions.seats_in(turn):
            turn.game = seat.game
            out.append((turn, seat))
    return sorted(out, key=lambda pair: pair[0].deadline or datetime.max.replace(
        tzinfo=timezone.get_current_timezone()))


def left(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return "no deadline"
    seconds = max(0, int((deadline - now).total_seconds()))
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours} h {minutes:02d} min left" if hours else f"{minutes} min left"


def compose(user_id: int, zone, notes_: list[Notification], now: datetime,
            heading: str) -> str:
    lines = [heading, ""]
    needs = owed(user_id)
    if needs:
        lines.append("Needs you now:")
        for turn, seat in needs:
            lines.append(f"  - {turn.game.title}: turn {turn.number}, seat {seat.name}, "
                         f"due {format_deadline(turn.deadline, zone)} "
                         f"({left(turn.deadline, now)})")
        lines.append("")
    order = {"report": 0, "press": 1}
    rest = sorted((n for n in notes_ if not n.needs_action),
                  key=lambda n: (order.get(n.kind, 2), n.created))
    if rest:
        lines.append("Since last time:")
        lines += [f"  - {n.text}" for n in rest]
    return "\n".join(lines)


def due_digests(now: datetime) -> list[Settings]:
    """People in digest mode whose local digest hour has come since their last digest."""
    due = []
    for s in Settings.objects.filter(mode=Mode.DIGEST).select_related("user",
                                                                       "user__profile"):
        zone = budget.zone_of_profile(getattr(s.user, "profile", None)
                                      if budget._has(s.user, "profile") else None)
        start = s.last_digest or (now - timedelta(days=1))
        if quiet.next_local_hour(s.digest_hour, start, zone) <= now:
            s.zone = zone
            due.append(s)
    return due


def send_digests(now: datetime | None = None) -> int:
    now = now or timezone.now()
    sent = 0
    for s in due_digests(now):
        with transaction.atomic():
            if not Settings.objects.filter(pk=s.pk, last_digest=s.last_digest).update(
                    last_digest=now):
                continue  # another tick took it
            pending = list(Notification.objects.filter(user_id=s.user_id,
                                                       state=Notification.State.DIGEST))
            if not pending and not owed(s.user_id):
                continue
            text = compose(s.user_id, s.zone, pending, now, "Your daily digest")
            local_day = quiet.local(now, s.zone).date().isoformat()
            if notes.mail_plain(s.user, f"digest:{s.user_id}:{local_day}",
                                f"Your games: {len(owed(s.user_id))} need you", text):
                sent += 1
            Notification.objects.filter(pk__in=[n.pk for n in pending]).update(
                state=Notification.State.DIGESTED, sent=now)
    return sent


def release_held(now: datetime | None = None) -> int:
    """Held notifications whose quiet hours ended: one catch-up mail per person."""
    now = now or timezone.now()
    held = list(Notification.objects.filter(state=Notification.State.HELD, due__lte=now)
                .select_related("user").order_by("user_id", "created"))
    by_user: dict[int, list[Notification]] = {}
    for n in held:
        by_user.setdefault(n.user_id, []).append(n)
    sent = 0
    for user_id, items in by_user.items():
        with transaction.atomic():
            claimed = Notification.objects.filter(
                pk__in=[n.pk for n in items], state=Notification.State.HELD).update(
                state=Notification.State.SENT, sent=now, channels="mail")
            if not claimed:
                continue
            user = items[0].user
            by_mail = [n for n in items if "mail" in n.channels.split(",")]
            by_hook = [n for n in items if "webhook" in n.channels.split(",")]
            if by_hook:  # each held notice to the person's webhook, as it would have gone
                hooks = list(Webhook.objects.filter(owner_id=user_id, game__isnull=True,
                                                    enabled=True))
                webhooks.enqueue([(h, n.key, webhooks.payload(_event_of(n), personal=True))
                                  for n in by_hook for h in hooks], now)
                sent += bool(hooks)
            lines = ["While your quiet hours lasted:", ""] + [f"  - {n.text}" for n in by_mail]
            if by_mail and notes.mail_plain(user, f"held:{user_id}:{items[-1].pk}",
                                            f"{len(by_mail)} notices while you were away",
                                            "\n".join(lines)):
                sent += 1
    return sent


def _event_of(n: Notification) -> budget.Event:
    return budget.Event(n.kind, n.key, n.text, n.game_id, n.url, n.needs_action, n.urgent)
