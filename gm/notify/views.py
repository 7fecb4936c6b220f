"""Pages: /account/notifications/ (a person's settings, webhooks and feed) and
/games/<id>/notifications/ (a game's webhooks and deadline hour, for its GM)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from gm.accounts.timezones import zone_name_of
from gm.play.errors import ActionError
from gm.play.models import Game

from . import actions, schedule
from .models import Channel, Mode, Schedule, Webhook

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@login_required
def account_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    new_hook = None
    if request.method == "POST":
        what = request.POST.get("what", "settings")
        try:
            if what == "settings":
                data = {k: v for k, v in request.POST.items() if k in actions.SETTING_FIELDS}
                for flag in ("every_channel", "urgent_breaks_quiet"):
                    data[flag] = flag in request.POST
                actions.update_settings(user, data)
                messages.success(request, "Notification settings saved.")
            elif what == "add-webhook":
                new_hook = actions.add_webhook(user, request.POST.get("url", ""),
                                               request.POST.get("format", "generic"))
                messages.success(request, "Webhook added. Its signing secret is shown once "
                                          "below.")
            elif what == "remove-webhook":
                actions.remove_webhook(user, int(request.POST.get("id", "0") or 0))
                messages.success(request, "Webhook removed.")
        except ActionError as exc:
            messages.error(request, exc.message)
        if new_hook is None:
            return redirect("notify-account")
    s = actions.settings_of(user)
    return render(request, "notify/account.html", {
        "s": s, "modes": Mode.choices, "channels": Channel.choices,
        "formats": Webhook.Format.choices, "hours": range(24),
        "offsets": ", ".join(f"{h:g}" for h in s.reminder_hours),
        "hooks": Webhook.objects.filter(owner=user, game__isnull=True).order_by("pk"),
        "new_hook": new_hook, "feed": actions.feed(user, 30),
        "zone": zone_name_of(user) or "UTC"})


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    if not game.is_gm(request.user):
        raise Http404("no such page")
    new_hook = None
    if request.method == "POST":
        what = request.POST.get("what", "")
        try:
            if what == "add-webhook":
                new_hook = actions.add_webhook(request.user, request.POST.get("url", ""),
                                               request.POST.get("format", "generic"), game)
                messages.success(request, "Game webhook added (public events only).")
            elif what == "remove-webhook":
                actions.remove_webhook(request.user, int(request.POST.get("id", "0") or 0))
                messages.success(request, "Webhook removed.")
            elif what == "schedule":
                actions.set_schedule(game, request.user, {
                    "hour": request.POST.get("hour", ""),
                    "minute": request.POST.get("minute", "0"),
                    "time_zone": request.POST.get("time_zone", "UTC"),
                    "excluded_days": request.POST.getlist("excluded_days"),
                    "move": request.POST.get("move", "later")})
                messages.success(request, "Deadline hour saved: it applies from the next turn.")
        except ActionError as exc:
            messages.error(request, exc.message)
        if new_hook is None:
            return redirect("notify-game", pk=game.pk)
    info = actions.schedule_dict(game)
    return render(request, "notify/game.html", {
        "game": game, "hooks": actions.game_webhooks(game, request.user),
        "new_hook": new_hook, "formats": Webhook.Format.choices, "info": info,
        "current": info["schedule"], "proposal": info["proposal"], "hours": range(24),
        "weekdays": list(enumerate(WEEKDAYS)), "moves": Schedule.Move.choices,
        "gm_zone": zone_name_of(request.user) or "UTC"})


def proposal_for_creator(user) -> dict:
    """What the new-game form shows: the hour for the creator's zone (players join later;
    the game's notifications page proposes again from the seated players' zones)."""
    zone = zone_name_of(user) or "UTC"
    return schedule.propose_hour([zone], zone)
