"""A league's webhooks: its owners register endpoints, pause or change them, send a test event and read
the delivery log. Anyone else who may see the league gets a 403; a private league is a 404 to outsiders."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response

from api.serializers.webhooks import DeliveryOut, WebhookIn, WebhookOut, WebhookUpdate
from games import policy, services
from games.errors import NotAllowed
from games.models import WebhookEndpoint

from .base import ApiView, one
from .leagues import visible_league


def managed_league(user, pk: int):
    if not user.is_authenticated:
        raise NotAuthenticated()
    league = visible_league(user, pk)
    if not policy.can_manage_league(user, league):
        raise NotAllowed("only the league's owners manage its webhooks")
    return league


def league_endpoint(user, pk: int, webhook_id: int) -> WebhookEndpoint:
    league = managed_league(user, pk)
    return one(WebhookEndpoint.objects.filter(league=league).select_related("league", "created_by"), webhook_id,
               "webhook")


class WebhookList(ApiView):
    """The league's webhook endpoints; POST registers one (with its own signing secret). Owners only."""

    error_statuses = (422,)

    @extend_schema(responses=WebhookOut(many=True), tags=["webhooks"])
    def get(self, request, pk: int):
        league = managed_league(request.user, pk)
        return self.page(WebhookEndpoint.objects.filter(league=league).select_related("created_by")
                         .order_by("created_at", "id"), WebhookOut)

    @extend_schema(request=WebhookIn, responses={201: WebhookOut}, tags=["webhooks"])
    def post(self, request, pk: int):
        league = managed_league(request.user, pk)
        endpoint = services.webhook_create(league=league, by=request.user, **self.parse(WebhookIn),
                                           idempotency_key=request.headers.get("Idempotency-Key"))
        return Response(WebhookOut(endpoint).data, status=status.HTTP_201_CREATED)


class WebhookDetail(ApiView):
    @extend_schema(responses=WebhookOut, tags=["webhooks"])
    def get(self, request, pk: int, webhook_id: int):
        return Response(WebhookOut(league_endpoint(request.user, pk, webhook_id)).data)

    @extend_schema(request=WebhookUpdate, responses=WebhookOut, tags=["webhooks"])
    def patch(self, request, pk: int, webhook_id: int):
        endpoint = league_endpoint(request.user, pk, webhook_id)
        endpoint = services.webhook_update(endpoint=endpoint, by=request.user, **self.parse(WebhookUpdate))
        return Response(WebhookOut(endpoint).data)

    @extend_schema(request=None, responses={204: None}, tags=["webhooks"])
    def delete(self, request, pk: int, webhook_id: int):
        services.webhook_delete(endpoint=league_endpoint(request.user, pk, webhook_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookTest(ApiView):
    """Send the endpoint a `webhook.test` event now (one attempt): 202, and it shows in the delivery log."""

    @extend_schema(request=None, responses={202: DeliveryOut}, tags=["webhooks"])
    def post(self, request, pk: int, webhook_id: int):
        delivery = services.webhook_test(endpoint=league_endpoint(request.user, pk, webhook_id), by=request.user)
        return Response(DeliveryOut(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveries(ApiView):
    """The endpoint's delivery log, newest first: every event sent, each attempt and what came back."""

    @extend_schema(responses=DeliveryOut(many=True), tags=["webhooks"])
    def get(self, request, pk: int, webhook_id: int):
        endpoint = league_endpoint(request.user, pk, webhook_id)
        return self.page(endpoint.deliveries.order_by("-created_at", "-id"), DeliveryOut)
