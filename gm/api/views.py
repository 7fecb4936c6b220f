"""REST API views: thin wrappers over gm.play.actions (paths fixed by ARCHITECTURE.md)."""

from __future__ import annotations

from functools import wraps

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from games.core import registry
from games.core.types import OrdersInvalid
from gm.play import actions, hooks, live_rows
from gm.play.errors import ActionError
from gm.play.limits import RateLimited
from gm.play.models import Game, Submission, fill_html

from . import serializers as s
from . import summary
from .parsers import check_value

ANY = OpenApiResponse(description="JSON object")
ERR = {400: s.DetailSerializer, 403: s.DetailSerializer, 404: s.DetailSerializer,
       409: s.DetailSerializer}
STATUSES = [choice for choice, _label in Game.Status.choices]


def action_errors(view):
    """Turn ActionError into its HTTP status with {"detail": message}."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except ActionError as exc:
            response = Response(exc.payload(), status=exc.status)
            if isinstance(exc, RateLimited):
                response["Retry-After"] = str(exc.retry_after)
            return response

    return wrapper


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("gm"), pk=pk)


@extend_schema(responses={200: ANY})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def rulesets(request: Request) -> Response:
    """The registered rulesets with their seat counts and options."""
    return Response([{"name": e.name, "title": e.title, "min_seats": e.min_seats,
                      "max_seats": e.max_seats,
                      "options": {k: o.to_json() for k, o in e.options.items()}}
                     for e in registry.engines().values()])


@extend_schema(methods=["GET"], responses={200: s.GameSummarySerializer(many=True),
                                           400: s.DetailSerializer},
               parameters=[OpenApiParameter("status", str, enum=STATUSES, required=False,
                                            description="only games with this status")])
@extend_schema(methods=["POST"], request=s.GameCreateSerializer,
               responses={201: ANY, **ERR})
@api_view(["GET", "POST"])
@action_errors
def games(request: Request) -> Response:
    """List games (newest first) or create one; the creator is its GM."""
    if request.method == "GET":
        qs = Game.objects.select_related("gm")
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in STATUSES:
                return Response({"detail": f"unknown status {wanted!r}; use one of: "
                                           f"{', '.join(STATUSES)}"},
                                status=status.HTTP_400_BAD_REQUEST)
            qs = qs.filter(status=wanted)
        return Response(s.GameSummarySerializer(qs[:200], many=True).data)
    data = s.GameCreateSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    fields = dict(data.validated_data)
    # the parts other apps keep (gm.absence's "absence", gm.substitutes' "seat_policy"):
    # each checked before the game exists, stored in the same transaction
    extras = [(part, part.clean(fields.pop(part.name, None) or {}))
              for part in hooks.CREATE_SETTINGS]
    with transaction.atomic():
        game = actions.create_game(request.user, **fields)
        for part, cleaned in extras:
            if cleaned:
                part.store(game, request.user, cleaned)
    return Response(summary.game_summary(game, request.user), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: ANY, 404: s.DetailSerializer, 503: s.DetailSerializer})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
@action_errors
def game_detail(request: Request, pk: int) -> Response:
    """Status, current turn, deadline, who owes orders, and the reader's own view."""
    return Response(summary.game_summary(_game(pk), request.user))


@extend_schema(request=None, responses={201: s.SeatSerializer, **ERR})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def join(request: Request, pk: int) -> Response:
    """Take the next free seat (409 for the game's GM and co-GMs where cards are hidden)."""
    seat = actions.join_game(_game(pk), request.user)
    return Response({"name": seat.name, "player": seat.player_name(), "mode": seat.mode,
                     "reply_address": seat.reply_address}, status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses={200: ANY, **ERR})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def start(request: Request, pk: int) -> Response:
    """The GM starts the game: setup runs and turn 1 opens."""
    game = actions.start_game(_game(pk), request.user)
    return Response(summary.game_summary(game, request.user))


def _my_seat(pk: int, user):
    """The reader's seat in game `pk` with the game, one statement (the order path's
    first read); 404 for no such game, 403 for no seat in it."""
    seat = live_rows.seat_with_game(pk, user.pk)
    if seat is None:
        _game(pk)  # raises 404 when the game does not exist
        raise actions.NotAllowed("you have no seat in this game")
    return seat


@extend_schema(methods=["GET"], responses={200: s.ReceiptSerializer, 204: None, **ERR})
@extend_schema(methods=["POST"], request=s.OrdersSerializer,
               responses={201: s.ReceiptSerializer, 400: s.OrderErrorsSerializer,
                          403: s.DetailSerializer, 404: s.DetailSerializer,
                          409: s.DetailSerializer})
