"""API of the substitutes app (token or session auth, like the rest of /api/)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from gm.api.views import action_errors
from gm.play.errors import ActionError, NotAllowed
from gm.play.models import Game

from . import briefing, offers, policy, reliability
from .handover import history
from .models import SeatOffer

ANY = OpenApiResponse(description="JSON object")


def _body(request: Request) -> dict[str, Any]:
    """The request's body as a plain dict (a form's single values), or 400 for anything
    else (a JSON list, a string, a number)."""
    data = request.data
    if hasattr(data, "dict"):
        return data.dict()
    if data is None or data == "":
        return {}
    if not isinstance(data, dict):
        raise ActionError("the body is a JSON object")
    return dict(data)


def _offer_json(offer: SeatOffer) -> dict[str, Any]:
    return {"id": offer.pk, "game": offer.game_id, "title": offer.game.title,
            "ruleset": offer.game.ruleset, "seat": offer.seat.name, "reason": offer.reason,
            "status": offer.status, "approval": policy.policy_of(offer.game).approval,
            "created": offer.created.isoformat()}


@extend_schema(request=None, responses={200: ANY})
@api_view(["GET", "PUT"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def volunteer(request: Request) -> Response:
    """The rulesets you volunteer as a substitute for; PUT {"rulesets": [...]} ("*" = any)."""
    if request.method == "PUT":
        wanted = _body(request).get("rulesets", [])
        if not isinstance(wanted, list):
            raise ActionError("rulesets is a list of ruleset names")
        offers.set_volunteer(request.user, wanted)
    return Response({"rulesets": sorted(offers.volunteer_rulesets(request.user))})


@extend_schema(request=None, responses={200: ANY})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def offers_list(request: Request) -> Response:
    """Seats offered to substitutes in running games."""
    return Response([_offer_json(o) for o in offers.open_offers()])


@extend_schema(request=None, responses={200: ANY})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def accept(request: Request, offer_id: int) -> Response:
    """Accept an offer: "filled" (the seat is yours) or "claimed" (the GM decides)."""
    return Response(_offer_json(offers.accept(offer_id, request.user)))


@extend_schema(request=None, responses={201: ANY})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def leave(request: Request, pk: int) -> Response:
    """Ask to leave, with {"confirm": true}: your seat is offered to substitutes; you play
    it until taken over."""
    game = get_object_or_404(Game, pk=pk)
    if _body(request).get("confirm") is not True:
        raise ActionError('send {"confirm": true} to leave: your seat is then offered to '
                          "substitutes")
    return Response(_offer_json(offers.ask_to_leave(game, request.user)),
                    status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses={200: ANY})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def seat_history(request: Request, pk: int) -> Response:
    """Every seat with the line of players who held it."""
    game = get_object_or_404(Game, pk=pk)
    out = {}
    for seat in game.seats.select_related("user").prefetch_related("holdings"):
        out[seat.name] = [{**row, "from": row["from"].isoformat() if row["from"] else None,
                           "to": row["to"].isoformat() if row["to"] else None}
                          for row in history(seat)]
    return Response({"seats": out})


@extend_schema(request=None, responses={200: ANY})
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def briefing_json(request: Request, pk: int) -> Response:
    """Your seat's briefing, section by section (markdown)."""
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    if seat is None:
        raise NotAllowed("the briefing is for the seat's player")
    return Response({"seat": seat.name, "sections": briefing.sections(game, seat)})


@extend_schema(request=None, responses={200: ANY})
@api_view(["GET", "PUT"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def seat_policy(request: Request, pk: int) -> Response:
    """The game's seat policy: approval ("gm" | "auto"), free_turns, min_finished,
    min_met_percent; PUT changes it (GM only; "reason" is shown in the log)."""
    game = get_object_or_404(Game, pk=pk)
    if request.method == "PUT":
        data = _body(request)
        reason = str(data.pop("reason", "") or "")
        return Response(policy.as_json(policy.set_policy(game, request.user, data, reason)))
    return Response(policy.as_json(policy.policy_of(game)))


@extend_schema(request=None, responses={201: ANY})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def gm_offer_seat(request: Request, pk: int) -> Response:
    """The GM offers {"seat": name} to substitutes."""
    game = get_object_or_404(Game, pk=pk)
    offer = offers.gm_offer_seat(game, request.user, str(_body(request).get("seat", "")))
    return Response(_offer_json(offer), status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses={200: ANY}, operation_id="games_gm_seat_offer_act")
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def gm_offer(request: Request, pk: int, offer_id: int, what: str) -> Response:
    """approve | refuse | withdraw an offer of this game ({"reason": ...})."""
    game = get_object_or_404(Game, pk=pk)  # first: an id out of range is a 404, not a 500
    get_object_or_404(SeatOffer, pk=offer_id, game=game)
    reason = str(_body(request).get("reason", "") or "")
    if what == "approve":
        offers.approve(offer_id, request.user, reason)
    elif what == "refuse":
        offers.refuse(offer_id, request.user, reason)
    elif what == "withdraw":
        offers.withdraw(offer_id, request.user, reason)
    else:
        raise ActionError("approve, refuse or withdraw")
    return Response(_offer_json(SeatOffer.objects.select_related("game", "seat")
                                .get(pk=offer_id)))


@extend_schema(request=None, responses={200: ANY})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def player_record(request: Request, username: str) -> Response:
    """A player's reliability record."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    return Response({"player": user.username, **reliability.record(user)})
