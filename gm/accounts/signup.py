"""Sign-up that tells nobody whether an address, or a username, has an account.

A sign-up creates nothing. It mails the address, and the page always answers the same
("check your mail"), whatever exists:

- an address with no account gets a short link (`/signup/c/<token>/`): the sign-up
  (username, address, page to come back to) waits on the server under a random token
  (gm.accounts.pending), which dies after GM_CONFIRM_DAYS and makes one account at most.
  The former link carried the sign-up itself, signed with its time
  (`/signup/confirm/<signed>/`, some 150 characters, issue 28); links mailed before the
  change keep working until they expire (`read_token`). Opening it shows a form: whoever reads the
  mailbox chooses the password there (a password typed by someone signing up with another
  person's address never becomes a way into an account on it), may change the username,
  and the account is created, confirmed and logged in by that form;
- an address that already has an account gets no link: its owner is told that someone
  tried to sign up with it, with their username and a link to choose a new password.

Since nothing is created before the link is opened, nothing reserves a username or an
address: an attacker cannot learn whether an address has an account by signing up with
it and then trying the same username again. A username taken by the time the link is
opened (by an older account, or by another sign-up confirmed first) is said on the form,
which asks for another. The unique indexes (username; LOWER(email), migration 0003)
settle two confirmations racing: the second is told why and what to do.

Mail to one address is capped (GM_SIGNUP_LIMIT per GM_SIGNUP_WINDOW, on top of the limit
per client address), silently, so that the page does not change either.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlencode, urlsafe_base64_encode

from . import pending, ratelimit

log = logging.getLogger(__name__)
SALT = "gm.accounts.signup"


class SignupLinkError(ValueError):
    """A sign-up link that is forged, damaged or expired (`next`: an expired link's page to
    come back to, authentic but old, for its "sign up again" link)."""

    def __init__(self, message: str, next_url: str = ""):
        super().__init__(message)
        self.next = next_url


class LinkUsed(Exception):
    """The short link of a sign-up was spent meanwhile (another tab made its account)."""


class AddressTaken(Exception):
    """The address of a sign-up link has an account by now (made by this link or another)."""


def owner_of(email: str):
    """The account that uses `email` (any case), or None."""
    return get_user_model().objects.filter(email__iexact=email.strip()).first()


def reset_url(user, next_url: str = "") -> str:
    """A link that lets `user` choose a new password (Django's reset token), leading on
    to `next_url` (a path of this site, already checked) once it is chosen."""
    path = reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user)})
    if next_url:
        path += "?" + urlencode({"next": next_url})
    return settings.SITE_URL.rstrip("/") + path


def make_token(username: str, email: str, next_url: str = "") -> str:
    """The former, signed sign-up token (links mailed before the short ones; tests)."""
    return signing.dumps({"u": username, "e": email, "n": next_url}, salt=SALT, compress=True)


def read_token(token: str) -> dict:
    """{"username", "email", "next"} of a sign-up link; SignupLinkError if it is not good."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.GM_CONFIRM_DAYS * 86400)
    except signing.SignatureExpired:
        old = signing.loads(token, salt=SALT)  # signed by us, only too old
        raise SignupLinkError(
            f"this sign-up link has expired (links last {settings.GM_CONFIRM_DAYS} days): "
            "sign up again to get a new one",
            old.get("n", "") if isinstance(old, dict) and isinstance(old.get("n"), str)
            else "") from None
    except signing.BadSignature:
        raise SignupLinkError("this sign-up link is not valid (copy the whole link from "
                              "the mail, or sign up again)") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str)
                                             for k in ("u", "e", "n")):
        raise SignupLinkError("this sign-up link is not valid (sign up again)")
    return {"username": data["u"], "email": data["e"], "next": data["n"]}


def signed_url(username: str, email: str, next_url: str = "") -> str:
    """The former long link (`/signup/confirm/<signed>/`), still honoured until it expires."""
    return settings.SITE_URL.rstrip("/") + reverse(
        "signup-confirm", kwargs={"token": make_token(username, email, next_url)})


def link_url(token: str) -> str:
    """The mailed link of a pending sign-up: SITE_URL + /signup/c/<22 characters>/."""
    return settings.SITE_URL.rstrip("/") + reverse("signup-link", kwargs={"token": token})


