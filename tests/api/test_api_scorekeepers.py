"""A casual game's scorekeepers over the API: only its creator chooses them; league games use the league's roles."""

from __future__ import annotations

import pytest

from games import policy

pytestmark = pytest.mark.django_db

ACTORS = ("creator", "helper", "owner", "stranger", "anonymous")





def actor_client(request, client_for, actor):
    return client_for(None if actor == "anonymous" else request.getfixturevalue(actor))


# The creator may; anyone else signed in does not even see the (unshared) game: 404, a league owner too;
# a scorekeeper sees it but is refused (403); anonymous: 401.
ADD = {"creator": 201, "helper": 404, "owner": 404, "stranger": 404, "anonymous": 401}
REMOVE = {"creator": 204, "helper": 403, "owner": 404, "stranger": 404, "anonymous": 401}


@pytest.mark.parametrize("actor", ACTORS)
def test_who_may_add_a_scorekeeper(request, client_for, casual, helper, owner, stranger, actor):
    response = actor_client(request, client_for, actor).post(
        f"/api/v1/games/{casual.pk}/scorekeepers/", {"username": "helper"}, format="json")
    assert response.status_code == ADD[actor], response.content
    assert policy.can_score_game(helper, casual) is (actor == "creator")
    if response.status_code == 201:
        assert response.json() == {"game": casual.pk, "created_by": "creator", "scorekeepers": ["helper"]}
    else:
        assert set(response.json()) >= {"detail", "code"}
    if response.status_code == 401:
        assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("actor", ACTORS)
def test_who_may_remove_a_scorekeeper(request, client_for, casual, creator, helper, owner, stranger, actor):
    casual.scorekeepers.add(helper)
    response = actor_client(request, client_for, actor).delete(f"/api/v1/games/{casual.pk}/scorekeepers/helper/")
    assert response.status_code == REMOVE[actor], response.content
    assert policy.can_score_game(helper, casual) is (actor != "creator")


def test_an_added_scorekeeper_can_record_hands(client_for, casual, creator, helper):
    from tests.api.conftest import SPADES_HAND

    url = f"/api/v1/games/{casual.pk}/hands/"
    assert client_for(helper).post(url, SPADES_HAND, format="json").status_code == 404
    client_for(creator).post(f"/api/v1/games/{casual.pk}/scorekeepers/", {"username": "helper"}, format="json")
    assert client_for(helper).post(url, SPADES_HAND, format="json").status_code == 201


@pytest.mark.parametrize("actor", ["owner", "stranger"])
def test_a_league_game_has_no_scorekeepers_of_its_own(request, client_for, spades, helper, actor):
    client = actor_client(request, client_for, actor)
    added = client.post(f"/api/v1/games/{spades.pk}/scorekeepers/", {"username": "helper"}, format="json")
    assert added.status_code == 400
    assert added.json()["league"] == ["a league game's scorekeepers are the league's owners and scorekeepers"]
    assert client.delete(f"/api/v1/games/{spades.pk}/scorekeepers/helper/").status_code == 400


def test_only_its_scorekeepers_read_a_casual_games_scorekeepers(client_for, anonymous, casual, creator, helper,
                                                                stranger):
    from games.services import game_set_public

    casual.scorekeepers.add(helper)
    game_set_public(game=casual, public=True, by=creator)
    response = client_for(helper).get(f"/api/v1/games/{casual.pk}/scorekeepers/")
    assert response.json() == {"game": casual.pk, "created_by": "creator", "scorekeepers": ["helper"]}
    # Others may follow the shared game, but not learn its scorekeepers' login names.
    assert anonymous.get(f"/api/v1/games/{casual.pk}/").status_code == 200
    for outsider in (anonymous, client_for(stranger)):
        assert outsider.get(f"/api/v1/games/{casual.pk}/scorekeepers/").status_code == 403


def test_unknown_user_is_a_400_beside_username(client_for, casual, creator):
    response = client_for(creator).post(f"/api/v1/games/{casual.pk}/scorekeepers/", {"username": "ghost"},
                                        format="json")
    assert response.status_code == 400 and response.json()["username"] == ['there is no user "ghost"']
    gone = client_for(creator).delete(f"/api/v1/games/{casual.pk}/scorekeepers/ghost/")
    assert gone.status_code == 404 and gone.json()["detail"] == 'there is no user "ghost"'


def test_removing_someone_who_is_not_a_scorekeeper_changes_nothing(client_for, casual, creator, helper):
    assert client_for(creator).delete(f"/api/v1/games/{casual.pk}/scorekeepers/helper/").status_code == 204
    assert list(casual.scorekeepers.all()) == []


def test_the_body_is_checked_for_shape(client_for, casual, creator):
    client = client_for(creator)
    url = f"/api/v1/games/{casual.pk}/scorekeepers/"
    assert client.post(url, {}, format="json").json()["username"] == ["This field is required."]
    assert client.post(url, {"username": "helper", "role": "x"}, format="json").json()["role"] == ["unknown field"]


@pytest.mark.parametrize("actor", ["stranger", "anonymous"])
def test_a_private_league_games_scorekeepers_are_a_404(request, client_for, spades, private_league, stranger,
                                                      actor):
    client = actor_client(request, client_for, actor)
    assert client.get(f"/api/v1/games/{spades.pk}/scorekeepers/").status_code == 404
    if actor == "stranger":
        response = client.post(f"/api/v1/games/{spades.pk}/scorekeepers/", {"username": "stranger"}, format="json")
        assert response.status_code == 404
