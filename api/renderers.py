"""CSV answers (``Accept: text/csv`` or ``?format=csv``) for the views that offer a table. Anything else asked
for gets JSON, as everywhere in the API (``api.negotiation``)."""

from __future__ import annotations

import json

from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.exports import Table, csv_text


class CSVRenderer(BaseRenderer):
    """A :class:`games.exports.Table` as a CSV download; anything else (an error) as JSON, like every error."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if isinstance(data, Table):
            if response is not None:
                response["Content-Disposition"] = f'attachment; filename="{data.filename}"'
            return csv_text(data)
        if response is not None:
            response["Content-Type"] = ("application/problem+json" if getattr(response, "exception", False)
                                        else "application/json")
        return json.dumps(data, default=str)


class OffersCSV:
    """Mixin for an API view that answers with a CSV table too."""

    request: Request
    renderer_classes = [*api_settings.DEFAULT_RENDERER_CLASSES, CSVRenderer]

    def wants_csv(self) -> bool:
        renderer = getattr(self.request, "accepted_renderer", None)
        return getattr(renderer, "format", None) == "csv"
