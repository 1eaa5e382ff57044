"""Players, leagues and league members."""

from __future__ import annotations

from rest_framework import serializers

from games.models import League, Membership, Player

from .common import JSONObject, Strict, Text


class PlayerIn(Strict):
    name = Text(max_length=80)


class PlayerOut(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "created_at"]


class LeagueIn(Strict):
    name = Text(max_length=120)
    slug = serializers.SlugField(max_length=80, required=False)
    is_public = serializers.BooleanField(required=False, default=True)
    default_options = JSONObject(
        required=False, default=dict,
        help_text='House rules per game type, e.g. {"spades": {"target": 300}}; checked by the rules engine.',
    )


class LeagueUpdate(Strict):
    name = Text(max_length=120, required=False)
    is_public = serializers.BooleanField(required=False)
    default_options = JSONObject(required=False)


class LeagueOut(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "is_public", "default_options", "created_at"]


class MemberIn(Strict):
    username = Text(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class RoleIn(Strict):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MemberOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    user_id = serializers.IntegerField()

    class Meta:
        model = Membership
        fields = ["username", "user_id", "role", "joined_at"]
