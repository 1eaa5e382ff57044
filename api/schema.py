"""The OpenAPI description: every operation documents the error shape for the statuses it can give."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

from api.serializers.common import Error

ERROR_DESCRIPTIONS = {
    400: "Invalid input: field errors (see the error shape in docs/api.md).",
    401: "Not signed in: send `Authorization: Token <key>`.",
    403: "Signed in, but not allowed to do this.",
    404: "No such object, or one in a private league you are not a member of.",
    405: "Method not allowed.",
    406: "Cannot answer in the media type asked for.",
    409: "Conflict with the game as it now stands (see `state`), a closed game, or a request in flight "
         "(see `Retry-After`).",
    410: "The invitation can no longer be accepted: expired, used up, withdrawn or declined.",
    415: "Send the body as application/json.",
    422: "This Idempotency-Key was used earlier with a different body.",
}


class ScorekeeperSchema(AutoSchema):
    """The views' own responses plus the view's ``error_statuses``, each with the one error shape."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        statuses = set(getattr(self.view, "error_statuses", ())) | {400, 401, 404, 405, 406}
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            statuses |= {403, 415}
        for code in sorted(statuses):
            if str(code) not in responses:
                response = self._get_response_for_code(Error, str(code), direction=direction)
                response["description"] = ERROR_DESCRIPTIONS[code]
                responses[str(code)] = response
        return responses
