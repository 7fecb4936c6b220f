"""Forms of the web pages; they validate shape, gm.play.actions validates meaning."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.core import registry


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, help_text="Turn notices and reports go here; "
                             "orders are accepted by mail from this address.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


def parse_options(text: str) -> dict[str, Any]:
    """`name = value` lines (values as JSON where they parse, else strings)."""
    options: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise forms.ValidationError(f"line {number}: write options as name = value")
        key, raw = (part.strip() for part in line.split("=", 1))
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


class NewGameForm(forms.Form):
    ruleset = forms.ChoiceField(choices=())
    title = forms.CharField(max_length=120)
    options = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False,
                              help_text="One per line: name = value. Leave empty for defaults.")
    turn_hours = forms.IntegerField(min_value=0, max_value=24 * 60, initial=48)
    turn_minutes = forms.IntegerField(min_value=0, max_value=59, initial=0)
    process_early = forms.BooleanField(required=False, initial=True,
                                       label="Resolve as soon as all orders are in")
    hold_for_review = forms.BooleanField(required=False, initial=False,
                                         label="Hold each resolution for my review")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(e.name, e.title)
                                          for e in registry.engines().values()]

    def clean_options(self) -> dict[str, Any]:
        return parse_options(self.cleaned_data.get("options") or "")


class OrdersForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
                           required=False, label="Orders")
    choice = forms.CharField(required=False, widget=forms.HiddenInput)


class PostForm(forms.Form):
    markdown = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), max_length=20000,
                               label="Message (markdown)")
