"""Sign-up in two steps: a username and an address (nothing is checked against existing
accounts, gm.accounts.signup), then, from the link mailed to the address, the password
(and the username again, should it be taken by then)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.validators import UnicodeUsernameValidator

from gm.play.errors import ActionError
from gm.play.text import one_line

from . import lookalike

USERNAME_HELP = "Shown to other players. Letters, digits and @ . + - _ only; at most 150."


class SignupForm(forms.Form):
    username = forms.CharField(max_length=150, validators=[UnicodeUsernameValidator()],
                               help_text=USERNAME_HELP)
    email = forms.EmailField(max_length=254, help_text=(
        "We mail a link here: open it to choose your password and create the account. "
        "Turn notices and reports go to this address, and orders are read from it."))

    def clean_email(self) -> str:
        # Whether the address has an account is never said here (gm.accounts.signup).
        return self.cleaned_data["email"].strip()


class SignupConfirmForm(UserCreationForm):
    """The second step, on the page the mailed link opens: the account is made here."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args, email: str = "", **kwargs) -> None:
        # The address takes part in the password checks (not too similar to it).
        kwargs.setdefault("instance", get_user_model()(email=email))
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = USERNAME_HELP

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username")
        if username and get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(f"The username {username} is taken by now; choose "
                                        "another.", code="taken")
        other = lookalike.existing_lookalike(username) if username else None
        if other is not None:
            raise forms.ValidationError(
                f"The username {username} looks like the existing player {other} (letters "
                "of another alphabet, or 0/1 for o/l, read alike); choose another.",
                code="lookalike")
        return username


class TokenForm(forms.Form):
    label = forms.CharField(max_length=80, required=False,
                            help_text="What the token is for, e.g. 'my bot'.")

    def clean_label(self) -> str:
        try:
            return one_line(self.cleaned_data["label"], "a token's label")
        except ActionError as exc:
            raise forms.ValidationError(exc.message[0].upper() + exc.message[1:] + ".",
                                        code="not-one-line") from None
