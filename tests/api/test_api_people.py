"""Tokens, players, leagues and league members."""

from __future__ import annotations

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
    assert response.status_code == 400
    assert response.json()["role"] == ["a league must keep at least one owner"]


def test_adding_an_unknown_user_is_400(as_owner, league):
    response = as_owner.post(f"/api/v1/leagues/{league.pk}/members/", {"username": "nobody", "role": "member"},
                             format="json")
    assert response.status_code == 400
    assert response.json()["username"] == ['there is no user "nobody"']
