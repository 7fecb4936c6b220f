"""The adjudication desk page: thin over actions.py (a form posts, the action runs, the
outcome or its error comes back as a message on the desk)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.core.types import OrdersInvalid
from gm.play.errors import ActionError, NotAllowed
from gm.play.models import Game

from . import actions


def _game(request: HttpRequest, pk: int) -> Game:
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    try:
        actions.require_gm(game, request.user)
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None
    except ActionError as exc:
        raise PermissionDenied(exc.message) from None
    return game


def _turn_number(request: HttpRequest) -> int | None:
    raw = (request.POST.get("turn") or "").strip()
    return int(raw) if raw.isdigit() else None


def _count(raw: str | None) -> int:
    raw = (raw or "").strip()
    if not raw:
        return 1
    if not raw.isdigit():
        raise ActionError("count must be a whole number")
    return int(raw)


def _do(request: HttpRequest, game: Game) -> str:
    """Run the posted desk action; the message to show."""
    what = request.POST.get("do", "")
    user, number = request.user, _turn_number(request)
    text = request.POST.get("text", "")
    if what == "save":
        actions.save(game, user, text, turn_number=number)
        return "Draft saved (nothing is published yet)."
    if what in ("roll", "draw"):
        if text != actions.draft_of(actions._turn(game, number)).text:
            actions.save(game, user, text, turn_number=number)
        got = actions.roll(game, user, request.POST.get("label", ""),
                           request.POST.get("what", ""), draw=what == "draw",
                           secret=bool(request.POST.get("secret")),
                           count=_count(request.POST.get("count")), turn_number=number)
        last = got["rolls"][-1] if got["rolls"] else {}
        return (f"Rolled {last.get('label', '')}: {last.get('result', '')}. Put "
                f"{{{last.get('label', '')}}} in a report where it goes.")
    if what == "publish":
        actions.save(game, user, text, turn_number=number)
        turn = actions.publish(game, user, turn_number=number)
        return f"The adjudication of turn {turn.number} is published."
    if what == "reopen":
        turn = actions.reopen(game, user, request.POST.get("reason", ""))
        return f"Turn {turn.number}'s adjudication is open again."
    raise ActionError("unknown desk action")


@login_required
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk)
    if request.method == "POST":
        try:
            messages.success(request, _do(request, game))
        except OrdersInvalid as exc:
            messages.error(request, "Not accepted: " + "; ".join(str(e) for e in exc.errors))
        except ActionError as exc:
            messages.error(request, exc.message)
        return redirect(f"/games/{game.pk}/adjudicate/")
    data = actions.desk(game, request.user)
    return render(request, "gmadj/desk.html", {"game": game, "d": data})
