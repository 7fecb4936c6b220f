"""API: a person's notification settings, feed and webhooks; a game's webhooks and
deadline hour; the proposed hour for a list of zones (the new-game form's API side)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from gm.accounts.timezones import zone_name_of
from gm.play.errors import ActionError, NotAllowed
from gm.play.models import Game

from . import actions, schedule


def _error(exc: ActionError) -> Response:
    code = status.HTTP_403_FORBIDDEN if isinstance(exc, NotAllowed) else \
        status.HTTP_400_BAD_REQUEST
    return Response({"detail": exc.message}, status=code)


def _data(request: Request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


@extend_schema(request=None, responses=None, summary="My notification settings")
@api_view(["GET", "PUT", "PATCH"])
@permission_classes([IsAuthenticated])
def my_settings(request: Request) -> Response:
    if request.method != "GET":
        try:
            actions.update_settings(request.user, _data(request))
        except ActionError as exc:
            return _error(exc)
    return Response(actions.as_dict(actions.settings_of(request.user)))


@extend_schema(request=None, responses=None, summary="My recent notifications")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def my_feed(request: Request) -> Response:
    return Response([{"id": n.pk, "kind": n.kind, "text": n.text, "url": n.url,
                      "game": n.game_id, "needs_action": n.needs_action,
                      "state": n.state, "created": n.created}
                     for n in actions.feed(request.user)])


@extend_schema(request=None, responses=None, summary="My webhooks")
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def my_webhooks(request: Request) -> Response:
    from .models import Webhook
    if request.method == "POST":
        data = _data(request)
        try:
            hook = actions.add_webhook(request.user, str(data.get("url", "")),
                                       str(data.get("format", "generic")))
        except ActionError as exc:
            return _error(exc)
        return Response(actions.webhook_dict(hook, with_secret=True), status=201)
    hooks = Webhook.objects.filter(owner=request.user, game__isnull=True).order_by("pk")
    return Response([actions.webhook_dict(h) for h in hooks])


@extend_schema(request=None, responses=None, summary="Remove a webhook")
@api_view(["DELETE"])
@permission_classes([IsAuthenticated])
def webhook_detail(request: Request, hook_id: int) -> Response:
    try:
        actions.remove_webhook(request.user, hook_id)
    except ActionError as exc:
        return _error(exc)
    return Response(status=204)


@extend_schema(request=None, responses=None, summary="A game's webhooks (its GM)")
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def game_webhooks(request: Request, pk: int) -> Response:
    game = get_object_or_404(Game, pk=pk)
    try:
        if request.method == "POST":
            data = _data(request)
            hook = actions.add_webhook(request.user, str(data.get("url", "")),
                                       str(data.get("format", "generic")), game)
            return Response(actions.webhook_dict(hook, with_secret=True), status=201)
        return Response([actions.webhook_dict(h)
                         for h in actions.game_webhooks(game, request.user)])
    except ActionError as exc:
        return _error(exc)


@extend_schema(request=None, responses=None, summary="A game's deadline hour")
@api_view(["GET", "PUT"])
@permission_classes([IsAuthenticated])
def game_schedule(request: Request, pk: int) -> Response:
    game = get_object_or_404(Game, pk=pk)
    if request.method == "PUT":
        try:
            actions.set_schedule(game, request.user, _data(request))
        except ActionError as exc:
            return _error(exc)
    return Response(actions.schedule_dict(game, request.user))


@extend_schema(request=None, responses=None,
               summary="The deadline hour putting the fewest players in their night")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def proposal(request: Request) -> Response:
    """?zones=Europe/Berlin,America/New_York&zone=Europe/Berlin (default: mine)."""
    mine = zone_name_of(request.user) or "UTC"
    zones = [z for z in request.query_params.get("zones", "").split(",") if z] or [mine]
    return Response(schedule.propose_hour(zones, request.query_params.get("zone") or mine))
