"""The API's exception handler: DRF's, plus clear words for throttling and ActionError."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from gm.play.errors import ActionError


def exception_handler(exc, context):
    if isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait or 1)
        exc.detail = (f"too many requests: try again in {wait} second"
                      f"{'s' if wait != 1 else ''}")
    response = drf_handler(exc, context)
    if response is None and isinstance(exc, ActionError):
        response = Response({"detail": exc.message}, status=exc.status)
    return response
