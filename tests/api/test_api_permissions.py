"""Who may write what: every write endpoint against owner, scorekeeper, member, stranger and anonymous.

Writers in a league are its owners and scorekeepers; only owners manage the league and its members;
a stranger is refused (403); anonymous requests are asked to sign in (401, with WWW-Authenticate).
"""

from __future__ import annotations

import pytest

from tests.api.conftest import SPADES_HAND

ACTORS = ("owner", "scorekeeper", "member", "stranger", "anonymous")


def expect(ok: int, **refused: int) -> dict[str, int]:
    table = {"owner": ok, "scorekeeper": ok, "member": 403, "stranger": 403, "anonymous": 401}
    table.update(refused)
    return table


ANY_USER = {"owner": 201, "scorekeeper": 201, "member": 201, "stranger": 201, "anonymous": 401}
OWNER_ONLY = {"scorekeeper": 403}

# (name, method, path, body, expected status per actor)
WRITES = [
    ("create player", "post", "/api/v1/players/", lambda w: {"name": "Eve"}, ANY_USER),
    ("rename player", "put", "/api/v1/players/{player}/", lambda w: {"name": "Anna"}, expect(200, **OWNER_ONLY)),
    ("create league", "post", "/api/v1/leagues/", lambda w: {"name": "Fridays"}, ANY_USER),
    ("update league", "patch", "/api/v1/leagues/{league}/", lambda w: {"name": "Thursdays"},
     expect(200, **OWNER_ONLY)),
    ("add member", "post", "/api/v1/leagues/{league}/members/",
     lambda w: {"username": "stranger", "role": "member"}, expect(201, **OWNER_ONLY)),
    ("change role", "patch", "/api/v1/leagues/{league}/members/member/", lambda w: {"role": "scorekeeper"},
     expect(200, **OWNER_ONLY)),
    ("remove member", "delete", "/api/v1/leagues/{league}/members/member/", lambda w: None,
     expect(204, **OWNER_ONLY)),
    ("start game", "post", "/api/v1/games/",
     lambda w: {"game_type": "spades", "league": w["league"], "seats": w["seats"]}, expect(201)),
    ("start match", "post", "/api/v1/matches/",
     lambda w: {"game_type": "trumps", "league": w["league"], "seats": w["seats"]}, expect(201)),
    ("record hand", "post", "/api/v1/games/{game}/hands/", lambda w: SPADES_HAND, expect(201)),
    ("correct hand", "put", "/api/v1/games/{game}/hands/1/", lambda w: SPADES_HAND, expect(200)),
    ("patch hand", "patch", "/api/v1/games/{game}/hands/1/", lambda w: {"note": "checked"}, expect(200)),
    ("undo hand", "delete", "/api/v1/games/{game}/hands/1/", lambda w: None, expect(200)),
    ("abandon game", "post", "/api/v1/games/{game}/abandon/", lambda w: None, expect(200)),
]


@pytest.fixture
def world(owner, scorekeeper, member, stranger, league, seats, players, spades):
    from games.services import hand_record

    hand_record(game=spades, record=SPADES_HAND, by=owner)
    return {"league": league.pk, "seats": seats, "player": players[0].pk, "game": spades.pk}


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(("name", "method", "path", "body", "expected"), WRITES, ids=[w[0] for w in WRITES])
def test_write_permission_matrix(request, client_for, world, actor, name, method, path, body, expected):
    user = None if actor == "anonymous" else request.getfixturevalue(actor)
    response = getattr(client_for(user), method)(path.format(**world), body(world), format="json")
    assert response.status_code == expected[actor], response.content
    if response.status_code == 401:
        assert response["WWW-Authenticate"] == "Token"
    if response.status_code >= 400:
        assert set(response.json()) >= {"detail", "code"}


@pytest.mark.parametrize("actor", ("stranger", "anonymous"))
@pytest.mark.parametrize("path", [
    "/api/v1/leagues/{league}/", "/api/v1/leagues/{league}/members/", "/api/v1/games/{game}/",
    "/api/v1/games/{game}/hands/", "/api/v1/games/{game}/hands/1/", "/api/v1/games/{game}/hands/1/revisions/",
])
def test_private_league_is_invisible_to_outsiders(request, client_for, world, private_league, actor, path):
    user = None if actor == "anonymous" else request.getfixturevalue(actor)
    response = client_for(user).get(path.format(**world))
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_private_league_writes_are_404_for_a_stranger(client_for, world, private_league, stranger):
    client = client_for(stranger)
    assert client.post(f"/api/v1/games/{world['game']}/hands/", SPADES_HAND, format="json").status_code == 404
    assert client.patch(f"/api/v1/leagues/{world['league']}/", {"name": "x"}, format="json").status_code == 404
    started = client.post("/api/v1/games/", {"game_type": "spades", "league": world["league"],
                                             "seats": world["seats"]}, format="json")
    assert started.status_code == 400
    assert started.json()["league"] == [f"there is no league {world['league']}"]


def test_private_league_is_visible_to_its_member(client_for, world, private_league, member):
    client = client_for(member)
    assert client.get(f"/api/v1/games/{world['game']}/").status_code == 200
    assert [league["id"] for league in client.get("/api/v1/leagues/").json()["results"]] == [world["league"]]


def test_private_league_is_left_out_of_lists(client_for, world, private_league, stranger):
    client = client_for(stranger)
    assert client.get("/api/v1/leagues/").json()["count"] == 0
    assert client.get("/api/v1/games/").json()["count"] == 0


def test_public_league_game_is_readable_by_anyone(anonymous, world):
    assert anonymous.get(f"/api/v1/games/{world['game']}/").status_code == 200


def test_a_bad_token_is_a_401(client_for, world):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
