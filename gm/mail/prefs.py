"""Per-user notice switches and the signed unsubscribe links that flip them.

A link carries (user id, kind) signed with the project's SECRET_KEY, so it works without
logging in (one click from a mail, RFC 8058) and cannot be forged for someone else.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.core import signing
from django.urls import get_script_prefix, get_urlconf, reverse

from gm.accounts.confirmation import email_confirmed

from .models import Kind, MailPreference

_SALT = "gm.mail.unsubscribe"


def confirmed(user) -> bool:
    """Whether mail may go to the user's address and count as theirs: the account's
    `gm.accounts.confirmation.email_confirmed`, read from the profile already loaded with
    the user when there is one (the inbound path selects it with the seat), so the hot
    path spends no query on it."""
    cache = getattr(getattr(user, "_state", None), "fields_cache", {})
    if user is not None and "profile" in cache:
        if not (getattr(user, "is_active", False) and user.email):
            return False
        flag = getattr(cache["profile"], "email_confirmed", None)  # no profile: confirmed
        return flag is None or bool(flag)
    return email_confirmed(user)


Switches = dict[tuple[int, str], bool]


def wants(user, kind: str, known: Switches | None = None) -> bool:
    """Whether `user` gets mail of `kind` (on unless switched off). `known`: the user's
    switches read beforehand, {(user id, kind): enabled} (a batch of notices reads every
    seat's at once: gm.mail.notice_rows.active_seats), so no query here then."""
    if not confirmed(user):
        return False
    if known is not None:
        return known.get((user.pk, kind), True)
    pref = MailPreference.objects.filter(user=user, kind=kind).values_list("enabled",
                                                                           flat=True).first()
    return True if pref is None else pref


def set_pref(user, kind: str, enabled: bool) -> MailPreference:
    if kind not in Kind.values:
        raise ValueError(f"unknown notice kind {kind!r}")
    pref, _ = MailPreference.objects.update_or_create(user=user, kind=kind,
                                                      defaults={"enabled": enabled})
    return pref


def prefs_for(user) -> dict[str, bool]:
    stored = dict(MailPreference.objects.filter(user=user).values_list("kind", "enabled"))
    return {kind: stored.get(kind, True) for kind in Kind.values}


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=_SALT, compress=True)


def read_token(token: str) -> tuple[int, str]:
    """(user id, kind) of a token; raises signing.BadSignature when forged or mangled."""
    data = signing.loads(token, salt=_SALT)
    if not isinstance(data, dict) or data.get("k") not in Kind.values:
        raise signing.BadSignature("not an unsubscribe token")
    return int(data["u"]), str(data["k"])


def unsubscribe_url(user, kind: str) -> str:
    """The one-click link for `user` and `kind`. Signed once per process for each user,
    kind, key and site (signing is a JSON dump, a zlib pass and salted HMACs: a third of
    a receipt's CPU when done per mail); the token's timestamp is never checked
    (`read_token` takes no max_age), so a link signed earlier is as good."""
    return _unsubscribe_url(user.pk, kind, settings.SECRET_KEY, settings.SITE_URL.rstrip("/"),
                            get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=8192)
def _unsubscribe_url(user_id: int, kind: str, _key: str, site: str, _prefix: str,
                     urlconf: str | None) -> str:
    token = signing.dumps({"u": user_id, "k": kind}, salt=_SALT, compress=True)
    return site + reverse("mail-unsubscribe", args=[token], urlconf=urlconf)
