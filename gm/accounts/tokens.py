"""API tokens that expire and can be revoked (DRF's own token has neither).

`POST /api/token/` issues a new token (the key is shown once); `Authorization: Token <key>`
authenticates with it until it expires (GM_API_TOKEN_DAYS) or its owner revokes it on
/account/. Only the key's SHA-256 is stored.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from .models import ApiToken, token_digest

KEYWORD = "Token"
TOUCH_EVERY = timedelta(minutes=1)  # last_used is written at most this often per token


def issue(user, label: str = "") -> tuple[ApiToken, str]:
    """A new token for `user` and its key; the oldest live ones beyond the cap are revoked."""
    now = timezone.now()
    key = secrets.token_hex(20)
    token = ApiToken.objects.create(
        user=user, digest=token_digest(key), prefix=key[:8], label=label[:80],
        expires=now + timedelta(days=settings.GM_API_TOKEN_DAYS))
    ApiToken.objects.filter(user=user, expires__lte=now).delete()
    keep = ApiToken.objects.filter(user=user).order_by("-created").values_list(
        "pk", flat=True)[:settings.GM_API_TOKENS_PER_USER]
    ApiToken.objects.filter(user=user).exclude(pk__in=list(keep)).delete()
    return token, key


def live_tokens(user) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, expires__gt=timezone.now()))


def revoke_all(user) -> int:
    """Delete every token of `user` (a password reset: whoever held the old password may
    have made tokens with it, and a token would outlive the reset by up to 90 days)."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def revoke(user, token_id: int) -> bool:
    """Delete one of `user`'s tokens; False if there was no such token of theirs."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


class ApiTokenAuthentication(BaseAuthentication):
    """`Authorization: Token <key>` for an unexpired, unrevoked ApiToken of an active user."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "send the header as 'Authorization: Token <key>' (one key, no spaces)")
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("an API token is plain hexadecimal") from None
        token = ApiToken.objects.select_related("user").filter(
            digest=token_digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed(
                "unknown or revoked API token; get a new one with POST /api/token/")
        now = timezone.now()
        if token.expires <= now:
            raise exceptions.AuthenticationFailed(
                f"this API token expired on {token.expires:%Y-%m-%d %H:%M} UTC; get a new one "
                "with POST /api/token/")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("this account is disabled")
        if token.last_used is None or now - token.last_used > TOUCH_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        return token.user, token

    def authenticate_header(self, request) -> str:
        return KEYWORD


try:  # describe the scheme in the OpenAPI document (/api/schema/)
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    class ApiTokenScheme(OpenApiAuthenticationExtension):
        target_class = "gm.accounts.tokens.ApiTokenAuthentication"
        name = "tokenAuth"

        def get_security_definition(self, auto_schema):
            return {"type": "apiKey", "in": "header", "name": "Authorization",
                    "description": 'Token-based authentication: "Token <key>" with a key '
                                   "from POST /api/token/ (expires; revocable on /account/)"}
except ImportError:  # pragma: no cover - drf-spectacular is a runtime dependency
    pass