@extend_schema(methods=["DELETE"], request=None, parameters=[s.TurnSerializer],
               responses={200: s.ReceiptSerializer, **ERR})
@api_view(["GET", "POST", "DELETE"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def orders(request: Request, pk: int) -> Response:
    """My orders for the current turn: read, submit (a new version), withdraw."""
    seat = _my_seat(pk, request.user)
    game = seat.game
    if request.method == "GET":
        sub = actions.my_orders(game, seat)
        if sub is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(actions.receipt_json(sub))
    if request.method == "DELETE":
        turn = s.TurnSerializer(data=request.query_params)
        if not turn.is_valid():
            return Response({"detail": f"turn: {' '.join(map(str, turn.errors['turn']))}"},
                            status=status.HTTP_400_BAD_REQUEST)
        sub = actions.withdraw_orders(game, seat, source=Submission.Source.API,
                                      author=request.user,
                                      turn_number=turn.validated_data.get("turn"))
        return Response(actions.receipt_json(sub))
    data, errors = s.validate_flat(s.OrdersSerializer, request.data)
    if errors:
        return Response({"errors": [{"line": 0, "message": f"{k}: {' '.join(map(str, v))}",
                                     "hint": 'send {"text": "<your orders>"}'}
                                    for k, v in errors.items()], "accepted": []},
                        status=status.HTTP_400_BAD_REQUEST)
    try:
        sub = actions.submit_orders(game, seat, data["text"],
                                    source=Submission.Source.API, author=request.user,
                                    turn_number=data.get("turn"),
                                    ready=data.get("ready", True))
    except OrdersInvalid as exc:
        return Response(actions.orders_error_payload(exc), status=status.HTTP_400_BAD_REQUEST)
    return Response(actions.receipt_json(sub), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: ANY, 404: s.DetailSerializer})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def reports(request: Request, pk: int) -> Response:
    """Published reports, oldest first: public, plus mine (the GM gets the full one).

    Paginated by turn number: `?after=N` starts after turn N, `?limit=` (1-100, default
    50) caps the page; a `Link: <...>; rel="next"` header names the next page."""
    try:
        after = int(request.query_params.get("after", 0))
        limit = int(request.query_params.get("limit", REPORTS_PAGE))
    except ValueError:
        return Response({"detail": "after and limit must be whole numbers"},
                        status=status.HTTP_400_BAD_REQUEST)
    if after < 0 or not 1 <= limit <= 100:
        return Response({"detail": "after must be 0 or more and limit 1 to 100"},
                        status=status.HTTP_400_BAD_REQUEST)
    page = actions.reports_for(_game(pk), request.user, after=after, limit=limit + 1)
    resp = Response(page[:limit])
    if len(page) > limit:
        nxt = request.build_absolute_uri(
            f"{request.path}?after={page[limit - 1]['turn']}&limit={limit}")
        resp["Link"] = f'<{nxt}>; rel="next"'
    return resp


REPORTS_PAGE = 50


@extend_schema(responses={200: ANY, 404: s.DetailSerializer}, operation_id="games_report_one")
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def report(request: Request, pk: int, number: int) -> Response:
    found = actions.reports_for(_game(pk), request.user, number)
    if not found:
        return Response({"detail": f"no published report for turn {number}"},
                        status=status.HTTP_404_NOT_FOUND)
    return Response(found[0])


@extend_schema(responses={200: ANY, **ERR})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
@action_errors
def export(request: Request, pk: int) -> Response:
    """The replayable record: public once the game is over (secret included), GM any time."""
    game = _game(pk)
    return Response(actions.export_game(game, for_gm=game.is_gm(request.user)))


@extend_schema(methods=["GET"], responses={200: s.PostSerializer(many=True)})
@extend_schema(methods=["POST"], request=inline_serializer(
    "PostCreate", {"markdown": serializers.CharField()}), responses={201: s.PostSerializer,
                                                                     **ERR})
@api_view(["GET", "POST"])
@action_errors
def thread(request: Request, pk: int) -> Response:
    """The game's thread: messages (markdown, sanitised) and public turn reports."""
    game = _game(pk)
    if request.method == "GET":
        return Response(s.PostSerializer(fill_html(game.posts.select_related("author")),
                                         many=True).data)
    text = request.data.get("markdown") if hasattr(request.data, "get") else None
    if not isinstance(text, str):
        return Response({"detail": "send {\"markdown\": \"<message>\"}"},
                        status=status.HTTP_400_BAD_REQUEST)
    try:
        check_value(text, 1)
    except ValueError as exc:
        return Response({"detail": f"markdown: {exc}"}, status=status.HTTP_400_BAD_REQUEST)
    post = actions.post_message(game, request.user, text)
    return Response(s.PostSerializer(post).data, status=status.HTTP_201_CREATED)
