"""Answers that depend on who asked are for the asker alone.

A signed-in user (a session, or an API token) may be shown a private league, a private casual game,
login names, invitations: every answer to them is ``Cache-Control: private``, so no shared cache
(a proxy, a CDN) keeps it for the next visitor. Anonymous visitors only ever see public things.
"""

from __future__ import annotations

from django.utils.cache import patch_cache_control, patch_vary_headers


class PrivateWhenSignedInMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # DRF authenticates tokens inside the view and puts the user back on the request it was given.
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated) or "HTTP_AUTHORIZATION" in request.META:
            patch_cache_control(response, private=True)
            patch_vary_headers(response, ("Cookie", "Authorization"))
        return response
