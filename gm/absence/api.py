"""The absence layer's API (DRF): a game's absence rules and who is away, the reader's
own choices and "if I miss" orders, the account's vacations. Errors as the rest of the
API: {"detail": ...}, or {"errors": [{"line", "message"}]} for orders."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from games.core.types import OrdersInvalid
from gm.api.views import action_errors
from gm.play import actions as play
from gm.play.models import Game

from . import actions
from .models import AwayChoice, SeatAbsence, Vacation

ANY = OpenApiResponse(description="JSON object")


class RulesSerializer(serializers.Serializer):
    vacations_allowed = serializers.BooleanField(required=False)
    vacation_cap_days = serializers.IntegerField(required=False, min_value=0)
    grace_count = serializers.IntegerField(required=False, min_value=0)
    grace_hours = serializers.IntegerField(required=False, min_value=1)
    misses_to_disorder = serializers.IntegerField(required=False, min_value=0)
    bot_seats = serializers.IntegerField(required=False, min_value=0)


class MineSerializer(serializers.Serializer):
    away_choice = serializers.ChoiceField(choices=AwayChoice.values, required=False)
    if_miss_text = serializers.CharField(required=False, allow_blank=True, max_length=20000)


class VacationSerializer(serializers.Serializer):
    starts = serializers.DateTimeField()
    ends = serializers.DateTimeField()


def rules_json(game: Game) -> dict:
    rules = actions.rules_or_default(game)
    return {"vacations_allowed": rules.vacations_allowed,
            "vacation_cap_days": rules.vacation_cap_days, "grace_count": rules.grace_count,
            "grace_hours": rules.grace_hours, "misses_to_disorder": rules.misses_to_disorder,
            "bot_seats": rules.bot_seats, "described": actions.describe(rules)}


def _game_json(game: Game, user) -> dict:
    data = {"rules": rules_json(game), "away": actions.away_lines(game)}
    seat = game.seat_of(user)
    if seat is not None:
        mine = SeatAbsence.objects.filter(seat=seat).first() or SeatAbsence(seat=seat)
        data["mine"] = {
            "seat": seat.name, "away_choice": mine.away_choice,
            "if_miss_text": mine.if_miss_text, "if_miss_problem": mine.if_miss_problem,
            "misses": mine.misses, "disorder": mine.disorder,
            "grace_left": actions.grace_left(actions.rules_or_default(game), seat),
            "if_missed": actions.if_missed_line(game, seat)
            if game.status == Game.Status.RUNNING else ""}
    return data


@extend_schema(methods=["PATCH"], request=RulesSerializer, responses={200: ANY})
@extend_schema(methods=["GET"], responses={200: ANY})
@api_view(["GET", "PATCH"])
@permission_classes([permissions.AllowAny])
@action_errors
def game_absence(request: Request, pk: int) -> Response:
    """The game's absence rules and who is away; PATCH (its GM) changes the rules."""
    game = get_object_or_404(Game, pk=pk)
    if request.method == "PATCH":
        if not request.user.is_authenticated:
            return Response({"detail": "sign in"}, status=status.HTTP_401_UNAUTHORIZED)
        data = RulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        actions.configure(game, request.user, dict(data.validated_data),
                          reason=str(request.data.get("reason", "")))
    return Response(_game_json(game, request.user))


@extend_schema(request=MineSerializer, responses={200: ANY})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def my_absence(request: Request, pk: int) -> Response:
    """The reader's seat: what happens while away, and "if I miss" orders ('' clears)."""
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    if seat is None:
        return Response({"detail": "you have no seat in this game"},
                        status=status.HTTP_403_FORBIDDEN)
    data = MineSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    if "away_choice" in data.validated_data:
        actions.set_away_choice(game, seat, request.user, data.validated_data["away_choice"])
    if "if_miss_text" in data.validated_data:
        try:
            actions.file_if_miss(game, seat, request.user, data.validated_data["if_miss_text"])
        except OrdersInvalid as exc:
            return Response(play.orders_error_payload(exc), status=status.HTTP_400_BAD_REQUEST)
    return Response(_game_json(game, request.user))


def _vacation_json(v: Vacation) -> dict:
    return {"id": v.pk, "starts": v.starts.isoformat(), "ends": v.ends.isoformat()}


@extend_schema(methods=["POST"], request=VacationSerializer, responses={201: ANY})
@extend_schema(methods=["GET"], responses={200: ANY})
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def vacations(request: Request) -> Response:
    """The reader's vacations to come; POST adds one (ISO datetimes with their offset)."""
    if request.method == "POST":
        data = VacationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vac = actions.add_vacation(request.user, data.validated_data["starts"],
                                   data.validated_data["ends"])
        return Response(_vacation_json(vac), status=status.HTTP_201_CREATED)
    return Response([_vacation_json(v) for v in Vacation.objects.filter(
        user=request.user, ends__gt=timezone.now())])


@extend_schema(responses={204: None})
@api_view(["DELETE"])
@permission_classes([permissions.IsAuthenticated])
@action_errors
def vacation(request: Request, vid: int) -> Response:
    actions.cancel_vacation(request.user, vid)
    return Response(status=status.HTTP_204_NO_CONTENT)
