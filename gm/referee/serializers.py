"""Request shapes of the referee API (validation only; the rules are in actions.py)."""

from __future__ import annotations

from rest_framework import serializers


class GmReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class GmExtendSerializer(GmReasonSerializer):
    hours = serializers.IntegerField(min_value=0, max_value=24 * 365, default=0)
    minutes = serializers.IntegerField(min_value=0, max_value=60 * 24 * 365, default=0)
    until = serializers.DateTimeField(required=False, allow_null=True, default=None)


class GmHoldSerializer(GmReasonSerializer):
    hold = serializers.BooleanField()


class GmChangeSerializer(serializers.Serializer):
    path = serializers.CharField(max_length=500)
    value = serializers.JSONField()


class GmAmendSerializer(GmReasonSerializer):
    changes = GmChangeSerializer(many=True)


class GmOrdersSerializer(GmReasonSerializer):
    seat = serializers.CharField(max_length=40)
    text = serializers.CharField(max_length=20000, trim_whitespace=False)
    turn = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class GmDiceSerializer(GmReasonSerializer):
    turn = serializers.IntegerField(min_value=1)
    index = serializers.IntegerField(min_value=0)
    value = serializers.JSONField(allow_null=True, help_text="the result to use; null removes "
                                                            "the GM's fix")


class GmTurnSerializer(GmReasonSerializer):
    turn = serializers.IntegerField(min_value=1)


class GmRerunSerializer(GmTurnSerializer):
    changes = GmChangeSerializer(many=True, required=False, default=list)
    overrides = serializers.DictField(child=serializers.JSONField(), required=False,
                                      allow_null=True, default=None)
    orders = serializers.DictField(child=serializers.CharField(max_length=20000),
                                   required=False, default=dict)


class GmSeatSerializer(GmReasonSerializer):
    user = serializers.CharField(max_length=150, required=False,
                                 help_text="username of the new player")
    mode = serializers.ChoiceField(choices=["active", "default", "abandoned"], required=False)

    def validate(self, attrs):
        if ("user" in attrs) == ("mode" in attrs):
            raise serializers.ValidationError('send either "user" or "mode"')
        return attrs


class GmCoGmSerializer(GmReasonSerializer):
    username = serializers.CharField(max_length=150)
    add = serializers.BooleanField(default=True)


class GmRulingSerializer(serializers.Serializer):
    upheld = serializers.BooleanField()
    reasons = serializers.CharField(max_length=20000)
    correction = serializers.DictField(required=False, default=dict, help_text=(
        '{"turn": N, "changes": [{"path", "value"}], "overrides": {index: value}, '
        '"orders": {seat: text}}'))


class GmDisputeSerializer(serializers.Serializer):
    turn = serializers.IntegerField(min_value=1)
    text = serializers.CharField(max_length=20000)


class GmTextSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=20000, required=False, allow_blank=True, default="")