def read_link(token: str) -> pending.Pending:
    """The pending sign-up of a short link; SignupLinkError (with the reason) if the link
    is unknown or expired. A used one is returned (`used`): the caller says what became
    of it."""
    try:
        return pending.read(token)
    except pending.PendingError as exc:
        if exc.kind == "expired":
            raise SignupLinkError(
                f"this sign-up link has expired (links last {settings.GM_CONFIRM_DAYS} "
                "days): sign up again to get a new one", exc.next) from None
        raise SignupLinkError(
            "this sign-up link is not valid, or so old that it is forgotten (copy the "
            "whole link from the mail, or sign up again)") from None


def _send(subject: str, body: str, to: str, what: str) -> bool:
    from gm.textwidth import wrap  # the one line-width rule of mail (72 columns)

    try:
        # within 72 columns; a link stays whole, on a line of its own (issue 28)
        send_mail(subject, wrap(body), settings.DEFAULT_FROM_EMAIL, [to])
    except Exception:  # noqa: BLE001 - any mail failure: logged; the page says the same
        log.exception("could not send the %s mail", what)
        return False
    return True


def tell_the_owner(user, next_url: str = "") -> bool:
    """Mail the owner of an address that someone tried to sign up with it."""
    body = (f"Hello {user.username},\n\nsomeone (perhaps you) tried to create a new account "
            f"with this address ({user.email}). It already belongs to your account, so no "
            "second account was made.\n\nIf it was you and you have forgotten your password, "
            f"choose a new one here:\n\n{reset_url(user, next_url)}\n\nYour username is "
            f"{user.username}. If it was not you, ignore this mail: nothing has changed.\n")
    return _send("Someone tried to sign up with your address", body, user.email,
                 f"'already has an account' (user {user.pk})")


def send_link(username: str, email: str, next_url: str = "") -> bool:
    """Mail the link that creates the account to an address that has none."""
    token = pending.create(username, email, next_url)
    body = (f"Hello,\n\nsomeone (we hope you) asked for an account named {username} with "
            f"this address ({email}). Open this link to choose your password and create "
            f"the account:\n\n{link_url(token)}\n\n"
            f"The link works once, for {settings.GM_CONFIRM_DAYS} days; no account exists "
            "until you use it. If you did not sign up, ignore this mail: nothing happens.\n")
    if _send("Create your account: confirm your e-mail address", body, email,
             "sign-up link"):
        return True
    pending.forget(token)  # nobody holds this link
    return False


def register(username: str, email: str, next_url: str = "") -> None:
    """Act on a valid sign-up: a link to a free address, a note to a taken one's owner.

    Creates nothing and returns nothing: the caller answers the same in every case.
    """
    email = email.strip()
    if ratelimit.hit("signup-mail", email.lower(), settings.GM_SIGNUP_LIMIT,
                     settings.GM_SIGNUP_WINDOW) is not None:
        log.info("sign-up mail to one address over the limit: not sent")
        return
    owner = owner_of(email)
    if owner is None:
        send_link(username, email, next_url)
    else:
        tell_the_owner(owner, next_url)


def create_account(form, email: str, link: pending.Pending | None = None):
    """The account from a valid SignupConfirmForm and the link's address.

    AddressTaken if the address has an account by now; LinkUsed if `link` (a short
    link's pending sign-up) was spent meanwhile; a username taken meanwhile is put on the
    form as its error (the caller shows the form again) and None returned. The link is
    spent in the account's own transaction: a refused account leaves it usable.
    """
    if owner_of(email) is not None:
        raise AddressTaken(email)
    try:
        with transaction.atomic():
            if link is not None and not pending.spend(link):
                raise LinkUsed(email)
            user = form.save(commit=False)
            user.email = email
            user.save()
    except IntegrityError:  # a confirmation racing this one took the address or the name
        if owner_of(email) is not None:
            raise AddressTaken(email) from None
        username = form.cleaned_data["username"]
        if get_user_model().objects.filter(username__iexact=username).exists():
            form.add_error("username", "This username was taken a moment ago; choose "
                                       "another.")
            return None
        raise
    return user
