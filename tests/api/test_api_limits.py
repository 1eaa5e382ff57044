"""Request limits: anonymous reads per address, writes per user, token requests per address (429 with
``Retry-After``); the token endpoint's answer to a locked-out sign-in; failed sign-ins per address across
usernames. Each test sets its own low rates and counts in a fresh part of the cache."""

from __future__ import annotations

import logging
import time
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import caches

from games.models import Player

PASSWORD = "a-long-table-password"


@pytest.fixture
def limits(settings, monkeypatch):
    """``limits(anonymous_reads="3/minute", ...)``: these rates (others unlimited), counted from zero.

    The limits' clock stands still half-way through an hour's and a minute's window: the counts are per clock
    window, so a test that ran across the turn of a minute would start counting again half-way."""
    half_way = time.time() // 3600 * 3600 + 1800 + 30
    monkeypatch.setattr("scorekeeper.limits.time", SimpleNamespace(time=lambda: half_way))

    def set_limits(**rates: str) -> None:
        scopes = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                                   "DEFAULT_THROTTLE_RATES": {scope: rates.get(scope) for scope in scopes}}
        settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": uuid.uuid4().hex}}

    return set_limits


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "throttled"
    assert 1 <= int(response["Retry-After"]) <= 60


def test_anonymous_reads_are_limited_per_address(anonymous, as_owner, limits):
    limits(anonymous_reads="5/minute")
    for _ in range(5):
        assert anonymous.get("/api/v1/leagues/").status_code == 200
    assert_throttled(anonymous.get("/api/v1/players/"))
    # Another address, and anyone signed in, are counted apart.
    assert anonymous.get("/api/v1/leagues/", REMOTE_ADDR="10.0.0.7").status_code == 200
    for _ in range(6):
        assert as_owner.get("/api/v1/leagues/").status_code == 200


def test_writes_are_limited_per_user(client_for, owner, stranger, limits):
    limits(user_writes="3/minute")
    for name in ("Ann", "Ben", "Cat"):
        assert client_for(owner).post("/api/v1/players/", {"name": name}, format="json").status_code == 201
    assert_throttled(client_for(owner).post("/api/v1/players/", {"name": "Dan"}, format="json"))
    assert not Player.objects.filter(name="Dan").exists()
    assert client_for(stranger).post("/api/v1/players/", {"name": "Dan"}, format="json").status_code == 201
    assert client_for(owner).get("/api/v1/players/").status_code == 200  # reads are not writes


def test_token_requests_are_limited_per_address(anonymous, owner, limits):
    limits(token_requests="3/minute")
    for password in ("wrong", "wrong", PASSWORD):
        anonymous.post("/api/v1/auth/token/", {"username": "owner", "password": password}, format="json")
    assert_throttled(anonymous.post("/api/v1/auth/token/", {"username": "owner", "password": PASSWORD},
                                    format="json"))


@pytest.fixture
def sign_in_limits(settings):
    settings.AXES_ENABLED = True
    settings.AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend",
                                        "scorekeeper.accounts.AccountBackend"]
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 5


def token(client, username: str, password: str, **extra):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password}, format="json", **extra)


def test_the_token_endpoint_answers_429_while_the_account_is_locked(anonymous, owner, sign_in_limits):
    assert token(anonymous, "owner", "wrong").status_code == 400
    assert token(anonymous, "owner", "wrong").status_code == 400
    assert_throttled_sign_in(token(anonymous, "owner", "wrong"))
    # Locked: even the right password is refused, and said to be a lock-out, not a wrong password.
    assert_throttled_sign_in(token(anonymous, "owner", PASSWORD))


def assert_throttled_sign_in(response) -> None:
    assert response.status_code == 429, response.content
    assert response.json()["code"] == "throttled"
    assert int(response["Retry-After"]) == 15 * 60


def test_failed_sign_ins_are_limited_per_address_across_usernames(anonymous, client, make_user, sign_in_limits):
    make_user("victim")
    for n in range(5):  # one password tried against many accounts, none of them failing three times
        assert token(anonymous, f"user{n}", "Summer2024!").status_code == 400
    assert_throttled_sign_in(token(anonymous, "victim", PASSWORD))
    response = client.post("/accounts/login/", {"username": "victim", "password": PASSWORD})
    assert response.status_code == 429
    assert response["Retry-After"] == str(15 * 60)
    assert "Too many failed sign-ins" in response.content.decode()
    # Another address is not locked out.
    assert token(anonymous, "victim", PASSWORD, REMOTE_ADDR="10.0.0.9").status_code == 200


def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw(anonymous, make_user, sign_in_limits, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    make_user("victim")
    for n in range(5):
        token(anonymous, f"user{n}", "Summer2024!", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5")
    # A client writing its own X-Forwarded-For cannot step out of its lock-out...
    assert_throttled_sign_in(token(anonymous, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.5"))
    # ... and the clients behind other addresses are not locked out with it.
    assert token(anonymous, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 200


def test_limits_are_skipped_not_failed_while_the_cache_is_down(as_owner, limits, settings, caplog):
    limits(user_writes="1/minute")
    settings.CACHES = {"default": {"BACKEND": "scorekeeper.redis_cache.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    with caplog.at_level(logging.WARNING, logger="scorekeeper.limits"):
        for name in ("Ann", "Ben"):
            assert as_owner.post("/api/v1/players/", {"name": name}, format="json").status_code == 201
    assert "the cache cannot be reached" in caplog.text


@pytest.mark.services
def test_counts_are_shared_through_redis_by_every_app_server(client_for, owner, limits, redis_url, settings):
    limits(user_writes="2/minute")
    settings.CACHES = {"default": {**settings.CACHES["default"], "BACKEND":
                                   "scorekeeper.redis_cache.RedisCache", "LOCATION": redis_url}}
    for name in ("Ann", "Ben"):
        assert client_for(owner).post("/api/v1/players/", {"name": name}, format="json").status_code == 201
    caches.close_all()
    del caches["default"]  # another app server: a connection of its own to the same Redis
    assert_throttled(client_for(owner).post("/api/v1/players/", {"name": "Cat"}, format="json"))


def sign_up(client, n: int, **extra):
    return client.post("/api/v1/auth/signup/", {"username": f"new{n}", "password": "shuffle-up-and-deal",
                                                  "display_name": f"New {n}"}, format="json", **extra)


def test_sign_ups_are_limited_per_address_in_the_api_and_on_the_site(anonymous, client, limits, settings):
    settings.SIGNUP = "open"
    limits(signups="3/minute")
    assert [sign_up(anonymous, n).status_code for n in range(2)] == [201, 201]
    page = {"username": "new9", "password1": "shuffle-up-and-deal", "password2": "shuffle-up-and-deal",
            "display_name": "New 9"}
    assert client.post("/accounts/signup/", page).status_code == 302  # the third, through the site's form
    assert_throttled(sign_up(anonymous, 3))
    client.logout()  # signed in by the sign-up
    refused = client.post("/accounts/signup/", {**page, "username": "new10"})
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many sign-ups" in refused.content.decode()
    # Another address is counted on its own.
    assert sign_up(anonymous, 4, REMOTE_ADDR="203.0.113.9").status_code == 201
