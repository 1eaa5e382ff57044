"""Players, leagues and league members."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from games.models import Confirmation, League, Membership, Player, display_name

from .common import Id, JSONBoolean, JSONObject, Slug, Strict, Text
from .standings import PlayerFiguresOut, PlayerRatingOut


class PlayerIn(Strict):
    name = Text(max_length=80)


class NewPlayerIn(PlayerIn):
    league = Id(required=False, allow_null=True, default=None,
                help_text="A league to add them to (its owners and scorekeepers may); null for casual games.")
    allow_similar = JSONBoolean(
        required=False, default=False,
        help_text="Add them although a player's name differs only in case or spacing (someone else).")


class PlayerOut(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "created_at"]


class PlayerDetailOut(serializers.Serializer):
    """One player, with their ratings and figures in the leagues you may see."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    ratings = PlayerRatingOut(many=True, help_text="Per league and game type; the history is at "
                                                   "`players/{id}/ratings/`.")
    figures = PlayerFiguresOut(many=True, help_text="Per league and game type, from the hands of finished games.")


class ScorekeeperIn(Strict):
    username = Text(max_length=150)


class ScorekeepersOut(serializers.Serializer):
    """Who keeps the score of a casual game: its creator, and the users the creator added."""

    game = serializers.IntegerField()
    created_by = serializers.CharField(allow_null=True, help_text="The creator's username.")
    scorekeepers = serializers.ListField(child=serializers.CharField(), help_text="Usernames, in order.")


class LeagueIn(Strict):
    name = Text(max_length=120)
    slug = Slug(max_length=80, required=False)
    is_public = JSONBoolean(required=False, default=True)
    default_options = JSONObject(
        required=False, default=dict,
        help_text='House rules per game type, e.g. {"spades": {"target": 300}}; checked by the rules engine.',
    )


class LeagueUpdate(Strict):
    name = Text(max_length=120, required=False)
    is_public = JSONBoolean(required=False)
    default_options = JSONObject(required=False)
    confirmation = serializers.ChoiceField(
        choices=Confirmation.choices, required=False,
        help_text="House rule for games started from now on: `opponents` (a player of the other side confirms "
                  "each hand) or `off`.")
    provisional_hours = serializers.IntegerField(
        required=False, min_value=0, max_value=24 * 31,
        help_text="Hours a finished game with unconfirmed hands stays provisional (out of the standings); 48 "
                  "unless set.")


class LeagueOut(serializers.ModelSerializer):
    nights_url = serializers.SerializerMethodField(help_text="The league's club nights (`leagues/{id}/nights/`).")

    class Meta:
        model = League
        fields = ["id", "name", "slug", "is_public", "default_options", "confirmation", "provisional_hours",
                  "created_at", "nights_url"]

    def get_nights_url(self, league: League) -> str:
        return reverse("api-league-nights", args=[league.pk])


class MemberIn(Strict):
    username = Text(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class RoleIn(Strict):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MemberOut(serializers.ModelSerializer):
    """A member by display name; their username only for readers who are members of the league."""

    display_name = serializers.SerializerMethodField()
    username = serializers.SerializerMethodField(help_text="null unless you are a member of the league.")
    user_id = serializers.IntegerField()

    class Meta:
        model = Membership
        fields = ["display_name", "username", "user_id", "role", "joined_at"]

    def get_display_name(self, membership: Membership) -> str:
        return display_name(membership.user)

    def get_username(self, membership: Membership) -> str | None:
        return membership.user.username if self.context.get("usernames", True) else None
