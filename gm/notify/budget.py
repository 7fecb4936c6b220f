"""The one place that decides what a notification becomes for its reader.

Every event, whatever its source (the mail app's per-event notices, the play signals,
`gm.play.signals.notable`, thread posts, GM acts, the escalation tick), passes through
`decide` with the reader's settings, zone and the clock. The verdict is one of:

* SENT now, on the person's channels (mail, or their webhook, or both when they asked
  for every channel: nothing goes out twice otherwise);
* DIGEST: kept for the daily digest (mode "digest", anything that does not need them);
* HELD until the end of quiet hours (then sent together in one catch-up mail);
* PAGE: the in-page feed only (mode "only what needs me", or the site-only channel).

No settings row means the defaults: each event, mail, no quiet hours: today's mails.

`Gate` applies verdicts to a batch of readers with a constant number of statements: the
readers' settings, profiles and personal webhooks in one read, the notifications in one
INSERT, webhook deliveries in one more when there are any.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.utils import timezone

from gm.accounts.timezones import UTC, valid_zone

from . import kinds, quiet
from .models import Channel, Mode, Notification, Settings, Webhook

SENT, DIGEST, HELD, PAGE = (Notification.State.SENT, Notification.State.DIGEST,
                            Notification.State.HELD, Notification.State.PAGE)


@dataclass(frozen=True)
class Event:
    """One happening for one reader (the key is unique per reader, ever)."""

    kind: str
    key: str
    text: str
    game_id: int | None = None
    url: str = ""
    needs_action: bool = False
    urgent: bool = False


@dataclass(frozen=True)
class Verdict:
    state: str
    channels: tuple[str, ...] = ()
    due: datetime | None = None


def zone_of_profile(profile) -> ZoneInfo:
    name = getattr(profile, "time_zone", "") or ""
    return ZoneInfo(name) if name and valid_zone(name) else UTC


def channels_for(s: Settings | None, kind: str, has_webhook: bool) -> tuple[str, ...]:
    """The channels a sent notice goes out on (mail first); never both unless asked."""
    if s is None:
        chosen: tuple[str, ...] = (Channel.MAIL,)
    elif s.channel == Channel.PAGE:
        chosen = ()
    elif s.every_channel:
        chosen = (Channel.MAIL, Channel.WEBHOOK) if has_webhook else (Channel.MAIL,)
    elif s.channel == Channel.WEBHOOK and has_webhook:
        chosen = (Channel.WEBHOOK,)
    else:  # a webhook channel without a working webhook falls back to mail
        chosen = (Channel.MAIL,)
    if kind in kinds.NOT_MAILED_EACH:
        chosen = tuple(c for c in chosen if c != Channel.MAIL)
    return chosen


def decide(s: Settings | None, event: Event, now: datetime, zone: ZoneInfo = UTC, *,
           has_webhook: bool = False) -> Verdict:
    """The verdict for one reader (pure: settings, zone and clock in, no I/O)."""
    mode = s.mode if s is not None else Mode.EACH
    if mode == Mode.NEEDS and not event.needs_action:
        return Verdict(PAGE)
    if mode == Mode.DIGEST and event.kind != "reminder" and not event.urgent:
        return Verdict(DIGEST)
    channels = channels_for(s, event.kind, has_webhook)
    if not channels:
        return Verdict(PAGE)
    if (s is not None and quiet.in_quiet(s.quiet_start, s.quiet_end, now, zone)
            and not (event.urgent and s.urgent_breaks_quiet)):
        return Verdict(HELD, channels, quiet.quiet_ends(s.quiet_start, s.quiet_end, now, zone))
    return Verdict(SENT, channels)


@dataclass
class Reader:
    user: object
    settings: Settings | None
    zone: ZoneInfo
    webhooks: list[Webhook]


def readers(user_ids: Iterable[int]) -> dict[int, Reader]:
    """The readers with their settings and zones (one statement) and personal webhooks
    (a second, only when someone chose a webhook channel)."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    users = list(get_user_model().objects.filter(pk__in=ids)
                 .select_related("notify_settings", "profile"))
    out: dict[int, Reader] = {}
    for user in users:
        s = getattr(user, "notify_settings", None) if _has(user, "notify_settings") else None
        profile = getattr(user, "profile", None) if _has(user, "profile") else None
        out[user.pk] = Reader(user, s, zone_of_profile(profile), [])
    _attach_webhooks(out)
    return out


