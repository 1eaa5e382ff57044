from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api.serializers.common import Strict, Text

from .base import ApiView


class TokenIn(Strict):
    username = Text(max_length=150)
    password = Text(max_length=4096, trim_whitespace=False, style={"input_type": "password"})


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class TokenView(ApiView):
    """Trade a username and password for the user's API token."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(request=TokenIn, responses={200: TokenOut}, auth=[], tags=["auth"])
    def post(self, request):
        data = self.parse(TokenIn)
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise ValidationError({"non_field_errors": ["unable to sign in with that username and password"]})
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
