"""Unsubscribe (signed link, one click per RFC 8058) and the per-user notice settings."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from . import prefs
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
    if request.method == "POST":
        for kind in Kind.values:
            prefs.set_pref(request.user, kind, request.POST.get(kind) == "on")
        return redirect("mail-preferences")
    current = prefs.prefs_for(request.user)
    rows = [{"kind": k, "label": Kind(k).label, "on": current[k]} for k in Kind.values]
    return render(request, "mail/preferences.html", {"rows": rows})
