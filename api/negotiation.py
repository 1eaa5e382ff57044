"""Content negotiation that never fails: the API speaks JSON, whatever a client says it accepts.

A browser (``Accept: text/html``), ``?format=api`` or any media type the API cannot produce gets the
JSON answer instead of a 406 or a 404 (RFC 9110 lets a server disregard ``Accept``).
"""

from __future__ import annotations

from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class JSONWhateverTheAccept(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except (NotAcceptable, Http404):
            return renderers[0], renderers[0].media_type
