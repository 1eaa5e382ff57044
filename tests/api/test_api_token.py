"""A token is read with its user by one statement, and refused as DRF refuses it."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext


def test_a_token_signs_its_user_in_with_one_statement(client_for, owner):
    client = client_for(owner)
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/api/v1/me/")
    assert response.status_code == 200 and response.json()["username"] == owner.username
    token_reads = [query["sql"] for query in captured.captured_queries if "authtoken_token" in query["sql"]]
    assert len(token_reads) == 1 and "auth_user" in token_reads[0]


def test_an_unknown_token_is_refused(client_for, db):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed" and response.json()["detail"] == "Invalid token."


def test_the_token_of_an_inactive_user_is_refused(client_for, owner):
    client = client_for(owner)
    owner.is_active = False
    owner.save(update_fields=["is_active"])
    response = client.get("/api/v1/me/")
    assert response.status_code == 401 and response.json()["detail"] == "User inactive or deleted."
