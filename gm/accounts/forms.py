"""Sign-up: a unique username and an address; what happens when the address already has
an account is gm.accounts.signup's business, and the form does not tell."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, max_length=254, help_text=(
        "Turn notices and reports go here, and orders are read from it, once you have "
        "opened the confirmation link we send."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_email(self) -> str:
        # Whether the address has an account is never said here (gm.accounts.signup).
        return self.cleaned_data["email"].strip()


class TokenForm(forms.Form):
    label = forms.CharField(max_length=80, required=False,
                            help_text="What the token is for, e.g. 'my bot'.")
