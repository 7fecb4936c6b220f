"""The API's exception handler: DRF's, plus clear words for throttling and ActionError."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
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


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's handler404: JSON under /api/ (a mistyped endpoint), the 404 page else."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": f"no API endpoint at {request.path}; the endpoints "
                                       "are listed at /api/schema/ and /api/docs/"},
                            status=404)
    return defaults.page_not_found(request, exception)
