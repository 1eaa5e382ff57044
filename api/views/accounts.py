"""Signing up through the API, and the signed-in user's own profile."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from api.serializers.club import MeIn, MeOut, SignupIn, SignupOut
from api.throttles import SignupRequests
from games import selectors, services
from games.models import display_name

from .base import ApiView


class SignupView(ApiView):
    """Create an account (sign-up may be by invitation only: then send an open invitation's token).

    Answers with the new user's API token. Accepting the invitation is a separate step
    (`invitations/{token}/accept/`), as on the site. An invitation makes at most as many accounts as it may
    be accepted (one for a single-use invitation), and an invitation addressed to a user makes none (they
    have an account). Limited per address with the site's sign-up form (``THROTTLE_SIGNUPS``): 429 with
    `Retry-After`.
    """

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]
    throttle_classes = [SignupRequests]

    @extend_schema(request=SignupIn, responses={201: SignupOut}, auth=[], tags=["auth"])
    def post(self, request):
        user = services.account_signup(**self.parse(SignupIn))
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "username": user.username, "display_name": display_name(user)},
                        status=status.HTTP_201_CREATED)


def me_body(user) -> dict:
    players = selectors.my_players(user=user)
    return MeOut({"username": user.username, "display_name": display_name(user), "email": user.email,
                  "players": [{"id": player.pk, "name": player.name,
                               "leagues": sorted(league.pk for league in player.leagues.all())}
                              for player in players]}).data


class MeView(ApiView):
    """You: your display name (what others see), email (for password resets) and the players you are."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeOut, tags=["auth"])
    def get(self, request):
        return Response(me_body(request.user))

    @extend_schema(request=MeIn, responses=MeOut, tags=["auth"])
    def patch(self, request):
        services.profile_update(user=request.user, by=request.user, **self.parse(MeIn))
        return Response(me_body(request.user))
