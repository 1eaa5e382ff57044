"""Tokens, players, leagues and league members."""

from __future__ import annotations

import pytest

from games.models import Membership


def test_token_for_username_and_password(anonymous, owner):
    response = anonymous.post("/api/v1/auth/token/", {"username": "owner", "password": "a-long-table-password"},
                              format="json")
    assert response.status_code == 200
    client = anonymous
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.post("/api/v1/players/", {"name": "Eve"}, format="json").status_code == 201


def test_wrong_password_is_400(anonymous, owner):
    response = anonymous.post("/api/v1/auth/token/", {"username": "owner", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["non_field_errors"] == ["unable to sign in with that username and password"]


def test_token_refuses_unknown_fields(anonymous, owner):
    response = anonymous.post("/api/v1/auth/token/", {"username": "owner", "password": "x", "otp": 1},
                              format="json")
    assert response.status_code == 400
    assert response.json()["otp"] == ["unknown field"]


def test_players_create_read_update_list(as_owner, anonymous, league):
    created = as_owner.post("/api/v1/players/", {"name": "  Eve ", "league": league.pk}, format="json").json()
    assert created["name"] == "Eve"
    assert anonymous.get(f"/api/v1/players/{created['id']}/").json()["name"] == "Eve"
    renamed = as_owner.patch(f"/api/v1/players/{created['id']}/", {"name": "Evie"}, format="json")
    assert renamed.json()["name"] == "Evie"
    assert [p["name"] for p in anonymous.get("/api/v1/players/").json()["results"]] == ["Evie"]


def test_a_player_for_casual_games_is_seen_by_whoever_added_them_only(as_owner, anonymous, client_for, stranger):
    created = as_owner.post("/api/v1/players/", {"name": "Eve"}, format="json").json()
    assert as_owner.get(f"/api/v1/players/{created['id']}/").status_code == 200
    for outsider in (anonymous, client_for(stranger)):
        assert outsider.get(f"/api/v1/players/{created['id']}/").status_code == 404
        assert outsider.get("/api/v1/players/").json()["count"] == 0


def test_player_needs_a_name(as_owner):
    response = as_owner.post("/api/v1/players/", {"name": " "}, format="json")
    assert response.status_code == 400
    assert response.json()["name"] == ["This field may not be blank."]


def test_leagues_create_read_update(client_for, stranger, anonymous):
    client = client_for(stranger)
    created = client.post("/api/v1/leagues/", {"name": "Fridays", "is_public": False,
                                               "default_options": {"spades": {"target": 300}}}, format="json")
    assert created.status_code == 201
    league = created.json()
    assert league["slug"] == "fridays"
    assert anonymous.get(f"/api/v1/leagues/{league['id']}/").status_code == 404
    updated = client.patch(f"/api/v1/leagues/{league['id']}/", {"is_public": True}, format="json")
    assert updated.json()["is_public"] is True
    assert anonymous.get(f"/api/v1/leagues/{league['id']}/").status_code == 200


def test_league_house_rules_are_checked_by_the_engine(as_owner):
    response = as_owner.post("/api/v1/leagues/", {"name": "Odd", "default_options": {"spades": {"target": "high"}}},
                             format="json")
    assert response.status_code == 400
    assert "target must be" in response.json()["default_options"][0]
    assert response.json()["default_options"][0].endswith('not "high"')


def test_a_taken_slug_is_a_400_beside_the_slug(as_owner, league):
    response = as_owner.post("/api/v1/leagues/", {"name": "Again", "slug": league.slug}, format="json")
    assert response.status_code == 400
    assert response.json()["slug"] == [f'the address "{league.slug}" is taken by another league; choose another']


def test_members_invite_accept_change_remove(as_owner, league, member, stranger, anonymous, client_for):
    path = f"/api/v1/leagues/{league.pk}/members/"
    invited = as_owner.post(path, {"username": "stranger", "role": "scorekeeper"}, format="json")
    assert invited.status_code == 202
    assert (invited.json()["role"], invited.json()["invitee"], invited.json()["status"]) == (
        "scorekeeper", "stranger", "open")
    assert not Membership.objects.filter(league=league, user=stranger).exists()
    as_stranger = client_for(stranger)
    assert [i["id"] for i in as_stranger.get("/api/v1/invitations/").json()] == [invited.json()["id"]]
    accepted = as_stranger.post(f"/api/v1/invitations/{invited.json()['token']}/accept/")
    assert accepted.status_code == 201 and accepted.json()["role"] == "scorekeeper"
    # Outsiders see display names only; members see login names too.
    names = {m["display_name"]: (m["username"], m["role"]) for m in anonymous.get(path).json()["results"]}
    assert names == {"Owner D.": (None, "owner"), "Member D.": (None, "member"),
                     "Stranger D.": (None, "scorekeeper")}
    roles = {m["username"]: m["role"] for m in as_owner.get(path).json()["results"]}
    assert roles == {"owner": "owner", "member": "member", "stranger": "scorekeeper"}
    promoted = as_owner.put(path + "stranger/", {"role": "owner"}, format="json")
    assert promoted.status_code == 202 and promoted.json()["role"] == "owner"
    lowered = as_owner.put(path + "stranger/", {"role": "member"}, format="json")
    assert lowered.status_code == 200 and lowered.json()["role"] == "member"
    assert as_owner.delete(path + "stranger/").status_code == 204
    assert not Membership.objects.filter(league=league, user=stranger).exists()
    gone = as_owner.delete(path + "stranger/")
    assert gone.status_code == 404
    assert gone.json()["detail"] == '"stranger" is not a member of this league'


def test_last_owner_cannot_leave(as_owner, league):
    response = as_owner.delete(f"/api/v1/leagues/{league.pk}/members/owner/")
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"
    assert response.json()["role"] == ["a league must keep at least one owner"]


# What differs between any two invitations; everything else in an answer must not tell a name with an
# account from one without.
EACH_ITS_OWN = ("id", "token", "url", "expires_at", "created_at", "invitee")


def alike(first, second) -> bool:
    if first.status_code != second.status_code:
        return False
    one, other = first.json(), second.json()
    if isinstance(one, dict) and isinstance(other, dict) and "token" in one:
        return ({k: v for k, v in one.items() if k not in EACH_ITS_OWN}
                == {k: v for k, v in other.items() if k not in EACH_ITS_OWN})
    return one == other


@pytest.mark.parametrize("role", ["member", "scorekeeper", "owner"])
def test_an_unknown_login_name_is_answered_as_a_known_one(as_owner, league, make_user, role):
    make_user("someone")
    url = f"/api/v1/leagues/{league.pk}/members/"
    known = as_owner.post(url, {"username": "someone", "role": role}, format="json")
    unknown = as_owner.post(url, {"username": "nobody", "role": role}, format="json")
    assert known.status_code == 202 and alike(known, unknown), (known.json(), unknown.json())
    assert (known.json()["invitee"], unknown.json()["invitee"]) == ("someone", "nobody")


def test_an_invitation_to_a_name_with_no_account_reaches_nobody(as_owner, league, client_for, make_user):
    answer = as_owner.post(f"/api/v1/leagues/{league.pk}/members/", {"username": "nobody", "role": "owner"},
                           format="json")
    latecomer = make_user("nobody")  # an account made later with that name gets nothing
    client = client_for(latecomer)
    assert client.get("/api/v1/invitations/").json() == []
    accept = client.post(f"/api/v1/invitations/{answer.json()['token']}/accept/")
    assert accept.status_code == 403
    assert not Membership.objects.filter(league=league, user=latecomer).exists()


def test_an_invitation_link_for_an_unknown_name_is_answered_as_a_known_one(as_owner, league, make_user):
    make_user("someone")
    url = f"/api/v1/leagues/{league.pk}/invitations/"
    known = as_owner.post(url, {"username": "someone", "role": "owner"}, format="json")
    unknown = as_owner.post(url, {"username": "nobody", "role": "owner"}, format="json")
    assert known.status_code == 201 and alike(known, unknown), (known.json(), unknown.json())


def test_linking_a_player_to_an_unknown_name_is_refused_as_a_stranger_is(as_owner, league, make_user, players):
    make_user("someone")
    url = f"/api/v1/leagues/{league.pk}/players/{players[0].pk}/link/"
    known = as_owner.post(url, {"username": "someone"}, format="json")
    unknown = as_owner.post(url, {"username": "nobody"}, format="json")
    assert known.status_code == unknown.status_code == 400
    assert known.json()["username"] == [f"“someone” has not joined {league.name}; invite them first"]
    assert unknown.json()["username"] == [f"“nobody” has not joined {league.name}; invite them first"]
