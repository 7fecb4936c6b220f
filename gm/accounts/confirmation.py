"""E-mail confirmation: an address receives mail, and is read as a seat's sender, only
once its owner has shown they read it.

Only accounts made by the former self-service sign-up, which created the account before
its address was confirmed, can be unconfirmed (their Profile says so); today's sign-up
(gm.accounts.signup) creates the account from the mailed link, so it starts confirmed.
Users made by an admin, a fixture, `createsuperuser` or `manage.py demo` have no such
flag and count as confirmed. The link carries a signed (user, address) pair with a timestamp, so nothing is
stored for it, it dies after GM_CONFIRM_DAYS and it is void once the address changes.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.urls import reverse

from .models import Profile

log = logging.getLogger(__name__)
SALT = "gm.accounts.confirm-email"


class ConfirmationError(ValueError):
    """A confirmation link that is bad, expired or for an address no longer in use."""


def email_confirmed(user) -> bool:
    """May mail go to `user.email`, and may mail from it count as this user's?

    The one check the mail code makes (outbound notices and inbound sender matching).
    """
    if user is None or not getattr(user, "is_active", False) or not user.email:
        return False
    flag = Profile.objects.filter(user_id=user.pk).values_list("email_confirmed",
                                                               flat=True).first()
    return flag is None or flag


def mark_unconfirmed(user) -> None:
    Profile.objects.update_or_create(user=user, defaults={"email_confirmed": False})


def make_token(user) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.lower()}, salt=SALT, compress=True)


def confirm_url(user) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("account-confirm",
                                                   kwargs={"token": make_token(user)})


def confirm(token: str):
    """Mark the address in `token` confirmed and return its user; ConfirmationError if not."""
    from django.contrib.auth import get_user_model

    try:
        data = signing.loads(token, salt=SALT, max_age=settings.GM_CONFIRM_DAYS * 86400)
    except signing.SignatureExpired:
        raise ConfirmationError("this confirmation link has expired; ask for a new one on "
                                "your account page") from None
    except signing.BadSignature:
        raise ConfirmationError("this confirmation link is not valid (copy the whole link "
                                "from the mail)") from None
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None or user.email.lower() != data.get("e"):
        raise ConfirmationError("this link is for an address the account no longer uses")
    Profile.objects.update_or_create(user=user, defaults={"email_confirmed": True})
    return user


def send_confirmation(user) -> bool:
    """Mail the confirmation link to the (unconfirmed) address; False if sending failed."""
    body = (f"Hello {user.username},\n\nopen this link to confirm that {user.email} is "
            f"yours:\n\n{confirm_url(user)}\n\nUntil then no game mail goes to this address "
            "and orders sent from it are not read. The link works for "
            f"{settings.GM_CONFIRM_DAYS} days. If you did not sign up, ignore this mail.\n")
    try:
        send_mail("Confirm your e-mail address", body, settings.DEFAULT_FROM_EMAIL,
                  [user.email])
    except Exception:  # noqa: BLE001 - any mail failure: the page says so, sign-up stands
        log.exception("could not send the confirmation mail to user %s", user.pk)
        return False
    return True
