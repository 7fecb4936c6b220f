"""Sign-up with e-mail confirmation, the account page (address, API tokens), the API's
token endpoint, and the response for a throttled log-in."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from . import confirmation, ratelimit, signup, tokens
from .clientip import client_ip
from .forms import SignupConfirmForm, SignupForm, TokenForm
from .nextpage import same_site_path


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def signup_page(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = ratelimit.hit("signup", client_ip(request), settings.GM_SIGNUP_LIMIT,
                             settings.GM_SIGNUP_WINDOW)
        if wait is not None:
            form.add_error(None, "Too many sign-ups from your address; try again in "
                                 f"{_minutes(wait)}.")
            response = render(request, "registration/signup.html", {"form": form},
                              status=429)
            response["Retry-After"] = str(wait)
            return response
        # A link to a free address, a note to a taken one's owner: nothing is created.
        nxt = _safe_next(request)
        signup.register(form.cleaned_data["username"], form.cleaned_data["email"], nxt)
        request.session["signup"] = {"email": form.cleaned_data["email"], "next": nxt}
        return redirect("signup-sent")
    return render(request, "registration/signup.html", {"form": form})


def _safe_next(request: HttpRequest) -> str:
    """The page to come back to once the account exists (e.g. an invite link), if ours."""
    return same_site_path(request, request.POST.get("next") or request.GET.get("next"))


def signup_sent(request: HttpRequest) -> HttpResponse:
    """The one answer to every sign-up, whatever exists."""
    data = request.session.get("signup") or {}
    return render(request, "registration/signup_sent.html", {
        "email": data.get("email", ""), "days": settings.GM_CONFIRM_DAYS,
        "next": same_site_path(request, data.get("next")), "local_mail": local_mail()})


def local_mail() -> str:
    """Where mail goes when this server does not send any (a development copy's console
    or file backend), said on the "check your mail" page: a newcomer trying the service
    locally otherwise waits for a mail that never comes (issue 28). "" for real mail."""
    backend = settings.EMAIL_BACKEND
    if backend.endswith("console.EmailBackend"):
        return ("it prints every mail, the sign-up link included, in the terminal where "
                "the server runs (manage.py runserver or make run)")
    if backend.endswith("filebased.EmailBackend"):
        return ("it writes every mail, the sign-up link included, as a file in "
                f"{getattr(settings, 'EMAIL_FILE_PATH', '') or 'its mail folder'}")
    return ""


def signup_link(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed short link (`/signup/c/<token>/`, gm.accounts.pending): as
    `signup_confirm`, and it makes one account at most."""
    try:
        link = signup.read_link(token)
    except signup.SignupLinkError as exc:
        return _link_failed(request, exc)
    pending = {"username": link.username, "email": link.email, "next": link.next}
    return _confirm(request, pending, link)


