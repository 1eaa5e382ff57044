"""The OpenAPI schema, the offline docs, and a schemathesis run over every operation.

Schemathesis generates requests from the schema (valid and invalid ones), sends them to the app
in-process (WSGI) as the owner of a league, and checks that no answer is a server error and that
every answer (status code, content type, body) is one the schema describes.
"""

from __future__ import annotations

import json
import re

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.conftest import SPADES_HAND
from tests.conftest import join, new_user

TRUMPS_MADE = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_schema_is_served(anonymous):
    response = anonymous.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/v1/games/{id}/hands/" in paths
    assert "/api/v1/games/{id}/hands/{number}/revisions/" in paths
    assert "/api/v1/leagues/{id}/standings/" in paths
    assert "/api/v1/players/{id}/ratings/" in paths
    assert "/api/v1/games/{id}/scorekeepers/{username}/" in paths
    assert "/api/v1/leagues/{id}/nights/" in paths
    assert "/api/v1/nights/{id}/results.csv" in paths


def test_the_schema_is_made_without_warnings(tmp_path):
    """A warning is a schema that may be wrong: two request bodies of one name, or enums named by chance."""
    from django.core.management import call_command

    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: ")


def test_docs_work_offline(anonymous):
    response = anonymous.get("/api/v1/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    # No asset from a CDN (a bare "cdn" can turn up inside the page's random CSRF token).
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert not re.search(r"""https?://[^"' ]*cdn""", page.lower())
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page


def load_schema():
    """The schema ``/api/v1/schema/`` serves, made directly (a request here, at collection, would leave Django
    thinking a request is still under way), with the app to send the generated requests to."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    from scorekeeper.wsgi import application

    document = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))
    schema = schemathesis.openapi.from_dict(document)
    schema.app = application
    # Examples and fuzzing here; the coverage phase's thousands of boundary cases are sent by the full run
    # against a real server (test_api_schemathesis_run.py), with these checks and more.
    schema.config.phases.coverage.enabled = False
    return schema


@pytest.fixture
def calls_in_the_test_transaction(db):
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    # As Django's test client does: a request must not close the connection holding the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def built_table(django_db_setup, django_db_blocker):
    """Real objects for the path parameters, so that writes reach the services, not only 404s. Built once for the
    module in a transaction rolled back after it; each test runs in a savepoint inside it, so its writes go."""
    from rest_framework.authtoken.models import Token

    from games.services import (
        game_start,
        hand_record,
        invitation_create,
        league_create,
        match_start,
        night_check_in,
        night_round_start,
        night_start,
        player_claim,
        player_create,
        webhook_create,
    )
    from games.standings.services import league_standings_recompute

    with django_db_blocker.unblock(), transaction.atomic():
        owner, member = new_user("owner"), new_user("member")
        league = league_create(name="Thursday Club", by=owner)
        join(league, member, "member", owner)
        players = [player_create(name=name, by=owner, league=league) for name in ("Ann", "Ben", "Cat", "Dan")]
        seats = {seat: player.pk for seat, player in zip("NESW", players, strict=True)}
        spades = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 200})
        hand_record(game=spades, record=SPADES_HAND, by=owner)
        match = match_start(game_type="trumps", seats=seats, by=owner, league=league)
        # A finished game, so that standings, ratings and figures have something in them.
        finished = game_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
        hand_record(game=finished, record=TRUMPS_MADE, by=owner)
        league_standings_recompute(league_id=league.pk)
        casual = game_start(game_type="spades", seats=seats, by=owner)
        # A club night of the four, its first round playing.
        night = night_start(league=league, by=owner, game_type="spades", hands=2)
        for player in players:
            night_check_in(night=night, by=owner, player=player)
        night_round_start(night=night, by=owner)
        extra = player_create(name="Extra", by=owner, league=league)
        invitation = invitation_create(league=league, role="member", max_uses=50, by=owner)
        yield {
            "casual": casual.pk,
            "token": Token.objects.get_or_create(user=owner)[0].key,
            "ids": {"games": spades.pk, "leagues": league.pk, "players": players[0].pk, "matches": match.pk,
                    "nights": night.pk},
            "more": {"player_id": extra.pk, "invitation_id": invitation.pk, "token": invitation.token,
                     "claim_id": player_claim(league=league, player=extra, by=member).pk,
                     "webhook_id": webhook_create(league=league, url="http://127.0.0.1:9/hooks",
                                                  events=["hand.recorded"], by=owner).pk},
        }
        transaction.set_rollback(True)


@pytest.fixture
def table(built_table, db):
    return built_table


def use_real_objects(case, table) -> None:
    params = case.path_parameters or {}
    collection = case.path.split("/")[3]
    if "id" in params and collection in table["ids"]:
        params["id"] = table["ids"][collection]
    if "scorekeepers" in case.path:  # only a casual game has scorekeepers of its own
        params["id"] = table["casual"]
    if "number" in params:
        params["number"] = 1
    if "username" in params:
        params["username"] = "member"
    for name, value in table["more"].items():
        if name in params:
            params[name] = value


# Loaded as the module is collected (the schema is made without the database), so that every operation is a
# test of its own, which the parallel run shares out between its processes.
schema = load_schema()


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_operation_conforms_to_the_schema(case, table, calls_in_the_test_transaction):
    use_real_objects(case, table)
    case.call_and_validate(headers={"Authorization": f"Token {table['token']}"}, checks=CHECKS)
