"""A fixed-window counter in the cache: "at most N of this per window, per key".

Used for self-service sign-up (per address). The cache must be shared by every web
process for the limit to be global (CACHE_URL=redis://..., see deploy/README.md).
"""

from __future__ import annotations

import time

from django.core.cache import cache


def hit(scope: str, key: str, limit: int, window: int) -> int | None:
    """Count one event; None if within the limit, else the seconds until the window ends."""
    now = int(time.time())
    start = now - now % window
    name = f"rl:{scope}:{key}:{start}"
    cache.add(name, 0, timeout=window + 5)
    try:
        count = cache.incr(name)
    except ValueError:  # evicted between add and incr: count this one as the first
        cache.set(name, 1, timeout=window + 5)
        count = 1
    if count > limit:
        return max(1, start + window - now)
    return None


def peek(scope: str, key: str, limit: int, window: int) -> int | None:
    """Like `hit` without counting: would the next event be refused?"""
    now = int(time.time())
    start = now - now % window
    count = cache.get(f"rl:{scope}:{key}:{start}", 0)
    return max(1, start + window - now) if count >= limit else None
