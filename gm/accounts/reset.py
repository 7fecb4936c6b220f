"""Choosing a new password without losing the page it was asked from (`next`).

A player who forgot their password on a game's page asks for the link there; the page to
come back to rides along in the mailed link (`?next=`, a path of this site only:
nextpage.same_site_path), is kept in the session while Django's view swaps the token out
of the address, and ends on the "password saved" page's Log in link, which returns to it.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.http import HttpRequest
from django.utils.http import urlencode

from .nextpage import same_site_path

SESSION_KEY = "gm_password_reset_next"


def _next(request: HttpRequest) -> str:
    return same_site_path(request, request.POST.get("next") or request.GET.get("next"))


def with_next(url: str, nxt: str) -> str:
    return f"{url}?{urlencode({'next': nxt})}" if nxt else url


class ResetView(auth_views.PasswordResetView):
    """The "forgot your password?" form: the mail's link carries `next`."""

    success_url = "/password-reset/sent/"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "next": _next(self.request)}

    def form_valid(self, form):
        self.extra_email_context = {"next": _next(self.request)}
        return super().form_valid(form)


class ResetConfirmView(auth_views.PasswordResetConfirmView):
    """The mailed link: `next` is kept in the session across Django's redirect to the
    token-less address, and handed on to the "password saved" page."""

    def dispatch(self, request, *args, **kwargs):
        nxt = same_site_path(request, request.GET.get("next"))
        if nxt:
            request.session[SESSION_KEY] = nxt
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs),
                "next": same_site_path(self.request, self.request.session.get(SESSION_KEY))}

    def form_valid(self, form):
        """The new password ends the old one's API tokens too, as it ends its sessions."""
        from . import tokens

        response = super().form_valid(form)
        tokens.revoke_all(form.user)
        return response

    def get_success_url(self) -> str:
        nxt = same_site_path(self.request, self.request.session.pop(SESSION_KEY, ""))
        return with_next("/password-reset/done/", nxt)


class ResetCompleteView(auth_views.PasswordResetCompleteView):
    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "next": _next(self.request)}
