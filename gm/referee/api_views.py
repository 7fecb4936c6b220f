"""REST API of the referee: thin views over actions.py, disputes.py and reading.py.

Every GM endpoint is under /api/games/<id>/gm/ and needs an authenticated user; the
actions themselves refuse anyone but the GM, a co-GM or a superuser (403).
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from games.core.types import OrdersInvalid
from games.core.verify import verify_record
from gm.api.parsers import SafeJSONParser
from gm.play import actions as play
from gm.play.errors import ActionError
from gm.play.models import Game, Submission

from . import actions, disputes, patching, reading
from . import serializers as s
from .models import Dispute

ANY = OpenApiResponse(description="JSON object")
AUTH = [permissions.IsAuthenticated]


def errors(view):
    """ActionError -> its status with {"detail"}; OrdersInvalid -> 400 with line errors."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except OrdersInvalid as exc:
            return Response(play.orders_error_payload(exc), status=status.HTTP_400_BAD_REQUEST)
        except ActionError as exc:
            return Response({"detail": exc.message}, status=exc.status)

    return wrapper


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("gm"), pk=pk)


def _valid(serializer_class, request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _gm_post(serializer_class, summary: str):
    """Decorate a POST power: auth, schema, error mapping, validated data as `data`."""

    def deco(func):
        @extend_schema(request=serializer_class, responses={200: ANY}, summary=summary)
        @api_view(["POST"])
        @permission_classes(AUTH)
        @errors
        @wraps(func)
        def view(request: Request, pk: int, **kwargs) -> Response:
            game = _game(pk)
            actions.require_gm(game, request.user)
            return func(request, game, _valid(serializer_class, request), **kwargs)
        return view
    return deco


def _summary(game: Game, request: Request) -> Response:
    game.refresh_from_db()
    return Response(play.game_summary(game, request.user))


@extend_schema(responses={200: ANY}, summary="Full state, every turn, seats (GM only)")
@api_view(["GET"])
@permission_classes(AUTH)
@errors
def overview(request: Request, pk: int) -> Response:
    return Response(reading.overview(_game(pk), request.user))


@extend_schema(responses={200: ANY}, summary="Every version of a turn with orders and draws")
@api_view(["GET"])
@permission_classes(AUTH)
@errors
def turn(request: Request, pk: int, number: int) -> Response:
    return Response(reading.turn_detail(_game(pk), request.user, number))


@extend_schema(responses={200: ANY}, summary="The state as typed fields for an amendment")
@api_view(["GET"])
@permission_classes(AUTH)
@errors
def fields(request: Request, pk: int) -> Response:
    game = _game(pk)
    actions.require_gm(game, request.user)
    return Response(patching.fields(game.state) if game.state is not None else [])


@_gm_post(s.GmReasonSerializer, "Pause the game (the clock stops)")
def pause(request, game, data):
    actions.pause(game, request.user, data["reason"])
    return _summary(game, request)


@_gm_post(s.GmReasonSerializer, "Resume with the time that was left")
def resume(request, game, data):
    actions.resume(game, request.user, data["reason"])
    return _summary(game, request)


@_gm_post(s.GmExtendSerializer, "Move the open turn's deadline")
def extend(request, game, data):
    actions.extend_deadline(game, request.user, data["reason"], hours=data["hours"],
                            minutes=data["minutes"], until=data["until"])
    return _summary(game, request)


@_gm_post(s.GmReasonSerializer, "Resolve the open turn now")
def force(request, game, data):
    actions.force_resolution(game, request.user, data["reason"])
    return _summary(game, request)


@_gm_post(s.GmHoldSerializer, "Hold each turn for review before its report goes out")
def hold(request, game, data):
    actions.set_hold(game, request.user, data["reason"], data["hold"])
    return _summary(game, request)


@_gm_post(s.GmReasonSerializer, "Publish the held turn")
def release(request, game, data):
    record = actions.release(game, request.user, data["reason"])
    return Response({"turn": record.number, "published": True})


@_gm_post(s.GmAmendSerializer, "Amend the state before the open turn resolves")
def amend(request, game, data):
    changes = [dict(c) for c in data["changes"]]
    result = actions.amend_state(game, request.user, data["reason"], changes)
    return Response({"version": result["version"], "patch": result["patch"],
                     "from_hash": result["from_hash"], "to_hash": result["to_hash"]})


@_gm_post(s.GmOrdersSerializer, "Replace a seat's orders (a past turn is rerun)")
def orders(request, game, data):
    done = actions.replace_orders(game, request.user, data["reason"], data["seat"],
                                  data["text"], turn_number=data["turn"])
    if isinstance(done, Submission):
        return Response(play.receipt_json(done))
    return Response(done.to_json())


@_gm_post(s.GmDiceSerializer, "Fix (or unfix) a die of a resolved turn and rerun it")
def dice(request, game, data):
    result = actions.fix_die(game, request.user, data["reason"], data["turn"], data["index"],
                             data["value"])
    return Response(result.to_json())


@_gm_post(s.GmRerunSerializer, "Resolve turns N.. again, with optional corrections")
def rerun(request, game, data):
    result = actions.rerun_from(game, request.user, data["reason"], data["turn"],
                                changes=[dict(c) for c in data["changes"]] or None,
                                overrides=data["overrides"], orders=data["orders"] or None)
    return Response(result.to_json())


@_gm_post(s.GmTurnSerializer, "Reopen turn N for orders; later turns are set aside")
def rollback(request, game, data):
    actions.rollback_to(game, request.user, data["reason"], data["turn"])
    return _summary(game, request)


@_gm_post(s.GmSeatSerializer, "Replace a seat's player or set its mode")
def seat(request, game, data, name: str):
    if "user" in data:
        user = get_user_model().objects.filter(username=data["user"]).first()
        if user is None:
            raise ActionError(f"there is no user {data['user']!r}")
        done = actions.replace_player(game, request.user, data["reason"], name, user)
    else:
        done = actions.set_seat_mode(game, request.user, data["reason"], name, data["mode"])
    return Response({"name": done.name, "player": done.player_name(), "mode": done.mode})


@_gm_post(s.GmCoGmSerializer, "Add or remove a co-GM")
def co_gms(request, game, data):
    names = actions.set_co_gm(game, request.user, data["reason"], data["username"],
                              data["add"])
    return Response({"co_gms": names})


def _dispute(game: Game, dispute_id: int) -> Dispute:
    return get_object_or_404(Dispute.objects.select_related("game", "seat"), game=game,
                             pk=dispute_id)


@extend_schema(request=s.GmRulingSerializer, responses={200: ANY},
               summary="Rule on a dispute (upheld with a correction, or rejected)")
@api_view(["POST"])
@permission_classes(AUTH)
@errors
def rule(request: Request, pk: int, dispute_id: int) -> Response:
    game = _game(pk)
    dispute = _dispute(game, dispute_id)
    actions.require_gm(game, request.user)
    data = _valid(s.GmRulingSerializer, request)
    disputes.rule(dispute, request.user, upheld=data["upheld"], reasons=data["reasons"],
                  correction=data["correction"] or None)
    return Response(disputes.dispute_json(dispute, request.user))


@extend_schema(methods=["GET"], responses={200: ANY})
@extend_schema(methods=["POST"], request=s.GmDisputeSerializer, responses={201: ANY})
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
@errors
def dispute_list(request: Request, pk: int) -> Response:
    """The game's disputes (everyone), or file one (players)."""
    game = _game(pk)
    if request.method == "GET":
        return Response([disputes.dispute_json(d, request.user)
                         for d in disputes.visible_disputes(game)])
    data = _valid(s.GmDisputeSerializer, request)
    dispute = disputes.file_dispute(game, request.user, data["turn"], data["text"])
    return Response(disputes.dispute_json(dispute, request.user),
                    status=status.HTTP_201_CREATED)


@extend_schema(responses={200: ANY}, operation_id="games_dispute_one")
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def dispute_detail(request: Request, pk: int, dispute_id: int) -> Response:
    return Response(disputes.dispute_json(_dispute(_game(pk), dispute_id), request.user))


@extend_schema(request=s.GmTextSerializer, responses={200: ANY},
               summary="Ask another site GM for a second opinion (players)")
@api_view(["POST"])
@permission_classes(AUTH)
@errors
def second_opinion_request(request: Request, pk: int, dispute_id: int) -> Response:
    dispute = _dispute(_game(pk), dispute_id)
    data = _valid(s.GmTextSerializer, request)
    disputes.request_second_opinion(dispute, request.user, data["text"])
    return Response(disputes.dispute_json(dispute, request.user))


@extend_schema(request=s.GmTextSerializer, responses={200: ANY},
               summary="Give the second opinion (staff with no part in the game)")
@api_view(["POST"])
@permission_classes(AUTH)
@errors
def second_opinion_give(request: Request, pk: int, dispute_id: int) -> Response:
    dispute = _dispute(_game(pk), dispute_id)
    data = _valid(s.GmTextSerializer, request)
    disputes.give_second_opinion(dispute, request.user, data["text"])
    return Response(disputes.dispute_json(dispute, request.user))


@extend_schema(responses={200: ANY}, summary="Second-opinion requests this staff user may answer")
@api_view(["GET"])
@permission_classes(AUTH)
def opinions(request: Request) -> Response:
    return Response([{"game": d.game_id, **disputes.dispute_json(d, request.user)}
                     for d in disputes.pending_opinions(request.user)])


@extend_schema(responses={200: ANY}, summary="The game's log of GM acts and disputes")
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def log(request: Request, pk: int) -> Response:
    return Response(reading.log_entries(_game(pk), request.user))


@extend_schema(request={"multipart/form-data": {"type": "object", "properties": {
    "file": {"type": "string", "format": "binary"}}}, "application/json": {"type": "object"}},
    responses={200: ANY}, summary="Verify a game export (replays every turn)")
@api_view(["POST"])
@permission_classes([permissions.AllowAny])
@parser_classes([MultiPartParser, FormParser, SafeJSONParser])
def verify(request: Request) -> Response:
    upload = request.FILES.get("file")
    if upload is not None:
        verdict = reading.verify_upload(upload.read(reading.VERIFY_MAX_BYTES + 1))
    elif isinstance(request.data, dict) and request.data.get("format"):
        verdict = verify_record(dict(request.data))
    else:
        return Response({"detail": 'send the export as a "file" upload or as the JSON body'},
                        status=status.HTTP_400_BAD_REQUEST)
    return Response(reading.verdict_json(verdict))
