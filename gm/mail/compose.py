"""What every outbound mail shares: templates, the footer, and the standard headers.

Every mail says it is automatic (RFC 3834 Auto-Submitted, so well-behaved responders do
not answer it), carries List-Unsubscribe with a one-click signed link for its kind when
it goes to a user, and the seat's reply address as Reply-To, so replying is ordering.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.template.loader import render_to_string

from gm.accounts.timezones import UTC, format_deadline, valid_zone, zone_of
from gm.textwidth import WIDTH, wrap  # noqa: F401 (the mail app's width rule)

from .prefs import unsubscribe_url

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]+")






def render(template: str, context: dict[str, Any]) -> str:
    return render_to_string(f"mail/{template}", context).strip() + "\n"


def site_url(path: str = "") -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_url(game) -> str:
    return site_url(f"/games/{game.pk}/")


def header_value(value: Any, limit: int = 255) -> str:
    """A value fit for a header line: no CR, LF or other control characters (a game
    title holding a newline must not break, or inject into, every notice of its game),
    whitespace collapsed, cut to `limit` characters."""
    text = " ".join(_CONTROL.sub(" ", str(value or "")).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def zone_for(user) -> ZoneInfo:
    """The reader's time zone; uses the profile already loaded with the user (the
    inbound path selects it with the seat) and asks the database only otherwise."""
    if user is None:
        return UTC
    cache = getattr(getattr(user, "_state", None), "fields_cache", {})
    if "profile" in cache:
        name = getattr(cache["profile"], "time_zone", "") or ""
        return ZoneInfo(name) if valid_zone(name) else UTC
    return zone_of(user)


def fmt_deadline(when: datetime | None, user=None) -> str:
    """The deadline in the reader's time zone with UTC beside (UTC alone for readers
    who chose none), as the pages show it."""
    return format_deadline(when, zone_for(user))


def headers_for(kind: str, user, *, auto: str = "auto-generated") -> tuple[dict[str, str], str]:
    """(headers, unsubscribe url or "") for a mail of `kind` to `user` (None = no account)."""
    headers = {"Auto-Submitted": auto, "X-Auto-Response-Suppress": "All"}
    url = ""
    if user is not None:
        url = unsubscribe_url(user, kind)
        headers["List-Unsubscribe"] = f"<{url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return headers, url


def thread_root(game_id: int) -> str:
    """The Message-ID every notice of a game answers (In-Reply-To, References), so a
    mail client shows a game's notices, and the replies and receipts under them, as one
    thread, and each game as its own. No mail carries this id itself: clients thread
    under a root they never received (Thunderbird draws an empty root, Gmail and Apple
    Mail go by References and the subject)."""
    domain = getattr(settings, "GM_MAIL_DOMAIN", "localhost")
    return f"<game-{game_id}@{domain}>"


def list_id(game) -> str:
    """RFC 2919 List-Id of a game's notices: filters sort a game's mail by it. The
    phrase is the title when it is plain ASCII (a non-ASCII phrase would have the whole
    header encoded, id included, where filters no longer read it), else "game N"."""
    domain = getattr(settings, "GM_MAIL_DOMAIN", "localhost")
    title = header_value(game.title, 60)
    phrase = title if title.isascii() and title and not re.search(r'["\\<>]', title) \
        else f"game {game.pk}"
    return f'"{phrase}" <game-{game.pk}.{domain}>'


def footer(kind_label: str, unsubscribe: str) -> str:
    """templates/mail/footer.txt, written out (it goes on every receipt and notice;
    tests/gm/mail/test_receipt_text.py holds the two to the same text)."""
    return (f"-- \nYou get these mails because you play on this server; this kind:\n"
            f"{kind_label}.\n"
            f"Stop them: {unsubscribe}\nAll mail settings: {site_url('/mail/preferences/')}\n")
