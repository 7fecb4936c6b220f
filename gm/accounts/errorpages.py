"""Error responses that say what happened, as JSON for API clients and a page otherwise.

`server_error` is the site's handler500: it runs for every uncaught exception (also those
raised in middleware) and looks at the exception being handled. A database that does not
answer becomes 503 with Retry-After (clients should come back later); an ActionError that escaped a view keeps its status and
message; anything else is a plain 500 that shows nothing of the state. The pages here are
standalone (no base template): with the database down even the session cannot be read.
"""

from __future__ import annotations

import json
import logging
import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape

from gm.play.errors import ActionError

log = logging.getLogger(__name__)
RETRY_AFTER_OUTAGE = 30


def wants_json(request: HttpRequest) -> bool:
    accept = request.META.get("HTTP_ACCEPT", "")
    return request.path.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept)


def error_response(request: HttpRequest, status: int, title: str, message: str,
                   retry_after: int | None = None) -> HttpResponse:
    if wants_json(request):
        response = HttpResponse(json.dumps({"detail": message}), status=status,
                                content_type="application/json")
    else:
        response = HttpResponse(
            f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title></head><body><main><h1>{escape(title)}</h1>"
            f'<p id="error-detail">{escape(message)}</p><p><a href="/">Back to the lobby</a>'
            "</p></main></body></html>", status=status, content_type="text/html; charset=utf-8")
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def is_outage(exc: BaseException | None) -> bool:
    """The database is unreachable or went away (not a bad query: that is a bug, a 500)."""
    return isinstance(exc, OperationalError | InterfaceError) or (
        isinstance(exc, DatabaseError) and "connection" in str(exc).lower())


def server_error(request: HttpRequest) -> HttpResponse:
    exc = sys.exc_info()[1]
    if is_outage(exc):
        log.error("database unavailable while serving %s: %s", request.path, exc)
        return error_response(request, 503, "Database unavailable",
                              "The database is not answering just now. Try again in "
                              f"{RETRY_AFTER_OUTAGE} seconds.",
                              retry_after=RETRY_AFTER_OUTAGE)
    if isinstance(exc, ActionError):
        return error_response(request, exc.status if exc.status >= 400 else 400, "Error",
                              exc.message)
    return error_response(request, 500, "Server error",
                          "Something went wrong on our side; it has been logged.")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = (f"The request is larger than {limit // 1024} KiB, the most this site "
                  "takes; nothing was stored. Send less (orders have their own, smaller "
                  "limit).")
    elif isinstance(exception, TooManyFieldsSent):
        detail = "The form has too many fields; nothing was stored."
    else:
        detail = str(exception) if exception is not None and str(exception) else ""
    return error_response(request, 400, "Bad request", detail or "The request was malformed.")
