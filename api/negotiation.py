"""Content negotiation for an API that speaks JSON (and, where a view offers a table, CSV).

A browser (``Accept: text/html``), ``?format=api`` or any media type the API cannot produce gets the
JSON answer instead of a 406 or a 404 (RFC 9110 lets a server disregard ``Accept``). A ``?format=`` the
API does not know is a mistake in the query, though, and answered as one: a 400 naming the parameter.
"""

from __future__ import annotations

import json

from django.http import Http404
from rest_framework.exceptions import NotAcceptable, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.settings import api_settings

# The browsable API's format: asked for by browsers and old links, answered with JSON.
BROWSABLE = "api"


class JSONWhateverTheAccept(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        asked = format_suffix or request.query_params.get(api_settings.URL_FORMAT_OVERRIDE)
        offered = [renderer.format for renderer in renderers]
        if asked is not None and asked != BROWSABLE and asked not in offered:
            raise ValidationError({"format": [f"{json.dumps(asked)} is not a format offered here: "
                                              f"one of {', '.join(offered)}"]})
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except (NotAcceptable, Http404):
            return renderers[0], renderers[0].media_type
