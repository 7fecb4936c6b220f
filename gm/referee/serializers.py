"""Request shapes of the referee API (validation only; the rules are in actions.py)."""

from __future__ import annotations

from rest_framework import serializers


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class ExtendSerializer(ReasonSerializer):
    hours = serializers.IntegerField(min_value=0, max_value=24 * 365, default=0)
    minutes = serializers.IntegerField(min_value=0, max_value=60 * 24 * 365, default=0)
    until = serializers.DateTimeField(required=False, allow_null=True, default=None)


class HoldSerializer(ReasonSerializer):
    hold = serializers.BooleanField()


class ChangeSerializer(serializers.Serializer):
    path = serializers.CharField(max_length=500)
    value = serializers.JSONField()


class AmendSerializer(ReasonSerializer):
    changes = ChangeSerializer(many=True)


class OrdersSerializer(ReasonSerializer):
    seat = serializers.CharField(max_length=40)
    text = serializers.CharField(max_length=20000, trim_whitespace=False)
    turn = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class DiceSerializer(ReasonSerializer):
    turn = serializers.IntegerField(min_value=1)
    index = serializers.IntegerField(min_value=0)
    value = serializers.JSONField(allow_null=True, help_text="the result to use; null removes "
                                                            "the GM's fix")


class TurnSerializer(ReasonSerializer):
    turn = serializers.IntegerField(min_value=1)


class RerunSerializer(TurnSerializer):
    changes = ChangeSerializer(many=True, required=False, default=list)
    overrides = serializers.DictField(child=serializers.JSONField(), required=False,
                                      allow_null=True, default=None)
    orders = serializers.DictField(child=serializers.CharField(max_length=20000),
                                   required=False, default=dict)


class SeatSerializer(ReasonSerializer):
    user = serializers.CharField(max_length=150, required=False,
                                 help_text="username of the new player")
    mode = serializers.ChoiceField(choices=["active", "default", "abandoned"], required=False)

    def validate(self, attrs):
        if ("user" in attrs) == ("mode" in attrs):
            raise serializers.ValidationError('send either "user" or "mode"')
        return attrs


class CoGmSerializer(ReasonSerializer):
    username = serializers.CharField(max_length=150)
    add = serializers.BooleanField(default=True)


class RulingSerializer(serializers.Serializer):
    upheld = serializers.BooleanField()
    reasons = serializers.CharField(max_length=20000)
    correction = serializers.DictField(required=False, default=dict, help_text=(
        '{"turn": N, "changes": [{"path", "value"}], "overrides": {index: value}, '
        '"orders": {seat: text}}'))


class DisputeSerializer(serializers.Serializer):
    turn = serializers.IntegerField(min_value=1)
    text = serializers.CharField(max_length=20000)


class TextSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=20000, required=False, allow_blank=True, default="")
