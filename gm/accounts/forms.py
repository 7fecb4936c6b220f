"""Sign-up: a unique username and a unique (case-insensitively) e-mail address."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, max_length=254, help_text=(
        "Turn notices and reports go here, and orders are read from it, once you have "
        "opened the confirmation link we send."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail address already exists. Log in, or use "
                "another address.")
        return email


class TokenForm(forms.Form):
    label = forms.CharField(max_length=80, required=False,
                            help_text="What the token is for, e.g. 'my bot'.")
