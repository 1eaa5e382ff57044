"""Who may write what: every write endpoint against owner, scorekeeper, member, stranger and anonymous.

Writers in a league are its owners and scorekeepers; only owners manage the league, its members,
invitations and players; a stranger is refused (403); anonymous requests are asked to sign in (401,
with WWW-Authenticate). Addressing a member by login name is for the league's members (404 to others).
"""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.api.conftest import SPADES_HAND
from tests.conftest import join, new_user

ACTORS = ("owner", "scorekeeper", "member", "stranger", "anonymous")


def expect(ok: int, **refused: int) -> dict[str, int]:
    table = {"owner": ok, "scorekeeper": ok, "member": 403, "stranger": 403, "anonymous": 401}
    table.update(refused)
    return table


ANY_USER = {"owner": 201, "scorekeeper": 201, "member": 201, "stranger": 201, "anonymous": 401}
OWNER_ONLY = {"scorekeeper": 403}
MEMBERS = {"owner": 202, "scorekeeper": 202, "member": 202, "stranger": 403, "anonymous": 401}
# A casual game is seen by its table only: to anyone else it is not there (404).
CASUAL_CREATOR = {"owner": 200, "scorekeeper": 404, "member": 404, "stranger": 404, "anonymous": 401}

# Another league's player, looked up in a league it is not in: not there, for everyone signed in.
NOT_THEIRS = {"owner": 404, "scorekeeper": 404, "member": 404, "stranger": 404, "anonymous": 401}

