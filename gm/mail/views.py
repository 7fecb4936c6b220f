"""Unsubscribe (signed link, one click per RFC 8058) and the per-user notice settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from gm.play.errors import ActionError
from gm.play.models import Game, Seat

from . import actions, prefs
from .models import Kind


@csrf_exempt  # mail clients POST "List-Unsubscribe=One-Click" without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user_id, kind = prefs.read_token(token)
        user = get_user_model().objects.get(pk=user_id)
    except (signing.BadSignature, get_user_model().DoesNotExist):
        return render(request, "mail/unsubscribe.html", {"bad": True}, status=400)
    label = Kind(kind).label
    if request.method == "POST":
        prefs.set_pref(user, kind, False)
        return render(request, "mail/unsubscribe.html", {"done": True, "label": label})
    return render(request, "mail/unsubscribe.html", {"label": label, "token": token})


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    """Notice switches, and per seat: its reply address and extra sender addresses."""
    seats = list(Seat.objects.filter(user=request.user).exclude(
        game__status=Game.Status.FINISHED).select_related("game").order_by("game_id"))
    error = ""
    if request.method == "POST" and "seat" in request.POST:
        seat = next((s for s in seats if str(s.pk) == request.POST["seat"]), None)
        if seat is None:
            return HttpResponse("no such seat of yours", status=404)
        try:
            actions.set_sender_addresses(seat, request.user,
                                         request.POST.get("emails", "").split())
        except ActionError as exc:
            error = exc.message
        else:
            messages.success(request, f"Sender addresses for {seat.game.title} saved.")
            return redirect("mail-preferences")
    elif request.method == "POST":
        for kind in Kind.values:
            prefs.set_pref(request.user, kind, request.POST.get(kind) == "on")
        messages.success(request, "Mail settings saved.")
        return redirect("mail-preferences")
    current = prefs.prefs_for(request.user)
    rows = [{"kind": k, "label": Kind(k).label, "on": current[k]} for k in Kind.values]
    return render(request, "mail/preferences.html", {"rows": rows, "seats": seats,
                                                     "error": error},
                  status=400 if error else 200)
