"""Fixtures shared by every test, and the rule for tests that need PostgreSQL, Redis or a browser.

A test that uses the ``postgres`` or ``redis_url`` fixture, or the load tests' ``load_session``, is
marked ``services`` here, from the fixtures it asks for; one that drives Chromium (the ``browser``
fixture) is marked ``browser``. On a bare machine such tests skip when the service is not configured;
with ``REQUIRE_SERVICES=1`` (as in CI) a missing service fails them instead. CI runs the ``services``
and ``browser`` tests once, against PostgreSQL and Redis, and every other test once, on SQLite.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"

# The fixture a test asks for, and the marker that says what the test needs.
SERVICE_FIXTURES = {"postgres": "services", "redis_url": "services", "load_session": "services",
                    "browser": "browser"}
# Tests that run Celery workers on the shared Redis: a worker takes whatever task is queued in its Redis
# database, so two such tests side by side would take each other's tasks. The tests of one group run one
# after another in one process of a parallel run (``--dist loadgroup``). (The load tests' and the full
# schemathesis run's stacks each have a Redis server of their own, and run side by side.)
WORKER_GROUPS = {"live_worker": "celery-worker"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # tryfirst: the markers must be in place before ``-m`` selects by them and pytest-xdist groups by them.
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        for marker in sorted({SERVICE_FIXTURES[name] for name in fixtures & SERVICE_FIXTURES.keys()}):
            if item.get_closest_marker(marker) is None:
                item.add_marker(marker)
        for name in sorted(fixtures & WORKER_GROUPS.keys()):
            item.add_marker(pytest.mark.xdist_group(WORKER_GROUPS[name]))


def using_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def need(condition: bool, what: str) -> None:
    """Skip (or, in CI, fail) a test whose service is missing."""
    if condition:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but not configured")
    pytest.skip(f"needs {what}")


def marked_services(request) -> None:
    """A test that asks for a service only while it runs (``request.getfixturevalue``) escapes the marking
    above; it must carry the ``services`` marker itself, or CI would run it where the service is missing."""
    if request.node.get_closest_marker("services") is None:
        pytest.fail(f"{request.node.nodeid} asks for {request.fixturename!r} while it runs: mark it "
                    "services (e.g. pytest.param(..., marks=pytest.mark.services))")


@pytest.fixture
def postgres(request):
    marked_services(request)
    need(using_postgres(), "PostgreSQL (DATABASE_URL=postgres://...)")


@pytest.fixture
def redis_url(request):
    marked_services(request)
    need(bool(settings.REDIS_URL), "Redis (REDIS_URL=redis://...)")
    return settings.REDIS_URL


# --- named actors and a league to act in ----------------------------------------------------------


def new_user(username: str, password: str = "a-long-table-password"):
    from django.contrib.auth import get_user_model

    # A display name unlike the login name, so a test can tell which one a page or answer shows.
    return get_user_model().objects.create_user(username=username, password=password,
                                                first_name=f"{username.capitalize()} D.")


@pytest.fixture
def make_user(db):
    return new_user


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


def table_in(league, by) -> dict[str, int]:
    """Four new players of ``league``, seated N, E, S, W: a league's games seat only its own players."""
    from games.services import player_create

    names = ("Ann", "Ben", "Cat", "Dan")
    return {seat: player_create(name=name, by=by, league=league).pk for seat, name in zip("NESW", names, strict=True)}


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
