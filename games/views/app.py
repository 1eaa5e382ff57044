"""The installable web app: its manifest, its service worker (served at the site root so that it may
control every page), and the page shown offline for a page that was never opened."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# The files every page needs, kept by the service worker so that opened pages load offline.
SHELL = ("scorekeeper.css", "scorekeeper.js", "outbox.js", "table.js", "icon.svg", "icon-192.png", "icon-512.png")


@cache
def shell_version() -> str:
    """Changes whenever a shell file or the worker does, so that phones fetch the new shell (and only then)."""
    digest = hashlib.sha256()
    for path in [finders.find(name) for name in SHELL] + [Path(settings.BASE_DIR) / "templates" / "sw.js"]:
        if path:
            digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:12]


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """The service worker, at /sw.js: a worker under /static/ could not control the pages."""
    response = render(request, "sw.js", {
        "version": shell_version(),
        "shell": [static(name) for name in SHELL],
        "offline_url": "/offline/",
    }, content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    return JsonResponse({
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Scores and leagues for partnership card games, kept at the table.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fdfcf8",
        "theme_color": "#0b5d3b",
        "icons": [
            {"src": static("icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }, content_type="application/manifest+json")


@require_GET
def offline(request):
    """Shown by the service worker for a page that was never opened on this phone, while offline."""
    return render(request, "offline.html")
