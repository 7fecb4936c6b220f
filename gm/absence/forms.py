"""Forms of the absence pages: shape only; gm.absence.actions decides meaning."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import forms

from .actions import LIMITS
from .models import AwayChoice


class RulesForm(forms.Form):
    """A game's absence settings (the new-game form, prefix "absence", and the GM's)."""

    vacations_allowed = forms.BooleanField(
        required=False, initial=True, label_suffix="",
        label="Players may take vacations (off: tournament style)")
    vacation_cap_days = forms.IntegerField(
        min_value=0, max_value=LIMITS["vacation_cap_days"], initial=7,
        label="Days a year per seat the deadlines may wait for a vacation")
    grace_count = forms.IntegerField(min_value=0, max_value=LIMITS["grace_count"], initial=0,
                                     label="Grace extensions per seat")
    grace_hours = forms.IntegerField(min_value=1, max_value=LIMITS["grace_hours"], initial=24,
                                     label="Hours one grace extension adds")
    misses_to_disorder = forms.IntegerField(
        min_value=0, max_value=LIMITS["misses_to_disorder"], initial=0,
        label="Missed deadlines in a row before civil disorder (0 = never)")
    bot_seats = forms.IntegerField(min_value=0, max_value=LIMITS["bot_seats"], initial=0,
                                   required=False,
                                   label="Seats played by bots (solo against bots)")

    def settings(self) -> dict[str, Any]:
        """The settings given (bot seats only while the game is open: the field is
        left out of the form after the start)."""
        return {k: v for k, v in self.cleaned_data.items() if v is not None}


class VacationForm(forms.Form):
    """A window away, entered in the reader's own time zone."""

    starts = forms.DateTimeField(label="From", widget=forms.DateTimeInput(
        attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    ends = forms.DateTimeField(label="To", widget=forms.DateTimeInput(
        attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))

    def in_zone(self, zone: ZoneInfo) -> tuple[datetime, datetime]:
        """The window as aware datetimes: the entered wall time in `zone`."""
        def aware(value: datetime) -> datetime:
            return value.replace(tzinfo=None).replace(tzinfo=zone)
        return aware(self.cleaned_data["starts"]), aware(self.cleaned_data["ends"])


class SeatAbsenceForm(forms.Form):
    away_choice = forms.ChoiceField(choices=AwayChoice.choices, widget=forms.RadioSelect,
                                    label="While I am away")
    if_miss_text = forms.CharField(
        required=False, label="\"If I miss\" orders",
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false",
                                     "autocapitalize": "characters"}),
        help_text="Played only when you miss a deadline; read again every turn.")