# (name, method, path, body, expected status per actor)
WRITES = [
    ("create player", "post", "/api/v1/players/", lambda w: {"name": "Eve"}, ANY_USER),
    ("rename player", "put", "/api/v1/players/{player}/", lambda w: {"name": "Anna"}, expect(200, **OWNER_ONLY)),
    ("create league", "post", "/api/v1/leagues/", lambda w: {"name": "Fridays"}, ANY_USER),
    ("update league", "patch", "/api/v1/leagues/{league}/", lambda w: {"name": "Thursdays"},
     expect(200, **OWNER_ONLY)),
    ("invite member", "post", "/api/v1/leagues/{league}/members/",
     lambda w: {"username": "stranger", "role": "member"}, expect(202, **OWNER_ONLY)),
    ("raise role", "patch", "/api/v1/leagues/{league}/members/member/", lambda w: {"role": "scorekeeper"},
     expect(202, stranger=404, **OWNER_ONLY)),
    ("lower role", "patch", "/api/v1/leagues/{league}/members/scorekeeper/", lambda w: {"role": "member"},
     expect(200, stranger=404, **OWNER_ONLY)),
    # Owners remove members; a member may leave.
    ("remove member", "delete", "/api/v1/leagues/{league}/members/member/", lambda w: None,
     expect(204, member=204, stranger=404, **OWNER_ONLY)),
    ("make invitation", "post", "/api/v1/leagues/{league}/invitations/", lambda w: {"role": "scorekeeper"},
     expect(201, **OWNER_ONLY)),
    ("withdraw invitation", "delete", "/api/v1/leagues/{league}/invitations/{invitation}/", lambda w: None,
     expect(200, **OWNER_ONLY)),
    # A scorekeeper link: whoever is not yet a scorekeeper or more joins (or is raised); the others are told.
    ("accept invitation", "post", "/api/v1/invitations/{link}/accept/", lambda w: None,
     {"owner": 400, "scorekeeper": 400, "member": 201, "stranger": 201, "anonymous": 401}),
    ("decline invitation", "post", "/api/v1/invitations/{for_stranger}/decline/", lambda w: None,
     {"owner": 403, "scorekeeper": 403, "member": 403, "stranger": 200, "anonymous": 401}),
    ("add league player", "post", "/api/v1/leagues/{league}/players/", lambda w: {"name": "Zed"}, expect(201)),
    ("link player", "post", "/api/v1/leagues/{league}/players/{extra}/link/", lambda w: {"username": "member"},
     expect(200, **OWNER_ONLY)),
    ("merge players", "post", "/api/v1/leagues/{league}/players/merge/",
     lambda w: {"keep": w["player"], "merge": w["extra"]}, expect(200, **OWNER_ONLY)),
    ("claim player", "post", "/api/v1/leagues/{league}/players/{extra}/claim/", lambda w: None, MEMBERS),
    ("decide claim", "post", "/api/v1/leagues/{league}/claims/{claim}/", lambda w: {"approve": False},
     expect(200, **OWNER_ONLY)),
    ("share casual game", "patch", "/api/v1/games/{casual}/", lambda w: {"is_public": True}, CASUAL_CREATOR),
    ("edit own profile", "patch", "/api/v1/me/", lambda w: {"display_name": "Someone"},
     {"owner": 200, "scorekeeper": 200, "member": 200, "stranger": 200, "anonymous": 401}),
    ("start game", "post", "/api/v1/games/",
     lambda w: {"game_type": "spades", "league": w["league"], "seats": w["seats"]}, expect(201)),
    ("start match", "post", "/api/v1/matches/",
     lambda w: {"game_type": "trumps", "league": w["league"], "seats": w["seats"]}, expect(201)),
    ("record hand", "post", "/api/v1/games/{game}/hands/", lambda w: SPADES_HAND, expect(201)),
    ("correct hand", "put", "/api/v1/games/{game}/hands/1/", lambda w: SPADES_HAND, expect(200)),
    ("patch hand", "patch", "/api/v1/games/{game}/hands/1/", lambda w: {"note": "checked"}, expect(200)),
    ("undo hand", "delete", "/api/v1/games/{game}/hands/1/", lambda w: None, expect(200)),
    ("abandon game", "post", "/api/v1/games/{game}/abandon/", lambda w: None, expect(200)),
    # Taking over another league's players: the stranger owns a league of their own ("theirs") and tries to
    # seat the Thursday Club's players at its table, then link, rename, merge and claim one of them. A game
    # seats only its own league's players (a 400 as for a player that does not exist); the others do not find
    # the player in their league (404), and a player's name is its league's owners'.
    ("takeover: seat another league's players", "post", "/api/v1/games/",
     lambda w: {"game_type": "spades", "league": w["theirs"], "seats": w["seats"]},
     {"owner": 403, "scorekeeper": 403, "member": 403, "stranger": 400, "anonymous": 401}),
    ("takeover: start a match with them", "post", "/api/v1/matches/",
     lambda w: {"game_type": "trumps", "league": w["theirs"], "seats": w["seats"]},
     {"owner": 403, "scorekeeper": 403, "member": 403, "stranger": 400, "anonymous": 401}),
    ("takeover: link another league's player", "post", "/api/v1/leagues/{theirs}/players/{player}/link/",
     lambda w: {"username": "stranger"}, NOT_THEIRS),
    ("takeover: rename another league's player", "patch", "/api/v1/players/{player}/", lambda w: {"name": "Mine"},
     expect(200, **OWNER_ONLY)),
    ("takeover: merge one's own player into theirs", "post", "/api/v1/leagues/{theirs}/players/merge/",
     lambda w: {"keep": w["player"], "merge": w["their_player"]},
     {"owner": 403, "scorekeeper": 403, "member": 403, "stranger": 404, "anonymous": 401}),
    ("takeover: claim another league's player", "post", "/api/v1/leagues/{theirs}/players/{player}/claim/",
     lambda w: None, NOT_THEIRS),
]


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The league and its people, built once for the module in a transaction rolled back after it. Each test
    runs in a savepoint inside it (as with Django's ``TestCase.setUpTestData``), so its writes are undone."""
    from games.services import (
        game_start,
        hand_record,
        invitation_create,
        league_create,
        player_claim,
        player_create,
    )

    with django_db_blocker.unblock(), transaction.atomic():
        people = {name: new_user(name) for name in ("owner", "scorekeeper", "member", "stranger")}
        owner = people["owner"]
        league = league_create(name="Thursday Club", by=owner)
        join(league, people["scorekeeper"], "scorekeeper", owner)
        join(league, people["member"], "member", owner)
        players = [player_create(name=name, by=owner, league=league) for name in ("Ann", "Ben", "Cat", "Dan")]
        seats = {seat: player.pk for seat, player in zip("NESW", players, strict=True)}
        spades = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 200})
        hand_record(game=spades, record=SPADES_HAND, by=owner)
        extra = player_create(name="Extra", by=owner, league=league)
        theirs = league_create(name="Fridays", by=people["stranger"])
        their_player = player_create(name="Zoe", by=people["stranger"], league=theirs)
        claimed = player_create(name="Claimed", by=owner, league=league)
        world = {
            "league": league.pk, "seats": seats, "player": players[0].pk, "game": spades.pk, "extra": extra.pk,
            "theirs": theirs.pk, "their_player": their_player.pk,
            "invitation": invitation_create(league=league, role="member", by=owner).pk,
            "link": invitation_create(league=league, role="scorekeeper", max_uses=10, by=owner).token,
            "for_stranger": invitation_create(league=league, role="member", by=owner,
                                              invitee=people["stranger"]).token,
            "claim": player_claim(league=league, player=claimed, by=people["member"]).pk,
            "casual": game_start(game_type="spades", seats=seats, by=owner).pk,
        }
        yield {"people": {name: user.pk for name, user in people.items()}, "world": world}
        transaction.set_rollback(True)


