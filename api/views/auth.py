from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api.serializers.common import Secret, Strict, Text
from api.throttles import TokenRequests
from scorekeeper.signin import cooloff_seconds

from .base import ApiView


class TokenIn(Strict):
    username = Text(max_length=150)
    password = Secret(max_length=4096, style={"input_type": "password"})


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class TokenView(ApiView):
    """Trade a username and password for the user's API token.

    Limited per address (``THROTTLE_TOKEN_REQUESTS``); with sign-in limits on, a username (or an
    address) with too many failures is refused with a 429 until its cool-off ends, as on the site.
    """

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]
    throttle_classes = [TokenRequests]

    @extend_schema(request=TokenIn, responses={200: TokenOut}, auth=[], tags=["auth"])
    def post(self, request):
        data = self.parse(TokenIn)
        # The sign-in limits (django-axes) read and mark Django's own request.
        django_request = request._request
        user = authenticate(django_request, username=data["username"].strip(), password=data["password"])
        if getattr(django_request, "axes_locked_out", False):
            raise Throttled(wait=cooloff_seconds(), detail="too many failed sign-ins; wait before trying again")
        if user is None or not user.is_active:
            raise ValidationError({"non_field_errors": ["unable to sign in with that username and password"]})
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
