"""Forms of the web pages; they validate shape, gm.play.actions validates meaning."""

from __future__ import annotations

from typing import Any

from django import forms

from games.core.engine import Engine, Option
from gm.accounts.timezones import zone_names


def option_field(name: str, option: Option) -> forms.Field:
    """A form field from the engine's option metadata: a select, a number or a checkbox."""
    label = name.replace("_", " ").capitalize()
    if option.choices:
        return forms.TypedChoiceField(
            label=label, help_text=option.help, initial=option.default,
            choices=[(c, str(c)) for c in option.choices],
            coerce=lambda raw, choices=option.choices: next(
                (c for c in choices if str(c) == raw), raw))
    if option.min is not None or option.max is not None:
        return forms.IntegerField(label=label, help_text=option.help, initial=option.default,
                                  min_value=option.min, max_value=option.max)
    if isinstance(option.default, bool):
        return forms.BooleanField(label=label, help_text=option.help, initial=option.default,
                                  required=False, label_suffix="")
    return forms.CharField(label=label, help_text=option.help, initial=option.default,
                           required=False)


class NewGameForm(forms.Form):
    """A new game of one ruleset: its options come from the engine's metadata."""

    ROLE_PLAY, ROLE_REFEREE = "play", "referee"

    title = forms.CharField(max_length=120)
    role = forms.ChoiceField(
        label="Your part", initial=ROLE_REFEREE, widget=forms.RadioSelect,
        choices=[(ROLE_REFEREE, "Referee: I run the game and hold no seat"),
                 (ROLE_PLAY, "Play: I run the game and also take a seat")])
    turn_hours = forms.IntegerField(label="Turn length: hours", min_value=0,
                                    max_value=24 * 60, initial=48)
    turn_minutes = forms.IntegerField(label="and minutes", min_value=0, max_value=59,
                                      initial=0)
    # A checkbox's label follows the box, so it takes no colon.
    process_early = forms.BooleanField(required=False, initial=True, label_suffix="",
                                       label="Resolve as soon as all orders are in")
    hold_for_review = forms.BooleanField(required=False, initial=False, label_suffix="",
                                         label="Hold each resolution for my review")
    # --- issue 25: seat policy (gm.substitutes.policy) ---
    seat_approval = forms.ChoiceField(
        label="A substitute takes a seat", initial="gm", required=False,
        choices=[("gm", "once I approve"), ("auto", "at once (first to accept)")])
    seat_free_turns = forms.IntegerField(
        label="Full turns a newcomer gets before a deadline counts", min_value=0,
        max_value=5, initial=1, required=False)
    seat_min_finished = forms.IntegerField(label="Finished games needed to join",
                                           min_value=0, max_value=1000, initial=0,
                                           required=False)
    seat_min_met_percent = forms.IntegerField(label="Deadlines met needed to join (%)",
                                              min_value=0, max_value=100, initial=0,
                                              required=False)

    def seat_policy(self) -> dict[str, Any]:
        """The fields given (a form posted without them keeps the defaults)."""
        names = {"approval": "seat_approval", "free_turns": "seat_free_turns",
                 "min_finished": "seat_min_finished",
                 "min_met_percent": "seat_min_met_percent"}
        return {key: self.cleaned_data[field] for key, field in names.items()
                if self.cleaned_data.get(field) not in (None, "")}

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("seat_approval", "seat_free_turns", "seat_min_finished",
                                  "seat_min_met_percent")]
    # --- end issue 25 ---

    def __init__(self, engine: Engine, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        self.option_names = list(engine.options)
        for name, option in engine.options.items():
            self.fields[f"option_{name}"] = option_field(name, option)
        if engine.hidden_information:
            # newcomer (issue 28): offered only where allowed. The field keeps both values
            # so a posted "play" is refused with the reason (clean_role), not "invalid".
            self.fields["role"].widget.choices = [
                c for c in self.fields["role"].choices if c[0] == self.ROLE_REFEREE]
            self.fields["role"].help_text = (
                f"{engine.title} hides information from the players, and the GM sees "
                "everything, so its GM cannot hold a seat.")

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{name}"] for name in self.option_names]

    def base_fields_bound(self) -> list[forms.BoundField]:
        return [self[name] for name in ("title", "turn_hours", "turn_minutes",
                                        "process_early", "hold_for_review")]

    def clean_role(self) -> str:
        role = self.cleaned_data["role"]
        if role == self.ROLE_PLAY and self.engine.hidden_information:
            raise forms.ValidationError(
                f"{self.engine.title} hides information and its GM sees everything, so the "
                "GM cannot also play. Choose to referee, or ask another player to run it.")
        return role

    def options(self) -> dict[str, Any]:
        return {name: self.cleaned_data[f"option_{name}"] for name in self.option_names}


class OrdersForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false",
                                                        "autocapitalize": "characters"}),
                           required=False, label="Your orders, one per line")
    choice = forms.CharField(required=False, widget=forms.HiddenInput)
    turn = forms.IntegerField(required=False, widget=forms.HiddenInput)


class PostForm(forms.Form):
    markdown = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=20000,
                               label="Message to everyone in the game (markdown)")


class PressForm(forms.Form):
    recipient = forms.ChoiceField(label="To")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=20000,
                           label="Private message (markdown)")

    def __init__(self, recipients: list[str], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["recipient"].choices = [(r, r) for r in recipients]


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(label="Time zone", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [("", "not chosen (pages follow my browser, "
                                                 "mail uses UTC)")] + [
            (z, z) for z in zone_names()]
