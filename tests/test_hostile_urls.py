"""No address answers a 500, whatever is put in its path: every URL pattern of the site, the API and the
admin, each parameter in turn given values a database cannot store or a converter does not expect
(a NUL, numbers past 64 bits, bytes that are not UTF-8, long and odd text), the others real objects,
asked for as a browser would (``Accept: text/html``), by a superuser and by someone not signed in.

Under ``/api/`` every answer is JSON, the API's documents or its error shape, whatever was asked for.
The walk runs on PostgreSQL too (CI's services pass), where a NUL in a lookup used to be a DataError.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

HOSTILE = ["a%00b", "%00", "0", "9223372036854775808", "99999999999999999999999999", "-1", "%ED%A0%80",
           "%F0%9F%82%A1", "x" * 300, "%27%22%3Cb%3E", "%C3%A9t%C3%A9", "%20"]
ADMIN_HOSTILE = ["a%00b", "99999999999999999999999999", "%ED%A0%80", "x" * 300]
PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>(?P<body>[^()]*)\)")
# Where the API and the pages answer something that is not JSON on purpose.
NOT_JSON = ("/api/v1/docs/", "/api/v1/schema/")


def routes(patterns=None, prefix: str = "") -> Iterator[str]:
    """Every URL pattern as one route, resolvers' prefixes included (``games/<int:game_id>/undo/``)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def fill(route: str, values: dict[str, str]) -> str:
    """The route with each parameter replaced by ``values[name]`` (a regex group's first choice if none)."""
    def value(match: re.Match) -> str:
        name = match["name"] or match["group"]
        if name in values:
            return values[name]
        return (match["body"] or "x").split("|")[0].replace(".*", "x")

    return "/" + PARAMETER.sub(value, route).lstrip("^").rstrip("$")


def parameters(route: str) -> list[str]:
    return [match["name"] or match["group"] for match in PARAMETER.finditer(route)]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db, make_user, owner, league, players, seats, start_game):
    """Real objects for every kind of parameter, and a superuser who owns them."""
    from django.contrib.contenttypes.models import ContentType

    from games.services import hand_record, invitation_create, match_start, player_claim, player_create
    from tests.api.conftest import SPADES_HAND
    from tests.conftest import join

    owner.is_staff = owner.is_superuser = True
    owner.save()
    make_user("member")
    member_two = make_user("member-two")
    join(league, member_two, "member", owner)
    invitation = invitation_create(league=league, role="member", by=owner, max_uses=5)
    unclaimed = player_create(name="Eve", league=league, by=owner)
    claim = player_claim(league=league, player=unclaimed, by=member_two)
    game = start_game("spades")
    hand_record(game=game, record=SPADES_HAND, by=owner)
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league)
    return {
        "game_id": str(game.pk), "number": "1", "match_id": str(match.pk), "player_id": str(players[0].pk),
        "slug": league.slug, "username": "member-two", "uidb64": "MQ", "token": invitation.token,
        "invitation_id": str(invitation.pk), "claim_id": str(claim.pk),
        "object_id": str(players[0].pk), "id": str(owner.pk), "url": "nothing-here",
        "content_type_id": str(ContentType.objects.get_for_model(type(players[0])).pk),
        "pk:games": str(game.pk), "pk:leagues": str(league.pk), "pk:players": str(players[0].pk),
        "pk:matches": str(match.pk), "pk:invitations": str(invitation.pk),
    }


def real_values(route: str, world: dict) -> dict[str, str]:
    values = dict(world)
    collection = next((part for part in ("invitations", "games", "leagues", "players", "matches")
                       if f"/{part}/<int:pk>" in f"/{route}"), None)
    if collection:
        values["pk"] = world[f"pk:{collection}"]
    return values


def requests(world: dict) -> Iterator[tuple[str, str]]:
    """(method, path) for every route, each parameter in turn hostile."""
    for route in routes():
        values = real_values(route, world)
        admin = route.startswith("admin/")
        yield "GET", fill(route, values)
        for name in parameters(route):
            for hostile in ADMIN_HOSTILE if admin else HOSTILE:
                path = fill(route, {**values, name: hostile})
                yield "GET", path
                if not admin and "logout" not in route:  # signing out would end the walk's session
                    yield "POST", path


def check(response, method: str, path: str) -> None:
    assert response.status_code < 500, f"{method} {path}: {response.status_code}"
    if path.startswith("/api/") and not path.startswith(NOT_JSON):
        content_type = response.get("Content-Type", "")
        assert response.status_code == 204 or content_type.startswith(
            ("application/json", "application/problem+json")), f"{method} {path}: {content_type}"


def test_no_address_answers_a_500_to_hostile_path_values(client, world, owner):
    walk(client, world, owner)


def test_no_address_answers_a_500_to_hostile_path_values_on_postgresql(postgres, client, world, owner):
    """PostgreSQL refuses what SQLite lets by (a NUL in a lookup, an integer past 64 bits): CI's services pass."""
    walk(client, world, owner)


def walk(client, world, owner) -> None:
    client.force_login(owner)
    seen = 0
    for method, path in requests(world):
        if method == "GET":
            response = client.get(path, HTTP_ACCEPT="text/html")
        else:
            body = "{}" if path.startswith("/api/") else "name=x"
            content_type = "application/json" if path.startswith("/api/") else "application/x-www-form-urlencoded"
            response = client.post(path, body, content_type=content_type, HTTP_ACCEPT="text/html")
        check(response, method, path)
        seen += 1
    assert seen > 1000  # every route was walked


def test_no_address_answers_a_500_to_someone_not_signed_in(client, world):
    for route in routes():
        path = fill(route, real_values(route, world))
        for accept in ("text/html", "application/json", "*/*"):
            check(client.get(path, HTTP_ACCEPT=accept), "GET", path)
        if path.startswith("/api/"):
            check(client.get(path + "?format=api"), "GET", path)


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/games/{game}/", "/api/v1/leagues/",
                                  "/api/v1/players/", "/api/v1/matches/", "/api/v1/games/{game}/hands/1/"])
@pytest.mark.parametrize("ask", [{"HTTP_ACCEPT": "text/html"}, {"HTTP_ACCEPT": "application/xml"}, {"format": "api"}])
def test_the_api_answers_json_whatever_is_asked_for(client, world, path, ask):
    query = "?format=api" if ask.get("format") else ""
    headers = {key: value for key, value in ask.items() if key.startswith("HTTP_")}
    response = client.get(path.format(game=world["game_id"]) + query, **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()


@pytest.mark.parametrize("query", ["?league=%00", "?status=a%00", "?q=%00", "?%00=1"])
@pytest.mark.parametrize("where", ["/api/v1/games/", "/admin/games/player/", "/"])
def test_a_nul_in_the_query_string_is_a_400(client, owner, where, query):
    owner.is_staff = owner.is_superuser = True
    owner.save()
    client.force_login(owner)
    response = client.get(where + query)
    assert response.status_code == 400
    if where.startswith("/api/"):
        assert response.json()["code"] == "invalid"
