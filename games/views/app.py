"""The installable web app: its manifest, its service worker (served at the site root so that it may
control every page), and the page shown offline for a page that was never opened."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

STATIC_DIR = Path(settings.BASE_DIR) / "static"
# The worker itself: a plain script in the static folder, served at the site root (see service_worker).
WORKER = "sw.js"
# The files every page needs, kept by the service worker so that opened pages load offline: the styles,
# the icons and every script module (a module the table page imports must be there offline too).
SHELL_FILES = ("scorekeeper.css", "icon.svg", "icon-192.png", "icon-512.png")


def shell() -> list[str]:
    """The shell's files, as names in the static folder."""
    scripts = sorted(path.relative_to(STATIC_DIR).as_posix() for path in STATIC_DIR.rglob("*.js"))
    return [*SHELL_FILES, *(name for name in scripts if name != WORKER)]


@cache
def shell_version() -> str:
    """Changes whenever a shell file or the worker does, so that phones fetch the new shell (and only then)."""
    digest = hashlib.sha256()
    for name in [*shell(), WORKER]:
        digest.update(name.encode())
        digest.update((STATIC_DIR / name).read_bytes())
    return digest.hexdigest()[:12]


def service_worker_url() -> str:
    """Where pages register the worker: its version in the address, so that a new version installs anew."""
    return f"{reverse('service-worker')}?v={shell_version()}"


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """The service worker, at /sw.js: a worker under /static/ could not control the pages."""
    response = HttpResponse((STATIC_DIR / WORKER).read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker_shell(request):
    """What the service worker keeps when it installs: the shell's files under the names pages load
    them by (with their content hash in production), and the page shown offline."""
    return JsonResponse({"version": shell_version(), "files": [static(name) for name in shell()],
                         "offline": reverse("offline")})


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
