"""The one rule for a page to come back to (`next`): a path of this site, nothing else.

Used by every form that sends its reader on afterwards (sign-up and its mailed link, the
time-zone form). Another site, a scheme-relative `//host` or `/\\host`, a bare word (which
`redirect()` would try as a URL name) and a `javascript:` URL are all refused.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def same_site_path(request: HttpRequest, url: str | None) -> str:
    """`url` if it is a path of this site, else ""."""
    if not url or not url.startswith("/"):
        return ""
    if not url_has_allowed_host_and_scheme(url, {request.get_host()},
                                           require_https=request.is_secure()):
        return ""
    return url
