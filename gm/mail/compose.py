"""What every outbound mail shares: templates, the footer, and the standard headers.

Every mail says it is automatic (RFC 3834 Auto-Submitted, so well-behaved responders do
not answer it), carries List-Unsubscribe with a one-click signed link for its kind when
it goes to a user, and the seat's reply address as Reply-To, so replying is ordering.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from .prefs import unsubscribe_url


def render(template: str, context: dict[str, Any]) -> str:
    return render_to_string(f"mail/{template}", context).strip() + "\n"


def site_url(path: str = "") -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_url(game) -> str:
    return site_url(f"/games/{game.pk}/")


def fmt_deadline(when: datetime | None) -> str:
    if when is None:
        return "no deadline"
    from datetime import UTC

    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def headers_for(kind: str, user, *, auto: str = "auto-generated") -> tuple[dict[str, str], str]:
    """(headers, unsubscribe url or "") for a mail of `kind` to `user` (None = no account)."""
    headers = {"Auto-Submitted": auto, "X-Auto-Response-Suppress": "All"}
    url = ""
    if user is not None:
        url = unsubscribe_url(user, kind)
        headers["List-Unsubscribe"] = f"<{url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return headers, url


def footer(kind_label: str, unsubscribe: str) -> str:
    return render("footer.txt", {"kind_label": kind_label, "unsubscribe": unsubscribe,
                                 "prefs": site_url("/mail/preferences/")})
