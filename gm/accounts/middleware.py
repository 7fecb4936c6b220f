"""Refuse input that no page or API call can store or show, before any view sees it.

A NUL character cannot go into a PostgreSQL text column (psycopg raises DataError: a 500),
so a query string or form field holding one is answered 400 with the reason, as JSON
under /api/ and as a short page elsewhere. JSON bodies are checked by the API's parser
(gm.api.parsers), which also refuses lone surrogates and deep nesting.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from .errorpages import error_response

FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
# Inbound mail webhooks carry whole MIME messages; the mail code reads those itself.
SKIP_BODY = ("/mail/anymail/",)


def _has_nul(data) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values)
               for key, values in data.lists())


class BadInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or _has_nul(request.GET):
            return error_response(request, 400, "Bad request",
                                  "The address contains a NUL character (%00); remove it.")
        if (request.method == "POST" and request.content_type in FORMS
                and not request.path.startswith(SKIP_BODY) and _has_nul(request.POST)):
            return error_response(request, 400, "Bad request",
                                  "A form field contains a NUL character; remove it.")
        return self.get_response(request)
