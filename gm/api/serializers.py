"""Request/response shapes of the REST API (validation only; logic is in gm.play.actions)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import SkipField, empty

from gm.play.models import Game, Post


class GameCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40)
    title = serializers.CharField(max_length=120)
    options = serializers.DictField(required=False, default=dict)
    turn_hours = serializers.IntegerField(min_value=0, max_value=24 * 60, default=48)
    turn_minutes = serializers.IntegerField(min_value=0, max_value=59 * 24, default=0)
    process_early = serializers.BooleanField(default=True)
    hold_for_review = serializers.BooleanField(default=False)
    max_seats = serializers.IntegerField(min_value=0, max_value=64, default=0)
    # issue 25 (gm.substitutes): {"approval": "gm"|"auto", "free_turns", "min_finished",
    # "min_met_percent"}
    seat_policy = serializers.DictField(required=False)
    # gm.absence: vacations_allowed, vacation_cap_days, grace_count, grace_hours,
    # misses_to_disorder, bot_seats (gm.absence.actions.clean_settings checks them)
    absence = serializers.DictField(required=False)


class SeatSerializer(serializers.Serializer):
    name = serializers.CharField()
    player = serializers.CharField(source="player_name")
    mode = serializers.CharField()


class GameSummarySerializer(serializers.ModelSerializer):
    gm = serializers.CharField(source="gm.username")

    class Meta:
        model = Game
        fields = ["id", "ruleset", "title", "status", "gm", "turn_hours", "turn_minutes",
                  "process_early", "created", "started", "finished"]


class TurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1,
        help_text="The turn these orders were written for; refused as late (409) if it "
                  "has closed.")


class OrdersSerializer(TurnSerializer):
    # No max_length here: gm.play.limits gives every path (web, API, mail) one size limit.
    text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    ready = serializers.BooleanField(
        required=False,
        help_text="false: saved, not ready (issue 28): the orders stand at the deadline "
                  "but do not close the turn early. Default true.")


class PostSerializer(serializers.ModelSerializer):
    author = serializers.SerializerMethodField()

    class Meta:
        model = Post
        fields = ["id", "kind", "author", "turn_number", "markdown", "html", "created"]
        read_only_fields = ["id", "kind", "author", "turn_number", "html", "created"]

    def get_author(self, post: Post) -> str | None:
        return post.author.username if post.author else None


class ErrorLineSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    message = serializers.CharField()
    hint = serializers.CharField(allow_blank=True)


class OrderErrorsSerializer(serializers.Serializer):
    errors = ErrorLineSerializer(many=True)
    accepted = serializers.ListField(child=serializers.CharField())


class ReceiptSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    seat = serializers.CharField()
    version = serializers.IntegerField()
    orders = serializers.ListField(child=serializers.CharField())
    receipt = serializers.CharField()
    withdrawn = serializers.BooleanField()
    source = serializers.CharField()
    created = serializers.DateTimeField()


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


def validate_flat(serializer_class: type[serializers.Serializer], data: Any
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(validated data, errors by field name) of `data` against a serializer of plain
    declared fields with no validate() hooks (OrdersSerializer, TurnSerializer).

    A JSON object is checked with the declared fields themselves, without building the
    serializer: DRF deep-copies every field for each instance, about a tenth of an order
    POST's own CPU (bench/orders.py). Anything else (form data, not an object) goes
    through the serializer, so its messages stay DRF's."""
    if type(data) is not dict:
        ser = serializer_class(data=data)
        return (ser.validated_data, {}) if ser.is_valid() else ({}, ser.errors)
    valid: dict[str, Any] = {}
    errors: dict[str, Any] = {}
    for name, field in serializer_class._declared_fields.items():
        try:
            valid[name] = field.run_validation(data.get(name, empty))
        except SkipField:
            continue
        except ValidationError as exc:
            errors[name] = exc.detail
    return (valid, {}) if not errors else ({}, errors)
