"""API of the adjudication desk: GET /api/games/<id>/gm/adjudication/ (the desk as JSON)
and POST with {"action": save | roll | draw | preview | publish | reopen, ...}."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from gm.play.errors import ActionError
from gm.referee.api_views import _game, errors

from . import actions

ANY = OpenApiResponse(description="JSON object")


def _json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _count(raw: Any) -> int:
    """How many cards to draw: 1 unless a whole number is given (the engine bounds it)."""
    if raw in (None, ""):
        return 1
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ActionError("count must be a whole number") from None


@extend_schema(request=None, responses={200: ANY},
               summary="The adjudication desk of a GM-adjudicated game (GM only)")
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
@errors
def adjudication(request: Request, pk: int) -> Response:
    game = _game(pk)
    user = request.user
    if request.method == "GET":
        return Response(_json(actions.desk(game, user)))
    data = request.data if isinstance(request.data, dict) else {}
    action = str(data.get("action", ""))
    number = data.get("turn")
    number = int(number) if isinstance(number, int) or (isinstance(number, str)
                                                       and number.isdigit()) else None
    text = data.get("text")
    if text is not None and not isinstance(text, str):
        raise ActionError("text must be a string")
    if action == "save":
        actions.save(game, user, text or "", turn_number=number)
        return Response(_json(actions.desk(game, user)))
    if action in ("roll", "draw"):
        got = actions.roll(game, user, str(data.get("label", "")), str(data.get("what", "")),
                           draw=action == "draw", secret=bool(data.get("secret")),
                           count=_count(data.get("count")), turn_number=number)
        return Response(_json(got), status=status.HTTP_201_CREATED)
    if action == "preview":
        return Response(_json(actions.preview(game, user, text=text, turn_number=number)))
    if action == "publish":
        turn = actions.publish(game, user, text=text, turn_number=number)
        return Response({"published": turn.number})
    if action == "reopen":
        turn = actions.reopen(game, user, str(data.get("reason", "")))
        return Response({"reopened": turn.number})
    raise ActionError("action must be one of save, roll, draw, preview, publish, reopen")
