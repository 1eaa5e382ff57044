"""Fixtures shared by every test, and the rule for tests that need PostgreSQL or Redis.

Such tests are marked ``services``. On a bare machine they skip when the service is not
configured; with ``REQUIRE_SERVICES=1`` (as in CI) a missing service fails them instead.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def using_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def need(condition: bool, what: str) -> None:
    """Skip (or, in CI, fail) a test whose service is missing."""
    if condition:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but not configured")
    pytest.skip(f"needs {what}")


@pytest.fixture
def postgres():
    need(using_postgres(), "PostgreSQL (DATABASE_URL=postgres://...)")


@pytest.fixture
def redis_url():
    need(bool(settings.REDIS_URL), "Redis (REDIS_URL=redis://...)")
    return settings.REDIS_URL


# --- named actors and a league to act in ----------------------------------------------------------


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, password: str = "a-long-table-password"):
        # A display name unlike the login name, so a test can tell which one a page or answer shows.
        return django_user_model.objects.create_user(username=username, password=password,
                                                     first_name=f"{username.capitalize()} D.")

    return make


@pytest.fixture
def owner(make_user):
    return make_user("owner")


@pytest.fixture
def league(owner):
    from games.services import league_create

    return league_create(name="Thursday Club", by=owner)


def join(league, user, role: str, by):
    """``user`` joins ``league`` as ``role`` the only way there is: an invitation from ``by``, accepted."""
    from games.services import invitation_accept, invitation_create

    invitation = invitation_create(league=league, role=role, by=by, invitee=user)
    return invitation_accept(token=invitation.token, by=user)


@pytest.fixture
def scorekeeper(make_user, league, owner):
    user = make_user("scorekeeper")
    join(league, user, "scorekeeper", owner)
    return user


@pytest.fixture
def member(make_user, league, owner):
    user = make_user("member")
    join(league, user, "member", owner)
    return user


@pytest.fixture
def stranger(make_user):
    return make_user("stranger")


@pytest.fixture
def players(owner, league):
    """Four of the league's players, seated N, E, S, W in this order by ``seats``."""
    from games.services import player_create

    return [player_create(name=name, by=owner, league=league) for name in ("Ann", "Ben", "Cat", "Dan")]


@pytest.fixture
def seats(players):
    return {seat: player.pk for seat, player in zip("NESW", players, strict=True)}


@pytest.fixture
def start_game(league, owner, seats):
    """Start a league game: ``start_game("spades", target=200)``."""
    from games.services import game_start

    def start(game_type: str, *, by=None, in_league=True, **options):
        return game_start(game_type=game_type, seats=seats, by=by or owner,
                          league=league if in_league else None, options=options)

    return start


# --- request limits: on, but out of the way --------------------------------------------------------


@pytest.fixture(autouse=True)
def generous_request_limits(settings):
    """The API's request limits (api/throttles.py) stay on in every test, counting as in production, but
    high enough never to refuse: the suite sends hundreds of requests a minute from one address and
    one user. The tests of the limits set their own rates (tests/api/test_api_limits.py)."""
    rates = {scope: "1000000/minute" for scope in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


# --- Celery: in-process in tests ------------------------------------------------------------------


@pytest.fixture(autouse=True)
def celery_eager():
    """Queued tasks run in-process in every test, even with REDIS_URL set (CI's second run).

    Otherwise a test that commits (``transaction=True``, or on_commit callbacks run by
    ``django_capture_on_commit_callbacks``) would leave its task in Redis for nobody. The tests that
    start a real worker turn this off for themselves (tests/standings/test_worker.py).
    """
    from scorekeeper.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


@pytest.fixture
def creator(make_user):
    """Someone who starts a casual game (one outside any league)."""
    return make_user("creator")


@pytest.fixture
def helper(make_user):
    """A user the creator may add as a casual game's scorekeeper."""
    return make_user("helper")


@pytest.fixture
def casual(creator, seats):
    """A casual Spades game started by ``creator``."""
    from games.services import game_start

    return game_start(game_type="spades", seats=seats, by=creator)