def _has(user, name: str) -> bool:
    try:
        getattr(user, name)
    except Exception:  # RelatedObjectDoesNotExist: no row
        return False
    return True


def _attach_webhooks(out: dict[int, Reader]) -> None:
    wanting = [pk for pk, r in out.items() if r.settings is not None
               and (r.settings.channel == Channel.WEBHOOK or r.settings.every_channel)]
    if not wanting:
        return
    for hook in Webhook.objects.filter(owner_id__in=wanting, game__isnull=True, enabled=True):
        out[hook.owner_id].webhooks.append(hook)


def settings_by_user(users: Iterable) -> dict[int, Reader]:
    """Readers for users whose profile is already loaded (the mail batch selects it):
    only their settings are read, in one statement."""
    users = [u for u in users if u is not None]
    found = {s.user_id: s for s in Settings.objects.filter(user_id__in={u.pk for u in users})}
    out: dict[int, Reader] = {}
    for user in users:
        cache = getattr(getattr(user, "_state", None), "fields_cache", {})
        profile = cache.get("profile")
        out[user.pk] = Reader(user, found.get(user.pk), zone_of_profile(profile), [])
    _attach_webhooks(out)
    return out


class Gate:
    """Verdicts for a batch of readers, written together (see the module docstring)."""

    def __init__(self, known: dict[int, Reader], now: datetime | None = None) -> None:
        self.known = known
        self.now = now or timezone.now()
        self.notes: list[Notification] = []
        self.posts: list[tuple[Webhook, str, dict]] = []
        self.verdicts: list[tuple[Reader, Event, Verdict]] = []

    def reader(self, user) -> Reader:
        if user.pk not in self.known:
            self.known.update(readers([user.pk]))
        return self.known[user.pk]

    def consider(self, user, event: Event) -> Verdict:
        """Decide for one reader, remember the notification (and any webhook post)."""
        r = self.reader(user)
        verdict = decide(r.settings, event, self.now, r.zone, has_webhook=bool(r.webhooks))
        self.verdicts.append((r, event, verdict))
        self.notes.append(Notification(
            user_id=user.pk, game_id=event.game_id, key=event.key[:200], kind=event.kind,
            text=event.text[:500], url=event.url[:300], needs_action=event.needs_action,
            urgent=event.urgent, state=verdict.state,
            channels=",".join(verdict.channels) if verdict.state in (SENT, HELD) else "",
            due=verdict.due, created=self.now,
            sent=self.now if verdict.state == SENT else None))
        if verdict.state == SENT and Channel.WEBHOOK in verdict.channels:
            from . import webhooks
            for hook in r.webhooks:
                self.posts.append((hook, event.key,
                                   webhooks.payload(event, personal=True)))
        return verdict

    def mail(self, user, event: Event) -> bool:
        """Whether the per-event mail the caller composes goes out now."""
        verdict = self.consider(user, event)
        return verdict.state == SENT and Channel.MAIL in verdict.channels

    def flush(self) -> int:
        """Write what was decided: notifications (one INSERT, keys seen before skipped),
        webhook deliveries (one more INSERT). Returns the notifications considered."""
        notes, self.notes = self.notes, []
        if notes:
            Notification.objects.bulk_create(notes, ignore_conflicts=True)
        posts, self.posts = self.posts, []
        if posts:
            from . import webhooks
            webhooks.enqueue(posts, self.now)
        return len(notes)



class MailGate(Gate):
    """The gate the mail app's per-event notices pass through (gm.mail.notices.Mailing):
    its readers come with their profiles, so only their settings are read."""

    def __init__(self) -> None:
        super().__init__({})

    @staticmethod
    def settings_for(users: Iterable) -> dict[int, Reader]:
        return settings_by_user(users)

    def mail_notice(self, seat, kind: str, key: str, subject: str,
                    urgent: bool = False) -> bool:
        needs = kind in kinds.NEEDS_ACTION
        return self.mail(seat.user, Event(kind, key, subject, seat.game_id,
                                          f"/games/{seat.game_id}/", needs_action=needs,
                                          urgent=urgent))

    def mail_for(self, user, kind: str, key: str, text: str, game_id: int | None,
                 anchor: str = "") -> bool:
        """The same for a mail addressed to a user rather than a seat (press)."""
        return self.mail(user, Event(kind, key, text, game_id,
                                     f"/games/{game_id}/{anchor}" if game_id else "",
                                     needs_action=kind in kinds.NEEDS_ACTION))
