"""Accounts, invitations, league players and claims: request shapes and response bodies.

People appear by display name; a login name only where the reader may see it (the members of the
person's league, the person themselves).
"""

from __future__ import annotations

from rest_framework import serializers

from games.models import Invitation, Membership, PlayerClaim, display_name

from .common import Id, JSONBoolean, JSONInteger, Secret, Strict, Text


class SignupIn(Strict):
    username = Text(max_length=150)
    password = Secret(max_length=4096, style={"input_type": "password"})
    display_name = Text(max_length=150, help_text="What other people see of you.")
    email = serializers.EmailField(required=False, allow_blank=True, default="",
                                   help_text="Only for resetting your password.")
    invitation = Text(max_length=64, required=False, allow_null=True, default=None,
                      help_text="An invitation's token: required when sign-up is by invitation only.")


class SignupOut(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
    username = serializers.CharField()
    display_name = serializers.CharField()


class MyPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    leagues = serializers.ListField(child=serializers.IntegerField(), help_text="Ids of the leagues they play in.")


class MeOut(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    players = MyPlayerOut(many=True, help_text="The players you are (claimed or linked), one per league at most.")


class MeIn(Strict):
    display_name = Text(max_length=150, required=False)
    email = serializers.EmailField(required=False, allow_blank=True)


class InvitationIn(Strict):
    role = serializers.ChoiceField(choices=Membership.Role.choices,
                                   help_text="member or scorekeeper; owner only for an invitation to a `username`.")
    days = JSONInteger(required=False, default=7, min_value=1, max_value=90, help_text="How long it can be accepted.")
    max_uses = JSONInteger(required=False, default=1, min_value=1, max_value=500,
                           help_text="How many people may accept it (1 for a `username` or `player`).")
    username = Text(max_length=150, required=False, allow_null=True, default=None,
                    help_text="Only this user may accept it (it then appears in their `invitations/`).")
    player = Id(required=False, allow_null=True, default=None,
                help_text="One of the league's unclaimed players: whoever accepts is linked to them.")


class InvitationOut(serializers.ModelSerializer):
    """An invitation as its league's owners see it (with its token and link)."""

    league = serializers.IntegerField(source="league_id")
    status = serializers.ChoiceField(choices=Invitation.Status.choices)
    url = serializers.SerializerMethodField(help_text="The link to send; opening it offers to sign up or in.")
    invitee = serializers.SerializerMethodField(help_text="The username it is for, or null for a link.")
    player = serializers.IntegerField(source="player_id", allow_null=True)

    class Meta:
        model = Invitation
        fields = ["id", "token", "url", "league", "role", "status", "invitee", "player", "max_uses", "uses",
                  "expires_at", "created_at"]

    def get_url(self, invitation: Invitation) -> str:
        request = self.context.get("request")
        path = f"/invitations/{invitation.token}/"
        return request.build_absolute_uri(path) if request else path

    def get_invitee(self, invitation: Invitation) -> str | None:
        return invitation.addressed_to or None


class InvitationPublicOut(serializers.Serializer):
    """What whoever holds the token sees: to what, as what, from whom, and whether it can still be accepted."""

    league = serializers.SerializerMethodField()
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    status = serializers.ChoiceField(choices=Invitation.Status.choices)
    invited_by = serializers.SerializerMethodField(help_text="The inviting owner's display name.")
    player = serializers.SerializerMethodField(help_text="The player's name whoever accepts becomes, or null.")
    expires_at = serializers.DateTimeField()

    def get_league(self, invitation: Invitation) -> dict:
        return {"id": invitation.league_id, "slug": invitation.league.slug, "name": invitation.league.name}

    def get_invited_by(self, invitation: Invitation) -> str:
        return display_name(invitation.created_by)

    def get_player(self, invitation: Invitation) -> str | None:
        return invitation.player.name if invitation.player_id else None


class LeaguePlayerIn(Strict):
    name = Text(max_length=80)
    allow_similar = JSONBoolean(
        required=False, default=False,
        help_text="Add them although a player's name differs only in case or spacing (someone else).")


class LeaguePlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    claimed = serializers.SerializerMethodField(help_text="Whether an account is this player.")
    claimed_by = serializers.SerializerMethodField(help_text="That account's display name, or null.")

    def get_claimed(self, player) -> bool:
        return player.user_id is not None

    def get_claimed_by(self, player) -> str | None:
        return display_name(player.user) if player.user_id else None


class LinkIn(Strict):
    username = Text(max_length=150, allow_null=True, help_text="A member's username; null unlinks the player.")


class MergeIn(Strict):
    keep = Id(help_text="The player who stays (and keeps their name).")
    merge = Id(help_text="The player whose games, standings and ratings become `keep`'s; then removed.")


class ClaimOut(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    league = serializers.IntegerField(source="league_id")
    user = serializers.SerializerMethodField(help_text="Who claims: display name and username.")
    status = serializers.ChoiceField(choices=PlayerClaim.Status.choices)

    class Meta:
        model = PlayerClaim
        fields = ["id", "player", "league", "user", "status", "created_at"]

    def get_player(self, claim: PlayerClaim) -> dict:
        return {"id": claim.player_id, "name": claim.player.name}

    def get_user(self, claim: PlayerClaim) -> dict:
        return {"display_name": display_name(claim.user), "username": claim.user.username}


class DecisionIn(Strict):
    approve = JSONBoolean(help_text="true: the user becomes the player; false: declined.")


class PublicIn(Strict):
    is_public = JSONBoolean(help_text="Anyone may follow the casual game (true), or only its "
                                      "players and scorekeepers (false).")
