"""The client's address, the one key that login throttling and rate limits count by.

Behind nginx every request comes from 127.0.0.1, so with GM_PROXY_COUNT proxies in front
the address is read from X-Forwarded-For, that many entries from the right (the entries a
client writes itself are further left and are ignored). Without proxies: REMOTE_ADDR.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

# Stored in IP address columns (django-axes' logs): PostgreSQL refuses anything else, so
# a request without a usable address (the test client's force_login, a broken proxy
# header) counts under this one placeholder instead of failing the log-in.
UNKNOWN = "0.0.0.0"


def _valid(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    count = getattr(settings, "GM_PROXY_COUNT", 0)
    if count > 0:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
                if h.strip()]
        if len(hops) >= count and (hop := _valid(hops[-count])):
            return hop
    return _valid(request.META.get("REMOTE_ADDR") or "") or UNKNOWN
