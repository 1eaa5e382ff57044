"""A league's webhook endpoints and their delivery log (owners only)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import WEBHOOK_EVENTS, WebhookDelivery, WebhookEndpoint, display_name

from .common import Strict, Text

EVENTS_HELP = "The events sent to it: " + "; ".join(f"`{name}`: {what}" for name, what in WEBHOOK_EVENTS.items())


@extend_schema_field({"type": "array", "minItems": 1, "items": {"type": "string", "enum": list(WEBHOOK_EVENTS)},
                      "description": EVENTS_HELP})
class Events(serializers.ListField):
    """The events an endpoint asks for (checked by the service, which names the valid ones)."""

    def __init__(self, **kwargs):
        super().__init__(child=Text(max_length=40), max_length=len(WEBHOOK_EVENTS) * 2, **kwargs)


class WebhookIn(Strict):
    url = Text(max_length=500, help_text="Where events are sent: https:// (http:// outside production), "
                                         "on a public address in production.")
    events = Events()
    description = Text(max_length=200, required=False, allow_blank=True, default="")


class WebhookUpdate(Strict):
    url = Text(max_length=500, required=False)
    events = Events(required=False)
    description = Text(max_length=200, required=False, allow_blank=True)
    is_active = serializers.BooleanField(required=False, help_text="false pauses the endpoint: nothing is sent.")


class WebhookOut(serializers.ModelSerializer):
    events = serializers.ListField(child=serializers.CharField(), help_text=EVENTS_HELP)
    secret = serializers.CharField(help_text="The signing secret (`whsec_...`): verify each delivery's "
                                             "`webhook-signature` with it (docs/webhooks.md).")
    created_by = serializers.SerializerMethodField(help_text="Who registered it: their display name.")

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "league", "url", "events", "description", "is_active", "secret", "created_by",
                  "created_at"]

    def get_created_by(self, endpoint: WebhookEndpoint) -> str | None:
        return display_name(endpoint.created_by) if endpoint.created_by_id else None


class AttemptOut(serializers.Serializer):
    at = serializers.DateTimeField()
    status_code = serializers.IntegerField(allow_null=True, help_text="The receiver's answer; null if none came.")
    error = serializers.CharField(allow_blank=True, help_text="Why the attempt failed; empty if it succeeded.")
    response = serializers.CharField(allow_blank=True, help_text="The start of the receiver's answer.")
    milliseconds = serializers.IntegerField()


class DeliveryOut(serializers.ModelSerializer):
    attempts = AttemptOut(many=True)
    payload = serializers.DictField(help_text="The body sent: `type`, `timestamp`, `data`.")
    next_attempt_at = serializers.SerializerMethodField(help_text="When it is tried again (while retrying).")

    class Meta:
        model = WebhookDelivery
        fields = ["id", "message_id", "event", "status", "attempt_count", "attempts", "next_attempt_at",
                  "created_at", "delivered_at", "payload"]

    def get_next_attempt_at(self, delivery: WebhookDelivery) -> str | None:
        waiting = (WebhookDelivery.Status.PENDING, WebhookDelivery.Status.RETRYING)
        if delivery.status not in waiting:
            return None
        return serializers.DateTimeField().to_representation(delivery.next_attempt_at)
