"""Every route of the URLconf, and how a reader probes it for leaks.

The no-leak test (tests/gm/play/test_no_leak_e2e.py) asks every route a player, an
outsider or an anonymous visitor can reach, with every method it answers, and compares
the answers before and after a change of what that reader may not see. The routes are
read from the URLconf itself (`patterns()`), and `test_every_route_is_probed_or_excused`
fails on a route that is in neither table below: a new route cannot be forgotten.

* `PROBES`: route pattern -> the requests made of it, each "METHOD[?query]"; a POST or
  DELETE sends the route's body from `BODIES` (or none) and must be refused, or change
  nothing (the test's changes are undone either way);
* `EXCUSED`: route pattern (or a prefix ending in "/") -> why it is not asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

_API_READ = ("GET", "OPTIONS", "GET?format=api")

PROBES: dict[str, tuple[str, ...]] = {
    # pages that list games or the reader's own seats
    "": ("GET",),
    "api/games/": ("GET", "GET?status=running", "GET?status=finished", "OPTIONS",
                   "GET?format=api"),
    "account/": ("GET",),
    "mail/preferences/": ("GET",),
    "referee/opinions/": ("GET",),
    "api/referee/opinions/": ("GET",),
    "admin/": ("GET",),
    "admin/gm_mail/outbox/": ("GET",),
    # the game's pages
    "games/<int:pk>/": ("GET",),
    "games/<int:pk>/invite/": ("GET",),
    "games/<int:pk>/join/": ("POST",),
    "games/<int:pk>/start/": ("POST",),
    "games/<int:pk>/orders/": ("POST",),
    "games/<int:pk>/orders/preview.json": ("POST", "POST:other"),
    "games/<int:pk>/thread/": ("POST",),
    "games/<int:pk>/press/": ("POST",),
    "games/<int:pk>/live.json": ("GET",),
    "games/<int:pk>/export.json": ("GET", "HEAD"),
    "games/<int:pk>/turns/<int:number>/": ("GET", "GET:setup", "GET:open"),
    "games/<int:pk>/turns/<int:number>/set-aside/<int:version>/": ("GET",),  # newcomer
    "games/<int:pk>/feed/": ("GET",),
    "games/<int:pk>/log/": ("GET",),
    "games/<int:pk>/disputes/": ("GET",),
    "games/<int:pk>/disputes/<int:dispute_id>/": ("GET",),
    # the GM's desk, asked by someone who is not a GM
    "games/<int:pk>/gm/": ("GET",),
    "games/<int:pk>/gm/amend/": ("GET", "POST"),
    "games/<int:pk>/gm/turns/<int:number>/": ("GET", "GET:open"),
    "games/<int:pk>/gm/do/<slug:name>/": ("POST",),
    # the API
    "api/games/<int:pk>/": ("GET", "HEAD", "OPTIONS", "GET?format=api", "GET?format=json"),
    "api/games/<int:pk>/seats/": ("POST",),
    "api/games/<int:pk>/start/": ("POST",),
    "api/games/<int:pk>/orders/": ("GET", "OPTIONS", "GET?format=api", "POST", "POST:other",
                                   "DELETE?turn=999"),
    "api/games/<int:pk>/reports/": (*_API_READ, "GET?after=1&limit=1", "GET?limit=0"),
    "api/games/<int:pk>/reports/<int:number>/": ("GET", "GET:open", "GET:setup"),
    "api/games/<int:pk>/export/": ("GET", "OPTIONS"),
    "api/games/<int:pk>/thread/": (*_API_READ, "POST"),
    "api/games/<int:pk>/gm/": ("GET", "OPTIONS"),
    "api/games/<int:pk>/gm/fields/": ("GET",),
    # issue 27: the adjudication desk of a GM-adjudicated game, asked by a non-GM
    "games/<int:pk>/adjudicate/": ("GET", "POST"),
    "api/games/<int:pk>/gm/adjudication/": ("GET", "OPTIONS", "POST"),
    "api/games/<int:pk>/gm/turns/<int:number>/": ("GET", "GET:open"),
    "api/games/<int:pk>/gm/pause/": ("POST",),
    "api/games/<int:pk>/gm/resume/": ("POST",),
    "api/games/<int:pk>/gm/extend/": ("POST",),
    "api/games/<int:pk>/gm/force/": ("POST",),
    "api/games/<int:pk>/gm/hold/": ("POST",),
    "api/games/<int:pk>/gm/release/": ("POST",),
    "api/games/<int:pk>/gm/amend/": ("POST",),
    "api/games/<int:pk>/gm/orders/": ("POST",),
    "api/games/<int:pk>/gm/dice/": ("POST",),
    "api/games/<int:pk>/gm/rerun/": ("POST",),
    "api/games/<int:pk>/gm/rollback/": ("POST",),
    "api/games/<int:pk>/gm/seats/<str:name>/": ("POST",),
    "api/games/<int:pk>/gm/co-gms/": ("POST",),
    "api/games/<int:pk>/gm/disputes/<int:dispute_id>/rule/": ("POST",),
    "api/games/<int:pk>/disputes/": (*_API_READ, "POST"),
    "api/games/<int:pk>/disputes/<int:dispute_id>/": ("GET", "OPTIONS"),
    "api/games/<int:pk>/disputes/<int:dispute_id>/second-opinion/": ("POST",),
    "api/games/<int:pk>/disputes/<int:dispute_id>/opinion/": ("POST",),
    "api/games/<int:pk>/log/": _API_READ,
    # gm.notify (issue 26): the reader's own settings and feed; a game's deadline hour and
    # webhooks (GM only: refused to others)
    "account/notifications/": ("GET",),
    "api/notify/settings/": ("GET",),
    "api/notify/feed/": ("GET",),
    "api/notify/webhooks/": ("GET",),
    "games/<int:pk>/notifications/": ("GET", "POST"),
    "api/games/<int:pk>/webhooks/": ("GET", "POST"),
    "api/games/<int:pk>/schedule/": ("GET",),
    # --- issue 25: substitutes (gm.substitutes) ---
    "substitutes/": ("GET",),
    "games/<int:pk>/leave/": ("GET", "POST"),
    "games/<int:pk>/seats/": ("GET",),
    "games/<int:pk>/seats/policy/": ("POST",),
    "games/<int:pk>/seats/offer/": ("POST",),
    "games/<int:pk>/briefing/": ("GET",),
    "api/substitutes/offers/": ("GET", "OPTIONS"),
    "api/games/<int:pk>/leave/": ("POST",),
    "api/games/<int:pk>/seats/history/": ("GET", "OPTIONS"),
    "api/games/<int:pk>/briefing/": ("GET", "OPTIONS"),
    "api/games/<int:pk>/gm/seat-policy/": ("GET", "POST"),
    "api/games/<int:pk>/gm/seat-offers/": ("POST",),
    # --- end issue 25 ---
    # gm.absence: the game's absence rules, who is away, the reader's own choices
    "games/<int:pk>/absence/": ("GET",),
    "games/<int:pk>/absence/mine/": ("POST",),
    "games/<int:pk>/absence/settings/": ("POST",),
    "api/games/<int:pk>/absence/": _API_READ,
    "api/games/<int:pk>/absence/mine/": ("POST",),
}

# The bodies of the POSTs: each is refused for a reader who is not a GM, or is a
# refusal whatever the reader (a body that cannot be accepted), so asking changes nothing.
BODIES: dict[str, dict[str, Any]] = {
    "games/<int:pk>/orders/": {"text": "", "turn": "1"},
    "games/<int:pk>/thread/": {"markdown": ""},
    "games/<int:pk>/press/": {"recipient": "nobody", "text": ""},
    "games/<int:pk>/gm/amend/": {"reason": "probe", "path": "x", "value": "1"},
    "games/<int:pk>/gm/do/<slug:name>/": {"reason": "probe"},
    "api/games/<int:pk>/thread/": {"markdown": 5},
    "api/games/<int:pk>/disputes/": {"turn": 999, "text": "probe"},
    "api/games/<int:pk>/gm/orders/": {"reason": "probe", "seat": "x", "text": "x"},
    "api/games/<int:pk>/gm/rerun/": {"reason": "probe", "turn": 1},
    "api/games/<int:pk>/gm/rollback/": {"reason": "probe", "turn": 1},
    "games/<int:pk>/absence/mine/": {"away_choice": "probe"},
    "games/<int:pk>/absence/settings/": {"grace_count": "probe"},
    "api/games/<int:pk>/absence/mine/": {"away_choice": "probe"},
    "games/<int:pk>/adjudicate/": {"do": "publish", "text": "probe"},
    "api/games/<int:pk>/gm/adjudication/": {"action": "preview", "text": "probe"},
    "games/<int:pk>/notifications/": {"what": "schedule", "hour": "20"},
    "api/games/<int:pk>/webhooks/": {"url": "https://example.org/probe"},
}

_STATIC = "built from the code and settings, not from any game or user"
_TOKEN = "answers about a secret token sent by mail to its owner, never about a game"
_ACCOUNT = "the reader's own account; it holds nothing of any game"
EXCUSED: dict[str, str] = {
    "admin/": "the admin's own login guards all of it alike (staff only): /admin/ and the "
              "list of mail sent are probed",
    "mail/anymail/": "provider webhooks: POST only, refused without the provider's secret, "
                     "and they answer nothing of a game (tests/gm/mail)",
    "favicon.ico": _STATIC,
    "api/schema/": _STATIC,
    "api/docs/": _STATIC,
    "api/rulesets/": _STATIC,
    "rules/": _STATIC,
    "rules/<str:ruleset>/": "a sample game the page sets up itself, not a stored one",
    "rules/<str:ruleset>/readme/": "a sample game the page sets up itself, not a stored one",
    "help/": "docs/players.md, the same for everyone",
    "help/gm/": "docs/gm.md, the same for everyone",
    "help/absence/": "docs/absence.md, the same for everyone",
    "help/substitutes/": "docs/substitutes.md, the same for everyone",
    "help/notifications/": "docs/notifications.md, the same for everyone",
    "help/gm-adjudicated/": "docs/gm-adjudicated.md, the same for everyone",
    "games/new/": _STATIC,
    "games/new/<str:ruleset>/": _STATIC,
    "login/": _STATIC,
    "logout/": "ends the reader's session (the probes need it)",
    "settings/time-zone/": _ACCOUNT,
    "api/token/": "answers a token for the reader's own password, nothing of a game",
    "api/verify/": "verifies the export it is sent; it reads no stored game",
    "verify/": "verifies the export it is sent; it reads no stored game",
    "signup/": _STATIC,
    "signup/sent/": _STATIC,
    "signup/c/<str:token>/": _TOKEN,
    "signup/confirm/<str:token>/": _TOKEN,
    "password-reset/": "answers the same page for any address (tests/gm/accounts)",
    "password-reset/sent/": _STATIC,
    "password-reset/<uidb64>/<token>/": _TOKEN,
    "password-reset/done/": _STATIC,
    "account/confirm/<str:token>/": _TOKEN,
    "account/confirm-again/": _ACCOUNT,
    "account/tokens/": _ACCOUNT,
    "account/tokens/<int:token_id>/revoke/": _ACCOUNT,
    "mail/unsubscribe/<str:token>/": _TOKEN,
    "api/notify/webhooks/<int:hook_id>/": "DELETE of the reader's own webhook; another's "
                                          "is refused (tests/gm/notify/test_pages_api.py)",
    "api/notify/proposal/": "computed from the time zones in its query, no stored game",
    # --- issue 25: substitutes ---
    "account/substitute/": _ACCOUNT,
    "api/substitutes/volunteer/": _ACCOUNT,
    "substitutes/offers/<int:offer_id>/accept/": "POST only: takes an offered seat; no game "
                                                 "has an offer here (tests/gm/substitutes)",
    "api/substitutes/offers/<int:offer_id>/accept/": "POST only: takes an offered seat; no "
                                                     "game has an offer here",
    "games/<int:pk>/seats/offers/<int:offer_id>/<str:what>/": "GM acts on an offer, refused "
                                                              "to every other reader",
    "api/games/<int:pk>/gm/seat-offers/<int:offer_id>/<str:what>/": "GM acts on an offer, "
                                                                    "refused to others",
    "players/<str:username>/": "a player's counts over all games (deadlines met, misses), "
                               "no game's content (tests/gm/substitutes)",
    "api/players/<str:username>/record/": "the same counts as JSON",
    # --- end issue 25 ---
    "account/vacations/": _ACCOUNT,
    "account/vacations/<int:pk>/cancel/": _ACCOUNT,
    "api/me/vacations/": _ACCOUNT,
    "api/me/vacations/<int:vid>/": _ACCOUNT,
}


def patterns() -> Iterator[str]:
    """Every route of the URLconf, as its full pattern ("games/<int:pk>/turns/<int:number>/")."""

    def walk(found, prefix: str) -> Iterator[str]:
        for item in found:
            if isinstance(item, URLResolver):
                yield from walk(item.url_patterns, prefix + str(item.pattern))
            elif isinstance(item, URLPattern):
                yield prefix + str(item.pattern)

    yield from walk(get_resolver().url_patterns, "")


def excused(route: str) -> str | None:
    if route in EXCUSED:
        return EXCUSED[route]
    for prefix, why in EXCUSED.items():
        if prefix.endswith("/") and route.startswith(prefix) and route not in PROBES:
            return why
    return None


def unclassified() -> list[str]:
    """Routes of the URLconf in neither table: each needs probes or a reason."""
    return [r for r in patterns() if r not in PROBES and excused(r) is None]


def stale() -> list[str]:
    """Probed routes that the URLconf no longer has."""
    known = set(patterns())
    return [r for r in PROBES if r not in known]


def fill(route: str, values: dict[str, Any]) -> str:
    """The route's path with its parameters from `values` (by parameter name)."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)
