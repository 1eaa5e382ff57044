import os

from django.contrib import admin
from django.urls import include, path

from .observability import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("", include("games.urls")),
]
if os.environ.get("SCOREKEEPER_BENCH_ENDPOINT") == "1":  # the baseline of `make bench` (bench/endpoint.py)
    urlpatterns.append(path("bench/", include("bench.endpoint")))

handler400 = "scorekeeper.errors.bad_request"
handler403 = "scorekeeper.errors.permission_denied"
handler404 = "scorekeeper.errors.not_found"
handler500 = "scorekeeper.errors.server_error"