def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The former long link, the sign-up itself signed (mailed before the short links):
    still honoured until it expires."""
    try:
        pending = signup.read_token(token)
    except signup.SignupLinkError as exc:
        return _link_failed(request, exc)
    return _confirm(request, pending, None)


def _link_failed(request: HttpRequest, exc: signup.SignupLinkError) -> HttpResponse:
    return render(request, "registration/signup_failed.html", {
        "error": str(exc), "next": same_site_path(request, exc.next)}, status=400)


def _link_used(request: HttpRequest, nxt: str) -> HttpResponse:
    """A spent short link whose address has no account (any more): said plainly."""
    return render(request, "registration/signup_failed.html", {
        "error": "this sign-up link has been used already (a link makes one account): "
                 "log in, or sign up again for a new link", "used": True, "next": nxt},
        status=410)


def _confirm(request: HttpRequest, pending: dict, link) -> HttpResponse:
    """The mailed link: choose a password (and the username again if it is taken by now);
    the account is created, confirmed and logged in. GET only shows the form, so a mail
    scanner that opens links creates nothing."""
    email = pending["email"]
    nxt = same_site_path(request, pending["next"])
    owner = signup.owner_of(email)
    if owner is not None:
        if request.user.is_authenticated and request.user.pk == owner.pk:
            # The link opened again by the account it made: on to where it was going.
            return redirect(nxt or "/")
        return _address_taken(request, email, nxt)
    if link is not None and link.used:
        return _link_used(request, nxt)
    if request.method == "POST":
        form = SignupConfirmForm(request.POST, email=email)
        if form.is_valid():
            try:
                user = signup.create_account(form, email, link)
            except signup.AddressTaken:
                return _address_taken(request, email, nxt)
            except signup.LinkUsed:
                return _link_used(request, nxt)
            if user is not None:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, f"Welcome, {user.username}: your account is made "
                                          f"and {user.email} is confirmed.")
                return redirect(nxt or "/")
    else:
        form = SignupConfirmForm(email=email, initial={"username": pending["username"]})
    # Say at once (before any typing) that the name asked for is taken by now.
    taken = (request.method == "GET" and get_user_model().objects.filter(
        username__iexact=pending["username"]).exists())
    return render(request, "registration/signup_confirm.html", {
        "form": form, "email": email, "taken": pending["username"] if taken else ""})


def _address_taken(request: HttpRequest, email: str, nxt: str = "") -> HttpResponse:
    """Only whoever holds the link's mailbox gets here: they may know the address is used.
    Logging in from here still leads to the page the sign-up came from."""
    return render(request, "registration/signup_failed.html", {
        "error": f"{email} has an account already (perhaps this link made it): log in, "
                 "or choose a new password if you have forgotten it", "taken": True,
        "next": nxt}, status=409)


def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """Confirmation of an account made unconfirmed by the former sign-up (before links
    created the account), still honoured; the account page sends it again."""
    try:
        user = confirmation.confirm(token)
    except confirmation.ConfirmationError as exc:
        return render(request, "accounts/confirm_failed.html", {"error": str(exc)},
                      status=400)
    messages.success(request, f"Thank you: {user.email} is confirmed.")
    return redirect("account" if request.user.is_authenticated else "login")


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html", {
        "confirmed": confirmation.email_confirmed(request.user),
        "tokens": tokens.live_tokens(request.user), "form": TokenForm(),
        "token_days": settings.GM_API_TOKEN_DAYS, "now": timezone.now()})


@login_required
@require_POST
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    if confirmation.email_confirmed(request.user):
        messages.info(request, "Your address is already confirmed.")
        return redirect("account")
    wait = ratelimit.hit("confirm-mail", str(request.user.pk), 3, 3600)
    if wait is not None:
        messages.error(request, f"A link was sent a moment ago; try again in {_minutes(wait)}.")
    elif confirmation.send_confirmation(request.user):
        messages.success(request, f"A new confirmation link is on its way to "
                                  f"{request.user.email}.")
    else:
        messages.error(request, "The mail could not be sent; try again later.")
    return redirect("account")


@login_required
@require_POST
def new_token(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST)
    if not form.is_valid():  # a label that is not one line: said, and no token made
        return render(request, "accounts/account.html", {
            "confirmed": confirmation.email_confirmed(request.user),
            "tokens": tokens.live_tokens(request.user), "form": form,
            "token_days": settings.GM_API_TOKEN_DAYS, "now": timezone.now()}, status=400)
    token, key = tokens.issue(request.user, form.cleaned_data["label"])
    return render(request, "accounts/account.html", {
        "confirmed": confirmation.email_confirmed(request.user),
        "tokens": tokens.live_tokens(request.user), "form": TokenForm(),
        "token_days": settings.GM_API_TOKEN_DAYS, "new_key": key, "new_token": token,
        "now": timezone.now()})


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    if tokens.revoke(request.user, token_id):
        messages.success(request, "The token is revoked: it no longer works.")
    else:
        messages.error(request, "You have no such token (it may have expired already).")
    return redirect("account")


class TokenRateThrottle(AnonRateThrottle):
    """POST /api/token/ per address, on top of django-axes' failure counting."""

    scope = "token"


@extend_schema(
    request=inline_serializer("TokenRequest", {"username": serializers.CharField(),
                                               "password": serializers.CharField()}),
    responses={200: inline_serializer("TokenIssued", {
        "token": serializers.CharField(), "expires": serializers.DateTimeField()})},
    summary="Issue an API token (expires; list and revoke yours on /account/)")
@api_view(["POST"])
@permission_classes([permissions.AllowAny])
@throttle_classes([TokenRateThrottle])
def obtain_token(request: Request) -> Response:
    data = request.data if hasattr(request.data, "get") else {}
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or not username:
        return Response({"detail": 'send {"username": …, "password": …}'},
                        status=status.HTTP_400_BAD_REQUEST)
    # The Django request, so django-axes can mark it and its middleware answer 429.
    user = authenticate(request._request, username=username, password=password)
    if getattr(request._request, "axes_locked_out", False):
        return locked_out(request._request)
    if user is None:
        return Response({"detail": "wrong username or password"},
                        status=status.HTTP_400_BAD_REQUEST)
    token, key = tokens.issue(user, label="POST /api/token/")
    return Response({"token": key, "expires": token.expires})


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' lockout response: 429 with Retry-After, JSON for the API."""
    wait = int(settings.AXES_COOLOFF_TIME * 3600)
    message = ("Too many failed log-ins for this account or from your address: log-in is "
               f"refused for {_minutes(wait)}, even with the right password.")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "accounts/locked_out.html", {"message": message},
                          status=429)
    response["Retry-After"] = str(wait)
    return response
