"""`{% come_back_to as back %}`: the page the header's Log in / Sign up links return to.

On an ordinary page that is the page itself; on the account pages (log in, sign up,
password reset) it is the `next` they were opened with, so following "Sign up" from the
log-in page of a game still leads back to the game. Always a path of this site
(nextpage.same_site_path), never the lobby (the default anyway).
"""

from __future__ import annotations

from django import template

from ..nextpage import same_site_path

register = template.Library()

# Pages that are a step on the way somewhere, never a place to come back to.
ACCOUNT_PAGES = ("/login/", "/logout/", "/signup/", "/password-reset/")


@register.simple_tag(takes_context=True)
def come_back_to(context) -> str:
    request = context.get("request")
    if request is None:
        return ""
    if request.path.startswith(ACCOUNT_PAGES):
        back = same_site_path(request, request.GET.get("next"))
    else:
        back = same_site_path(request, request.get_full_path())
    return "" if back == "/" else back
