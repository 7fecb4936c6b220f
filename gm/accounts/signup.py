"""Sign-up that does not tell anyone whether an address has an account.

Whatever address is given, the sign-up page answers the same way: "we sent a mail to
that address". A new address gets its account (unconfirmed) and the confirmation link; an
address that already has an account gets no second one: its owner is told that someone
tried to sign up with it, with a link to set a new password in case it was them. The
page never logs the new account in (that alone would tell the two cases apart); the
person logs in with the password they just chose.

The address is unique case-insensitively in the database too (migration 0003), so two
sign-ups racing with one address end in the second being treated as "already has an
account", never in two accounts.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from . import confirmation

log = logging.getLogger(__name__)


def owner_of(email: str):
    """The account that uses `email` (any case), or None."""
    return get_user_model().objects.filter(email__iexact=email.strip()).first()


def reset_url(user) -> str:
    """A link that lets `user` choose a new password (Django's reset token)."""
    path = reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user)})
    return settings.SITE_URL.rstrip("/") + path


def tell_the_owner(user) -> bool:
    """Mail the owner of an address that someone tried to sign up with it."""
    body = (f"Hello {user.username},\n\nsomeone (perhaps you) tried to create a new account "
            f"with this address ({user.email}). It already belongs to your account, so no "
            "second account was made.\n\nIf it was you and you have forgotten your password, "
            f"choose a new one here:\n\n{reset_url(user)}\n\nYour username is "
            f"{user.username}. If it was not you, ignore this mail: nothing has changed.\n")
    try:
        send_mail("Someone tried to sign up with your address", body,
                  settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception:  # noqa: BLE001 - any mail failure: logged; the page says the same
        log.exception("could not tell user %s about a sign-up with their address", user.pk)
        return False
    return True


def register(form) -> None:
    """Act on a valid SignupForm: a new account, or a note to the address's owner."""
    owner = owner_of(form.cleaned_data["email"])
    if owner is None:
        try:
            with transaction.atomic():
                user = form.save()
                confirmation.mark_unconfirmed(user)
        except IntegrityError:  # the same address signed up a moment ago (unique index)
            owner = owner_of(form.cleaned_data["email"])
            if owner is None:
                raise
        else:
            confirmation.send_confirmation(user)
            return
    # The same work as a new account (hashing the password), so time tells nothing either.
    make_password(form.cleaned_data.get("password1") or "")
    tell_the_owner(owner)
