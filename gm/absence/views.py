"""The absence pages: vacations on the account, a game's absence panel. Thin: every
rule is in gm.absence.actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.core.types import OrdersInvalid
from gm.accounts.timezones import format_deadline, zone_of
from gm.play.errors import ActionError
from gm.play.models import Game

from . import actions
from .forms import RulesForm, SeatAbsenceForm, VacationForm
from .models import SeatAbsence, Vacation


@login_required
def vacations(request: HttpRequest) -> HttpResponse:
    """The account's vacation windows (from/to in the reader's time zone)."""
    zone = zone_of(request.user)
    form = VacationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        starts, ends = form.in_zone(zone)
        try:
            actions.add_vacation(request.user, starts, ends)
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Vacation saved: away {format_deadline(starts, zone)} "
                                      f"to {format_deadline(ends, zone)}.")
            return redirect("absence-vacations")
    rows = [(v, format_deadline(v.starts, zone), format_deadline(v.ends, zone))
            for v in Vacation.objects.filter(user=request.user, ends__gt=timezone.now())]
    return render(request, "absence/vacations.html", {"form": form, "rows": rows,
                                                      "zone": zone.key})


@login_required
@require_POST
def cancel_vacation(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        actions.cancel_vacation(request.user, pk)
        messages.success(request, "Vacation removed.")
    except ActionError as exc:
        messages.error(request, exc.message)
    return redirect("absence-vacations")


def game_absence(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's absence rules, who is away, and (the seat's player) their own choices."""
    game = get_object_or_404(Game, pk=pk)
    rules = actions.rules_or_default(game)
    seat = game.seat_of(request.user)
    is_gm = game.is_gm(request.user)
    seat_form = rules_form = None
    if seat is not None:
        mine = SeatAbsence.objects.filter(seat=seat).first() or SeatAbsence(seat=seat)
        seat_form = SeatAbsenceForm(initial={"away_choice": mine.away_choice,
                                             "if_miss_text": mine.if_miss_text})
    if is_gm:
        rules_form = RulesForm(initial={f: getattr(rules, f) for f in RulesForm.base_fields})
    return _page(request, game, rules, seat, seat_form, rules_form)


def _page(request, game, rules, seat, seat_form, rules_form, status=200):
    mine = SeatAbsence.objects.filter(seat=seat).first() if seat is not None else None
    return render(request, "absence/game.html", {
        "game": game, "rules": rules, "described": actions.describe(rules),
        "away": actions.away_lines(game, zone_of(request.user)), "seat": seat,
        "mine": mine, "seat_form": seat_form, "rules_form": rules_form,
        "if_missed": actions.if_missed_line(game, seat) if seat is not None and
        game.status == Game.Status.RUNNING else "",
        "grace_left": actions.grace_left(rules, seat) if seat is not None else None},
        status=status)


@login_required
@require_POST
def save_seat(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    if seat is None:  # refused with nothing kept (no message left for the next page)
        raise PermissionDenied("only a seated player has absence choices here")
    form = SeatAbsenceForm(request.POST)
    if form.is_valid():
        try:
            actions.set_away_choice(game, seat, request.user, form.cleaned_data["away_choice"])
            actions.file_if_miss(game, seat, request.user, form.cleaned_data["if_miss_text"])
        except OrdersInvalid as exc:
            for e in exc.errors:
                form.add_error("if_miss_text", f"line {e.line}: {e.message}" if e.line
                               else e.message)
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "Your absence choices are saved.")
            return redirect("absence-game", pk=pk)
    return _page(request, game, actions.rules_or_default(game), seat, form, None, status=400)


@login_required
@require_POST
def save_rules(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    if not game.is_gm(request.user):
        raise PermissionDenied("only the game's GM changes its absence settings")
    form = RulesForm(request.POST)
    if form.is_valid():
        try:
            actions.configure(game, request.user, form.settings(),
                              reason=request.POST.get("reason", ""))
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "Absence settings saved.")
            return redirect("absence-game", pk=pk)
    return _page(request, game, actions.rules_or_default(game), game.seat_of(request.user),
                 None, form, status=400)
