"""The client's address, the one key that login throttling and rate limits count by.

Behind nginx every request comes from 127.0.0.1, so with GM_PROXY_COUNT proxies in front
the address is read from X-Forwarded-For, that many entries from the right (the entries a
client writes itself are further left and are ignored). Without proxies: REMOTE_ADDR.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    count = getattr(settings, "GM_PROXY_COUNT", 0)
    if count > 0:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
                if h.strip()]
        if len(hops) >= count:
            return hops[-count]
    return request.META.get("REMOTE_ADDR") or "unknown"
