"""The health endpoint and request ids."""

from __future__ import annotations

import logging

import pytest
from django.test import override_settings


@pytest.mark.django_db
def test_healthz_checks_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_healthz_reports_redis_down(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"].startswith("error")


@pytest.mark.django_db
def test_healthz_checks_redis_when_configured(client, redis_url):
    assert client.get("/healthz").json()["checks"]["redis"] == "ok"


@pytest.mark.django_db
def test_every_response_carries_a_request_id_and_a_sane_incoming_one_is_kept(client):
    assert len(client.get("/healthz")["X-Request-ID"]) == 32
    assert client.get("/healthz", HTTP_X_REQUEST_ID="table-7.abc")["X-Request-ID"] == "table-7.abc"
    assert client.get("/healthz", HTTP_X_REQUEST_ID="bad id\n")["X-Request-ID"] != "bad id\n"


@pytest.mark.django_db
def test_log_lines_written_during_a_request_carry_its_id(client, caplog):
    from scorekeeper.observability import RequestIdFilter

    caplog.handler.addFilter(RequestIdFilter())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get("/no-such-page/", HTTP_X_REQUEST_ID="req-42")
    assert any(getattr(record, "request_id", None) == "req-42" for record in caplog.records)


@pytest.mark.django_db
def test_sign_in_is_rate_limited(client, make_user):
    make_user("ann", password="the-right-password")
    backends = ["axes.backends.AxesStandaloneBackend", "scorekeeper.accounts.AccountBackend"]
    with override_settings(AXES_ENABLED=True, AUTHENTICATION_BACKENDS=backends, AXES_FAILURE_LIMIT=3):
        for _ in range(3):
            client.post("/admin/login/", {"username": "ann", "password": "wrong"})
        locked = client.post("/admin/login/", {"username": "ann", "password": "the-right-password"})
    assert locked.status_code == 429
