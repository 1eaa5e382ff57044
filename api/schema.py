"""The OpenAPI description: every operation documents the error shape for the statuses it can give."""

from __future__ import annotations

import threading

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.views import SpectacularAPIView

from api.exceptions import PROBLEM_JSON
from api.serializers.common import Error, JSONObject, Strict

ERROR_DESCRIPTIONS = {
    400: "Invalid input: field errors (see the error shape in docs/api.md).",
    401: "Not signed in: send `Authorization: Token <key>`.",
    403: "Signed in, but not allowed to do this.",
    404: "No such object, or one in a private league you are not a member of.",
    405: "Method not allowed (`Allow` lists those that are).",
    409: "Conflict with the game as it now stands (see `state`), or a closed game.",
    410: "The invitation can no longer be accepted: expired, used up, withdrawn or declined.",
    412: "The hand has changed since the version sent in `If-Match`; nothing was changed.",
    413: "The request body is larger than the server accepts.",
    415: "Send the body as application/json.",
    422: "This Idempotency-Key was used earlier with a different request.",
    429: "Too many requests: wait the seconds in `Retry-After`.",
    503: "The database is not answering (a restart, a failover): retry after `Retry-After`, with the same "
         "Idempotency-Key for a write.",
}
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer", "minimum": 0},
                               "description": "Seconds to wait before sending the request again."}}


class ScorekeeperSchema(AutoSchema):
    """The views' own responses plus the error statuses every request (and the view's ``error_statuses``)
    can give, each with the one error shape as ``application/problem+json``."""

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, JSONObject):
            schema = {**{key: value for key, value in schema.items() if key != "nullable"},
                      "type": "object", "additionalProperties": True}
        pattern = getattr(field, "pattern", None)
        if isinstance(pattern, str) and direction == "request":
            schema["pattern"] = pattern
        return schema

    def _map_serializer(self, serializer, direction, bypass_extensions=False):
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        if not type(serializer).__dict__.get("__doc__"):
            schema.pop("description", None)  # not the docstring of a base class
        if isinstance(serializer, Strict) and direction == "request":
            schema["additionalProperties"] = False  # unknown fields are refused
        return schema

    def header_parameters(self) -> set[str]:
        return {parameter.name for parameter in self.get_override_parameters()
                if getattr(parameter, "location", None) == "header" and not getattr(parameter, "response", False)}

    def error_statuses(self) -> set[int]:
        statuses = {400, 401, 404, 405, 429, 503}
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            statuses |= {403, 413, 415} | set(getattr(self.view, "error_statuses", ()))
        headers = self.header_parameters()
        if "Idempotency-Key" in headers:
            statuses.add(422)
        if "If-Match" in headers:
            statuses.add(412)
        return statuses

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code in sorted(self.error_statuses()):
            if str(code) not in responses:
                response = self._get_response_for_code(Error, str(code), media_types=[PROBLEM_JSON],
                                                       direction=direction)
                response["description"] = ERROR_DESCRIPTIONS[code]
                if code in (429, 503):
                    response["headers"] = RETRY_AFTER
                responses[str(code)] = response
        return responses