# The actors and the league, fresh from the database for each test (a test's changes to them are undone).
def person(name: str):
    @pytest.fixture(name=name)
    def fixture(built, db, django_user_model):
        return django_user_model.objects.get(pk=built["people"][name])

    return fixture


owner, scorekeeper, member, stranger = (person(name) for name in ("owner", "scorekeeper", "member", "stranger"))


@pytest.fixture
def league(built, db):
    from games.models import League

    return League.objects.get(pk=built["world"]["league"])


@pytest.fixture
def world(built, db):
    return built["world"]


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
    "/api/v1/leagues/{league}/players/", "/api/v1/leagues/{league}/standings/", "/api/v1/players/{player}/",
    "/api/v1/players/{player}/ratings/", "/api/v1/leagues/{league}/members/owner/",
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
    # The stranger's own public league is listed beside it.
    leagues = {league["id"] for league in client.get("/api/v1/leagues/").json()["results"]}
    assert leagues == {world["league"], world["theirs"]}


def test_private_league_is_left_out_of_lists(client_for, world, private_league, stranger):
    client = client_for(stranger)  # who sees only their own league and its player
    assert [league["id"] for league in client.get("/api/v1/leagues/").json()["results"]] == [world["theirs"]]
    assert client.get("/api/v1/games/").json()["count"] == 0
    assert [player["id"] for player in client.get("/api/v1/players/").json()["results"]] == [world["their_player"]]
    assert client.get("/api/v1/matches/").json()["count"] == 0


def test_private_league_answers_are_private_to_caches(client_for, world, private_league, member, anonymous):
    response = client_for(member).get(f"/api/v1/leagues/{world['league']}/")
    assert response.status_code == 200
    assert "private" in response["Cache-Control"] and "Authorization" in response["Vary"]
    assert "private" not in anonymous.get("/api/v1/leagues/").get("Cache-Control", "")


def test_outsiders_see_display_names_never_login_names(anonymous, client_for, stranger, world):
    game = anonymous.get(f"/api/v1/games/{world['game']}/").json()
    assert game["hands"][0]["entered_by"] == "Owner D."
    members = anonymous.get(f"/api/v1/leagues/{world['league']}/members/").json()["results"]
    assert {m["username"] for m in members} == {None}
    assert {m["display_name"] for m in members} == {"Owner D.", "Scorekeeper D.", "Member D."}
    members = client_for(stranger).get(f"/api/v1/leagues/{world['league']}/members/").json()["results"]
    assert {m["username"] for m in members} == {None}


def test_public_league_game_is_readable_by_anyone(anonymous, world):
    assert anonymous.get(f"/api/v1/games/{world['game']}/").status_code == 200


def test_a_bad_token_is_a_401(client_for, world):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
