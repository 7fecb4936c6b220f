"""The API's JSON parser: every body that could not be stored or shown is a 400 with why.

DRF's own parser lets through JSON nested deeply enough to exhaust Python's recursion
(a RecursionError: 500), NUL characters (PostgreSQL text refuses them: 500) and lone
surrogates such as "\\ud800" (not encodable as UTF-8: 500 when rendered). Orders, thread
posts, GM acts and /api/verify/ all parse through this class.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads_checked(raw: bytes | str, max_depth: int | None = None) -> Any:
    """Parse JSON; ValueError with a message for anything the service cannot take."""
    max_depth = max_depth or settings.GM_JSON_MAX_DEPTH
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"the body is not UTF-8 (byte {exc.start})") from None
    try:
        data = json.loads(raw, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError(f"JSON nested too deeply (at most {max_depth} levels)") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"malformed JSON: {exc.msg} at line {exc.lineno} column "
                         f"{exc.colno}") from None
    check_value(data, max_depth)
    return data


def check_value(data: Any, max_depth: int) -> None:
    """Walk `data` without recursion: depth, and text that storage and pages can hold."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > max_depth:
                raise ValueError(f"JSON nested too deeply (at most {max_depth} levels)")
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, value in items:
                if isinstance(key, str):
                    _check_text(key)
                stack.append((value, depth + 1))
        elif isinstance(node, str):
            _check_text(node)


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise ValueError("a string contains a NUL character (\\u0000); remove it")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string contains a lone surrogate (e.g. \\ud800) that is not a "
                         "character; send valid Unicode") from None


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if not raw:
            raise ParseError("the JSON body is empty")
        try:
            return loads_checked(raw)
        except ValueError as exc:
            raise ParseError(str(exc)) from None
