"""Every answer under /api/v1/ that is an error is the one error shape: RFC 9457 Problem Details with our
``code``, as ``application/problem+json``, whoever produced it (a view, DRF, the URL resolver, Django's
limits on bodies and headers, an unexpected error, a database that is not answering)."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from scorekeeper.errors import server_error


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = json.loads(response.content)
    assert body["type"] == "about:blank"
    assert body["status"] == status
    assert body["code"] == code
    assert body["title"] and body["detail"]
    return body


@pytest.mark.parametrize("path", ["/api/v1/games/abc/", "/api/v1/nothing/", "/api/v1/games/1/hands/x/",
                                  "/api/v1/leagues/1/members/"])
def test_an_address_the_api_does_not_have_is_a_json_404(anonymous, path):
    assert_problem(anonymous.get(path, HTTP_ACCEPT="text/html"), 404, "not_found")


def test_a_body_over_the_upload_limit_is_a_json_413_not_an_error_in_the_logs(as_owner, caplog, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    with caplog.at_level(logging.WARNING):
        response = as_owner.post("/api/v1/players/", '{"name": "' + "x" * 20_000 + '"}',
                                 content_type="application/json")
    assert_problem(response, 413, "payload_too_large")
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_a_form_over_the_upload_limit_is_a_413_page(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = client.post("/accounts/login/", {"username": "x" * 20_000, "password": "y"})
    assert response.status_code == 413
    assert "Too large" in response.content.decode()


def test_a_header_longer_than_the_app_server_passes_on_is_a_json_431(as_owner):
    response = as_owner.post("/api/v1/players/", {"name": "Ann"}, format="json",
                             HTTP_IDEMPOTENCY_KEY="k" * 20_000)
    body = assert_problem(response, 431, "header_too_large")
    assert "Idempotency-Key" in body["detail"]


def test_an_idempotency_key_too_long_for_us_is_a_json_400(as_owner):
    response = as_owner.post("/api/v1/players/", {"name": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY="k" * 201)
    body = assert_problem(response, 400, "invalid")
    assert body["idempotency_key"] == ["an idempotency key is 1 to 200 printable ASCII characters"]


@pytest.mark.parametrize(("call", "status", "code"), [
    (lambda client: client.post("/api/v1/players/", {"name": "Ann"}, format="json"), 401, "not_authenticated"),
    (lambda client: client.post("/api/v1/players/", "name=Ann", content_type="text/plain"), 401,
     "not_authenticated"),
    (lambda client: client.get("/api/v1/games/999/"), 404, "not_found"),
    (lambda client: client.delete("/api/v1/games/"), 401, "not_authenticated"),
    (lambda client: client.generic("TRACE", "/api/v1/games/"), 405, "method_not_allowed"),
])
def test_refusals_are_problem_details(anonymous, call, status, code):
    assert_problem(call(anonymous), status, code)


def test_a_body_that_is_not_json_is_a_415(as_owner):
    assert_problem(as_owner.post("/api/v1/players/", "name=Ann", content_type="text/plain"), 415,
                   "unsupported_media_type")


def test_a_field_named_like_a_key_of_the_shape_keeps_its_name_in_the_message(anonymous):
    body = assert_problem(anonymous.get("/api/v1/games/?status=lost"), 400, "invalid")
    assert body["status"] == 400
    assert body["non_field_errors"] == ['status: "lost" is not a valid choice.']


def raised_and_answered(error: Exception, path: str):
    request = RequestFactory().get(path)
    try:
        raise error
    except type(error):
        assert sys.exc_info()[1] is error
        return server_error(request)


def test_an_unexpected_error_is_a_json_500_under_the_api():
    response = raised_and_answered(RuntimeError("a bug"), "/api/v1/games/")
    assert_problem(response, 500, "server_error")


def test_an_unexpected_error_is_a_page_elsewhere():
    response = raised_and_answered(RuntimeError("a bug"), "/games/1/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    assert "Something went wrong" in response.content.decode()


@pytest.mark.parametrize("path", ["/api/v1/games/1/hands/", "/games/1/"])
def test_a_database_that_does_not_answer_is_a_503_to_retry(path):
    response = raised_and_answered(OperationalError("connection refused"), path)
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    if path.startswith("/api/"):
        assert_problem(response, 503, "unavailable")


def test_an_error_page_that_cannot_be_rendered_is_answered_plainly(settings):
    # As in production before collectstatic: every {% static %} in the page's template fails.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
    settings.STATIC_ROOT = "/nonexistent-static-root"
    response = raised_and_answered(OperationalError("connection refused"), "/games/1/")
    assert response.status_code == 503
    assert "Back in a moment" in response.content.decode()
