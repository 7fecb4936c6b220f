"""Provider inbound webhooks: only the enabled ones exist, and only with their secret.

django-anymail's own URLconf mounts every provider's webhook, and a provider with no
WEBHOOK_SECRET (basic auth) and no signing key takes anonymous posts: anyone could post
a mail "From: <player>" to a seat's reply address and have it read as orders, past the
Authentication-Results check that only our own mail server's headers feed. So:

* `GM_MAIL_WEBHOOKS` lists the enabled providers (anymail's URL names: "mailgun",
  "postmark", "sendgrid", "amazon_ses", ...); default none. Any other /mail/anymail/ URL
  is a 404, and so is every tracking webhook (nothing here reads them).
* an enabled provider needs its secret: ANYMAIL["WEBHOOK_SECRET"] ("user:password", sent
  as basic auth in the webhook URL), or the signing key of a provider whose posts are
  signed (e.g. MAILGUN_WEBHOOK_SIGNING_KEY). Without one the webhook refuses every post
  (403) before anything is stored, and `manage.py check` reports gm.E001; anymail then
  checks the secret itself and refuses a wrong one with 400, also before any row.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.urls import URLPattern
from django.views.decorators.csrf import csrf_exempt


@dataclass(frozen=True)
class Hook:
    provider: str
    pattern: URLPattern


def inbound_hooks() -> dict[str, list[Hook]]:
    """anymail's inbound webhook URLs by provider (the first segment of each route)."""
    from anymail import urls as anymail_urls

    found: dict[str, list[Hook]] = {}
    for pattern in anymail_urls.urlpatterns:
        if not (pattern.name or "").endswith("_inbound_webhook"):
            continue
        provider = pattern.name.removesuffix("_inbound_webhook")
        found.setdefault(provider, []).append(Hook(provider, pattern))
    return found


def enabled() -> list[str]:
    return [str(p).strip().lower() for p in getattr(settings, "GM_MAIL_WEBHOOKS", []) or []
            if str(p).strip()]


def problem(provider: str) -> str:
    """Why `provider`'s inbound webhook would take unauthenticated posts ("" if it would not)."""
    hooks = inbound_hooks().get(provider)
    if not hooks:
        return (f"no inbound webhook is known for {provider!r} (known: "
                f"{', '.join(sorted(inbound_hooks()))})")
    view_class = hooks[0].pattern.callback.view_class
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # anymail's "insecure webhook" warning: we refuse
        try:
            view = view_class()
        except ImproperlyConfigured as exc:
            return f"its webhook is not configured: {exc}".splitlines()[0]
    if getattr(view, "basic_auth", None):
        return ""
    if not getattr(view, "warn_if_no_basic_auth", True):
        return ""  # posts are checked against the provider's signing key
    return ("no secret: set ANYMAIL's WEBHOOK_SECRET (\"user:password\") and give the "
            "provider the webhook URL with those credentials")


@csrf_exempt
def inbound(request: HttpRequest, rest: str) -> HttpResponse:
    """/mail/anymail/<rest>: the enabled provider's anymail view, or 404 / 403."""
    provider = rest.split("/", 1)[0].lower()
    if provider not in enabled():
        raise Http404("no such webhook")
    for hook in inbound_hooks().get(provider, []):
        match = hook.pattern.resolve(rest)
        if match is not None:
            break
    else:
        raise Http404("no such webhook")
    if problem(provider):
        return HttpResponseForbidden(
            "This webhook has no secret configured and refuses every post.\n",
            content_type="text/plain")
    return match.func(request, *match.args, **match.kwargs)
