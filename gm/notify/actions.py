"""The notification layer's service logic for pages and the API (thin views call these)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from gm.accounts.timezones import valid_zone
from gm.play.errors import ActionError, NotAllowed
from gm.play.models import Game

from . import schedule, webhooks
from .models import Channel, Mode, Notification, Schedule, Settings, Webhook

SETTING_FIELDS = ("mode", "channel", "every_channel", "digest_hour", "quiet_start",
                  "quiet_end", "urgent_breaks_quiet", "reminder_hours", "daily_cap")


def settings_of(user) -> Settings:
    """The person's settings (the defaults, unsaved, when they never chose)."""
    return Settings.objects.filter(user=user).first() or Settings(user=user)


def as_dict(s: Settings) -> dict[str, Any]:
    return {name: getattr(s, name) for name in SETTING_FIELDS}


def _hour(value: Any, name: str, optional: bool = False) -> int | None:
    if value in (None, "") and optional:
        return None
    try:
        hour = int(value)
    except (TypeError, ValueError):
        raise ActionError(f"{name} must be an hour from 0 to 23") from None
    if not 0 <= hour <= 23:
        raise ActionError(f"{name} must be an hour from 0 to 23")
    return hour


def update_settings(user, data: dict[str, Any]) -> Settings:
    """Validate and store the fields given (others keep their value)."""
    s = settings_of(user)
    if "mode" in data:
        if data["mode"] not in Mode.values:
            raise ActionError(f"mode must be one of {', '.join(Mode.values)}")
        s.mode = data["mode"]
    if "channel" in data:
        if data["channel"] not in Channel.values:
            raise ActionError(f"channel must be one of {', '.join(Channel.values)}")
        s.channel = data["channel"]
    for flag in ("every_channel", "urgent_breaks_quiet"):
        if flag in data:
            s.__dict__[flag] = bool(data[flag]) and data[flag] not in ("0", "false", "off")
    if "digest_hour" in data:
        s.digest_hour = _hour(data["digest_hour"], "digest_hour")
    for name in ("quiet_start", "quiet_end"):
        if name in data:
            setattr(s, name, _hour(data[name], name, optional=True))
    if (s.quiet_start is None) != (s.quiet_end is None):
        raise ActionError("give both ends of the quiet hours, or neither")
    if "reminder_hours" in data:
        raw = data["reminder_hours"]
        if isinstance(raw, str):
            raw = [part for part in raw.replace(",", " ").split() if part]
        try:
            hours = sorted({float(h) for h in raw}, reverse=True)
        except (TypeError, ValueError):
            raise ActionError("reminder_hours must be numbers of hours") from None
        if not hours or len(hours) > 6 or any(not 0 < h <= 168 for h in hours):
            raise ActionError("give 1 to 6 reminder offsets between 0 and 168 hours")
        s.reminder_hours = hours
    if "daily_cap" in data:
        try:
            s.daily_cap = int(data["daily_cap"])
        except (TypeError, ValueError):
            raise ActionError("daily_cap must be a number") from None
        if not 1 <= s.daily_cap <= 100:
            raise ActionError("daily_cap must be between 1 and 100")
    s.save()
    return s


def feed(user, limit: int = 50) -> list[Notification]:
    return list(Notification.objects.filter(user=user).select_related("game")[:limit])


def webhook_dict(hook: Webhook, *, with_secret: bool = False) -> dict[str, Any]:
    out = {"id": hook.pk, "url": hook.url, "format": hook.format, "game": hook.game_id,
           "enabled": hook.enabled, "failures": hook.failures,
           "disabled_reason": hook.disabled_reason}
    if with_secret:  # shown once, to its owner, when it is made
        out["secret"] = hook.secret
    return out


def add_webhook(user, url: str, fmt: str = Webhook.Format.GENERIC,
                game: Game | None = None) -> Webhook:
    problem = webhooks.url_problem(url or "") or ("URL too long" if len(url) > 500 else "")
    if problem:
        raise ActionError(problem)
    if fmt not in Webhook.Format.values:
        raise ActionError(f"format must be one of {', '.join(Webhook.Format.values)}")
    if game is not None and not game.is_gm(user):
        raise NotAllowed("only the game's GM can add its webhooks")
    count = Webhook.objects.filter(owner=user, game=game).count()
    if count >= 5:
        raise ActionError("at most 5 webhooks here; remove one first")
    return Webhook.objects.create(owner=user, url=url[:500], format=fmt, game=game)


def remove_webhook(user, hook_id: int) -> None:
    hook = Webhook.objects.filter(pk=hook_id).select_related("game").first()
    if hook is None or not (hook.owner_id == user.pk
                            or (hook.game is not None and hook.game.is_gm(user))):
        raise NotAllowed("no such webhook of yours")
    hook.delete()


def game_webhooks(game: Game, user) -> list[Webhook]:
    if not game.is_gm(user):
        raise NotAllowed("only the game's GM sees its webhooks")
    return list(Webhook.objects.filter(game=game).order_by("pk"))


def schedule_dict(game: Game, user=None) -> dict[str, Any]:
    """The game's deadline hour; the proposal (counted from the players' time zones)
    only for its GM (`user` None: the caller checked)."""
    s = Schedule.objects.filter(game=game).first()
    current = None if s is None else {
        "hour": s.hour, "minute": s.minute, "time_zone": s.time_zone,
        "excluded_days": s.excluded_days, "move": s.move}
    out: dict[str, Any] = {"schedule": current}
    if user is None or game.is_gm(user):
        out["proposal"] = schedule.propose_for_game(game)
    return out


@transaction.atomic
def set_schedule(game: Game, user, data: dict[str, Any] | None) -> Schedule | None:
    """Fix the game's deadlines at a local hour (None/empty: as the clock falls)."""
    if not game.is_gm(user):
        raise NotAllowed("only the game's GM sets its deadline hour")
    if not data or data.get("hour") in (None, ""):
        Schedule.objects.filter(game=game).delete()
        return None
    hour = _hour(data.get("hour"), "hour")
    try:
        minute = int(data.get("minute") or 0)
    except (TypeError, ValueError):
        raise ActionError("minute must be from 0 to 59") from None
    if not 0 <= minute <= 59:
        raise ActionError("minute must be from 0 to 59")
    zone = str(data.get("time_zone") or "UTC")
    if len(zone) > 64 or not valid_zone(zone):
        raise ActionError(f"unknown time zone {zone!r}")
    days = data.get("excluded_days") or []
    if isinstance(days, str):
        days = [d for d in days.replace(",", " ").split() if d]
    try:
        days = sorted({int(d) for d in days})
    except (TypeError, ValueError):
        raise ActionError("excluded_days are weekday numbers, 0 = Monday") from None
    if any(not 0 <= d <= 6 for d in days) or len(days) >= 7:
        raise ActionError("excluded_days are weekday numbers 0-6, not all seven")
    move = data.get("move") or Schedule.Move.LATER
    if move not in Schedule.Move.values:
        raise ActionError("move must be 'later' or 'earlier'")
    s, _ = Schedule.objects.update_or_create(game=game, defaults=dict(
        hour=hour, minute=minute, time_zone=zone, excluded_days=days, move=move))
    return s