# What a client can do next with what an answer gave it (OpenAPI links): the new game's id leads to its
# hands, a new hand's number to its corrections, and so on. Each: (path, method, status) of the answer
# -> {link name: ((path, method) of the next operation, {its parameter: where the value comes from})}.
LINKS: dict[tuple[str, str, str], dict[str, tuple[tuple[str, str], dict[str, str]]]] = {
    ("/api/v1/games/", "post", "201"): {
        "GetGame": (("/api/v1/games/{id}/", "get"), {"id": "$response.body#/id"}),
        "RecordHand": (("/api/v1/games/{id}/hands/", "post"), {"id": "$response.body#/id"}),
        "ListHands": (("/api/v1/games/{id}/hands/", "get"), {"id": "$response.body#/id"}),
        "AbandonGame": (("/api/v1/games/{id}/abandon/", "post"), {"id": "$response.body#/id"}),
        "GetScorekeepers": (("/api/v1/games/{id}/scorekeepers/", "get"), {"id": "$response.body#/id"}),
        "AddScorekeeper": (("/api/v1/games/{id}/scorekeepers/", "post"), {"id": "$response.body#/id"}),
    },
    ("/api/v1/games/{id}/hands/", "post", "201"): {
        "GetHand": (("/api/v1/games/{id}/hands/{number}/", "get"),
                    {"id": "$request.path.id", "number": "$response.body#/number"}),
        "ReplaceHand": (("/api/v1/games/{id}/hands/{number}/", "put"),
                        {"id": "$request.path.id", "number": "$response.body#/number"}),
        "CorrectHand": (("/api/v1/games/{id}/hands/{number}/", "patch"),
                        {"id": "$request.path.id", "number": "$response.body#/number"}),
        "UndoHand": (("/api/v1/games/{id}/hands/{number}/", "delete"),
                     {"id": "$request.path.id", "number": "$response.body#/number"}),
        "HandRevisions": (("/api/v1/games/{id}/hands/{number}/revisions/", "get"),
                          {"id": "$request.path.id", "number": "$response.body#/number"}),
    },
    ("/api/v1/games/{id}/scorekeepers/", "post", "201"): {
        "RemoveScorekeeper": (("/api/v1/games/{id}/scorekeepers/{username}/", "delete"),
                              {"id": "$request.path.id", "username": "$request.body#/username"}),
    },
    ("/api/v1/matches/", "post", "201"): {
        "GetMatch": (("/api/v1/matches/{id}/", "get"), {"id": "$response.body#/id"}),
    },
    ("/api/v1/players/", "post", "201"): {
        "GetPlayer": (("/api/v1/players/{id}/", "get"), {"id": "$response.body#/id"}),
        "RenamePlayer": (("/api/v1/players/{id}/", "patch"), {"id": "$response.body#/id"}),
        "PlayerRatings": (("/api/v1/players/{id}/ratings/", "get"), {"id": "$response.body#/id"}),
    },
    ("/api/v1/leagues/", "post", "201"): {
        "GetLeague": (("/api/v1/leagues/{id}/", "get"), {"id": "$response.body#/id"}),
        "ChangeLeague": (("/api/v1/leagues/{id}/", "patch"), {"id": "$response.body#/id"}),
        "ListMembers": (("/api/v1/leagues/{id}/members/", "get"), {"id": "$response.body#/id"}),
        "AddMember": (("/api/v1/leagues/{id}/members/", "post"), {"id": "$response.body#/id"}),
        "Standings": (("/api/v1/leagues/{id}/standings/", "get"), {"id": "$response.body#/id"}),
        "ListNights": (("/api/v1/leagues/{id}/nights/", "get"), {"id": "$response.body#/id"}),
        "StartNight": (("/api/v1/leagues/{id}/nights/", "post"), {"id": "$response.body#/id"}),
    },
    ("/api/v1/leagues/{id}/nights/", "post", "201"): {
        "GetNight": (("/api/v1/nights/{id}/", "get"), {"id": "$response.body#/id"}),
        "CheckIn": (("/api/v1/nights/{id}/check-in/", "post"), {"id": "$response.body#/id"}),
        "StartRound": (("/api/v1/nights/{id}/rounds/", "post"), {"id": "$response.body#/id"}),
        "EndNight": (("/api/v1/nights/{id}/end/", "post"), {"id": "$response.body#/id"}),
        "NightResults": (("/api/v1/nights/{id}/results.csv", "get"), {"id": "$response.body#/id"}),
    },
    ("/api/v1/leagues/{id}/members/", "post", "201"): {
        "GetMember": (("/api/v1/leagues/{id}/members/{username}/", "get"),
                      {"id": "$request.path.id", "username": "$response.body#/username"}),
        "ChangeRole": (("/api/v1/leagues/{id}/members/{username}/", "patch"),
                       {"id": "$request.path.id", "username": "$response.body#/username"}),
        "RemoveMember": (("/api/v1/leagues/{id}/members/{username}/", "delete"),
                         {"id": "$request.path.id", "username": "$response.body#/username"}),
    },
}


def add_links(result, generator, request, public):
    """SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]: the LINKS above, by operationId."""
    paths = result.get("paths", {})
    for (path, method, status), links in LINKS.items():
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is None:
            continue
        response["links"] = {
            name: {"operationId": paths[target][target_method]["operationId"], "parameters": parameters}
            for name, ((target, target_method), parameters) in links.items()
            if target_method in paths.get(target, {})
        }
    return result


class SchemaView(SpectacularAPIView):
    """``GET schema/``: drf-spectacular's view, its schema built by one thread at a time.

    Building it walks every view through the schema inspectors REST framework attaches to the view classes, which
    keep the view being described on themselves: two threads of one process building it at once (gunicorn's
    threaded workers, several clients loading the schema together) describe each other's views and fail with a
    500. A lock makes the builds take turns."""

    building = threading.Lock()

    def _get_schema_response(self, request):
        with self.building:
            return super()._get_schema_response(request)
