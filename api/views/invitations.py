"""Invitations: a league's owners make them; whoever holds one reads it and accepts it (or, addressed to
them, declines it)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from api.serializers.club import InvitationIn, InvitationOut, InvitationPublicOut
from api.serializers.people import MemberOut
from games import policy, selectors, services
from games.errors import NotAllowed
from games.models import Invitation

from .base import IDEMPOTENCY_KEY, LOCATION, ApiView, created, idempotency_key, one
from .leagues import visible_league


def managed_league(user, pk: int):
    league = visible_league(user, pk)
    if not policy.can_manage_league(user, league):
        raise NotAllowed("only the league's owners can see and make its invitations")
    return league


class LeagueInvitations(ApiView):
    """A league's invitations (owners only): a link for members or scorekeepers, or one for a user by name."""

    @extend_schema(responses=InvitationOut(many=True), tags=["invitations"])
    def get(self, request, pk: int):
        league = managed_league(request.user, pk)
        invitations = Invitation.objects.filter(league=league).select_related("invitee").order_by("-created_at")
        page = self.paginate_queryset(invitations)
        return self.get_paginated_response(InvitationOut(page, many=True, context={"request": request}).data)

    @extend_schema(request=InvitationIn, responses={201: InvitationOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=["invitations"])
    def post(self, request, pk: int):
        league = managed_league(request.user, pk)
        key = idempotency_key(request)
        data = self.parse(InvitationIn)
        player = None
        if data["player"] is not None:
            player = league.players.filter(pk=data["player"]).first()
            if player is None:
                raise ValidationError({"player": [f"there is no player {data['player']} in this league"]})
        invitation = services.invitation_create(
            league=league, role=data["role"], days=data["days"], max_uses=data["max_uses"],
            invitee_name=data["username"], player=player, by=request.user,
            idempotency_key=key)
        return created(InvitationOut(invitation, context={"request": request}).data, "api-invitation",
                       invitation.token)


class LeagueInvitation(ApiView):
    @extend_schema(request=None, responses={200: InvitationOut}, tags=["invitations"])
    def delete(self, request, pk: int, invitation_id: int):
        """Withdraw the invitation: it can no longer be accepted (who accepted it stays)."""
        league = managed_league(request.user, pk)
        invitation = one(Invitation.objects.filter(league=league).select_related("league"), invitation_id,
                         "invitation")
        invitation = services.invitation_revoke(invitation=invitation, by=request.user)
        return Response(InvitationOut(invitation, context={"request": request}).data)


def held_invitation(token: str) -> Invitation:
    invitation = (Invitation.objects.select_related("league", "player", "created_by")
                  .filter(token=token[:64]).first())
    if invitation is None:
        raise NotFound("there is no such invitation")
    return invitation


class InvitationView(ApiView):
    """An invitation as whoever holds its token sees it."""

    @extend_schema(responses=InvitationPublicOut, tags=["invitations"])
    def get(self, request, token: str):
        return Response(InvitationPublicOut(held_invitation(token)).data)


class InvitationAccept(ApiView):
    """Join the league with the invitation's role (or take that higher role); 410 once it cannot be accepted."""

    error_statuses = (410,)

    @extend_schema(request=None, responses={201: MemberOut}, tags=["invitations"])
    def post(self, request, token: str):
        held_invitation(token)
        membership = services.invitation_accept(token=token, by=request.user)
        return Response(MemberOut(membership).data, status=status.HTTP_201_CREATED)


class InvitationDecline(ApiView):
    """Say no to an invitation addressed to you."""

    error_statuses = (410,)

    @extend_schema(request=None, responses={200: InvitationPublicOut}, tags=["invitations"])
    def post(self, request, token: str):
        held_invitation(token)
        return Response(InvitationPublicOut(services.invitation_decline(token=token, by=request.user)).data)


class MyInvitations(ApiView):
    """Open invitations addressed to you."""

    permission_classes = [IsAuthenticated]
    pagination_class = None

    @extend_schema(responses=InvitationOut(many=True), tags=["invitations"])
    def get(self, request):
        invitations = selectors.invitations_for(user=request.user)
        return Response(InvitationOut(invitations, many=True, context={"request": request}).data)
