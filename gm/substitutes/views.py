"""Web pages of the substitutes app: thin over offers/handover/briefing/reliability."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from games.core import registry
from gm.play import actions as play
from gm.play.errors import ActionError
from gm.play.models import Game, LogEntry
from gm.play.rendering import render_markdown

from . import briefing, offers, policy, reliability
from .handover import history
from .models import GamePolicy, SeatOffer, Volunteer


def _sentence(message: str) -> str:
    return message if message.endswith((".", "!", "?")) else message + "."


@login_required
def volunteer(request: HttpRequest) -> HttpResponse:
    """The account section: which rulesets the player stands in for."""
    if request.method == "POST":
        chosen = request.POST.getlist("ruleset")
        try:
            kept = offers.set_volunteer(request.user, chosen)
            messages.success(request, "You volunteer as a substitute for: "
                             + ", ".join("any ruleset" if r == Volunteer.ANY else r
                                         for r in kept) + "." if kept else
                             "You no longer volunteer as a substitute.")
        except ActionError as exc:
            messages.error(request, _sentence(exc.message))
        return redirect("substitute-volunteer")
    mine = set(offers.volunteer_rulesets(request.user))
    engines = [(e.name, e.title, e.name in mine) for e in registry.engines().values()]
    return render(request, "substitutes/volunteer.html", {
        "engines": engines, "any": Volunteer.ANY in mine})


def open_seats(request: HttpRequest) -> HttpResponse:
    """Every seat offered to substitutes in a running game, with a button to accept."""
    rows = []
    for offer in offers.open_offers():
        why = offers.eligible(offer, request.user) if request.user.is_authenticated else \
            "log in to accept"
        rows.append({"offer": offer, "why": why,
                     "policy": policy.policy_of(offer.game).get_approval_display()})
    return render(request, "substitutes/open_seats.html", {"rows": rows})


@login_required
@require_POST
def accept(request: HttpRequest, offer_id: int) -> HttpResponse:
    try:
        offer = offers.accept(offer_id, request.user)
    except ActionError as exc:
        messages.error(request, f"You could not take the seat: {_sentence(exc.message)}")
        return redirect("substitute-open-seats")
    if offer.status == SeatOffer.Status.FILLED:
        messages.success(request, f"You now play seat {offer.seat.name}. Here is your "
                                  "briefing; it is in your mail too.")
        return redirect("game-briefing", pk=offer.game_id)
    messages.success(request, f"You asked to take seat {offer.seat.name}; the GM decides, "
                              "and you get a mail with your briefing once approved.")
    return redirect("substitute-open-seats")


@login_required
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what leaving means, and a confirm button. POST: ask to leave (or cancel)."""
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    if seat is None:
        raise Http404("you have no seat in this game")
    pending = offers.my_leave_offer(game, request.user)
    if request.method == "POST":
        try:
            if request.POST.get("cancel") and pending is not None:
                offers.withdraw(pending.pk, request.user, "the player stays")
                messages.success(request, "You stay in the game; the seat is no longer "
                                          "offered.")
            elif request.POST.get("confirm") == "leave":
                offers.ask_to_leave(game, request.user)
                messages.success(request, f"Seat {seat.name} is offered to substitutes. "
                                          "Keep sending orders until someone takes over.")
            else:
                messages.error(request, "Tick the box to confirm that you want to leave.")
                return redirect("game-leave", pk=pk)
        except ActionError as exc:
            messages.error(request, _sentence(exc.message))
        return redirect("game-seats", pk=pk)
    return render(request, "substitutes/leave.html", {
        "game": game, "seat": seat, "pending": pending,
        "policy": policy.policy_of(game)})


def seats(request: HttpRequest, pk: int) -> HttpResponse:
    """The seat history: who held each seat, live offers, and the GM's approvals."""
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    is_gm = game.is_gm(request.user)
    lines = [{"seat": seat, "history": history(seat)}
             for seat in game.seats.select_related("user").prefetch_related("holdings")]
    live = list(game.seat_offers.filter(status__in=SeatOffer.LIVE)
                .select_related("seat", "taker"))
    log = list(LogEntry.objects.filter(game=game, action__in=[
        "seat-offered", "seat-claimed", "seat-handed-over", "player-replaced",
        "seat-claim-refused", "seat-offer-withdrawn", "seat-policy"]).order_by("-created")[:50])
    game_policy = policy.policy_of(game)
    return render(request, "substitutes/seats.html", {
        "game": game, "lines": lines, "live": live, "is_gm": is_gm, "log": log,
        "policy": game_policy, "policy_text": policy.describe(game_policy),
        "approvals": GamePolicy.Approval.choices,
        "my_seat": game.seat_of(request.user)})


@login_required
@require_POST
def gm_offer(request: HttpRequest, pk: int, offer_id: int, what: str) -> HttpResponse:
    reason = request.POST.get("reason", "")
    try:
        if what == "approve":
            seat = offers.approve(offer_id, request.user, reason)
            messages.success(request, f"{seat.user.username} now plays seat {seat.name}.")
        elif what == "refuse":
            offers.refuse(offer_id, request.user, reason)
            messages.success(request, "Refused; the seat is offered again.")
        elif what == "withdraw":
            offers.withdraw(offer_id, request.user, reason)
            messages.success(request, "The offer is withdrawn.")
        else:
            raise Http404
    except ActionError as exc:
        messages.error(request, _sentence(exc.message))
    return redirect("game-seats", pk=pk)


@login_required
@require_POST
def gm_policy(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    values = {k: request.POST[k] for k in policy.FIELDS if k in request.POST}
    try:
        policy.set_policy(game, request.user, values, request.POST.get("reason", ""))
        messages.success(request, "The seat policy is changed.")
    except ActionError as exc:
        messages.error(request, _sentence(exc.message))
    return redirect("game-seats", pk=pk)


@login_required
@require_POST
def gm_offer_seat(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    try:
        offers.gm_offer_seat(game, request.user, request.POST.get("seat", ""))
        messages.success(request, "The seat is offered to substitutes.")
    except ActionError as exc:
        messages.error(request, _sentence(exc.message))
    return redirect("game-seats", pk=pk)


@login_required
def briefing_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    if seat is None:
        raise Http404("the briefing is for the seat's player")
    parts = [{**p, "html": render_markdown(p["markdown"])}
             for p in briefing.sections(game, seat)]
    board = None
    state = play.published_state(game, seat.name)
    if state is not None:  # the game page's board, drawn from the seat's view only
        engine = play.engine_for(game)
        with play.stored_state(game):
            board = engine.board(play.view_of(game, state, seat.name))
    return render(request, "substitutes/briefing.html", {
        "game": game, "seat": seat, "parts": parts,
        "board": mark_safe(board) if board else None})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(request, "substitutes/profile.html", {
        "player": user, "record": reliability.record(user),
        "volunteers": offers.volunteer_rulesets(user)})
