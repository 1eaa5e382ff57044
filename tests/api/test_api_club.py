"""Accounts, invitations and league players over the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Invitation, Membership, Player
from games.services import invitation_create, league_create, player_create

SIGNUP = {"username": "ann", "password": "shuffle-up-and-deal", "display_name": "Ann Lee"}


def test_sign_up_answers_with_a_token_that_works(anonymous, settings, db):
    settings.SIGNUP = "open"
    response = anonymous.post("/api/v1/auth/signup/", SIGNUP, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["username"], body["display_name"]) == ("ann", "Ann Lee")
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = anonymous.get("/api/v1/me/").json()
    assert me == {"username": "ann", "display_name": "Ann Lee", "email": "", "players": []}


def test_invite_only_sign_up_needs_an_invitation(anonymous, settings, league, owner):
    settings.SIGNUP = "invite"
    refused = anonymous.post("/api/v1/auth/signup/", SIGNUP, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    link = invitation_create(league=league, role="member", by=owner)
    assert anonymous.post("/api/v1/auth/signup/", {**SIGNUP, "invitation": link.token},
                          format="json").status_code == 201


def test_bad_sign_up_names_the_field(anonymous, settings, owner):
    settings.SIGNUP = "open"
    response = anonymous.post("/api/v1/auth/signup/", {**SIGNUP, "username": "owner"}, format="json")
    assert response.status_code == 400 and response.json()["username"] == ["that username is taken; choose another"]
    weak = anonymous.post("/api/v1/auth/signup/", {**SIGNUP, "password": "99999999"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()


def test_me_changes_the_display_name_and_lists_my_players(client_for, league, owner, member):
    from games.services import player_link

    ann = player_create(name="Ann", by=owner, league=league)
    player_link(league=league, player=ann, user=member, by=owner)
    client = client_for(member)
    changed = client.patch("/api/v1/me/", {"display_name": "Mem"}, format="json").json()
    assert changed["display_name"] == "Mem"
    assert changed["players"] == [{"id": ann.pk, "name": "Ann", "leagues": [league.pk]}]


def test_an_invitation_read_by_its_holder_then_accepted(client_for, anonymous, league, owner, stranger):
    made = client_for(owner).post(f"/api/v1/leagues/{league.pk}/invitations/",
                                  {"role": "scorekeeper", "days": 3, "max_uses": 2}, format="json")
    assert made.status_code == 201
    token = made.json()["token"]
    assert made.json()["url"] == f"http://testserver/invitations/{token}/"
    shown = anonymous.get(f"/api/v1/invitations/{token}/").json()
    assert shown["league"]["name"] == "Thursday Club" and shown["invited_by"] == "Owner D."
    assert shown["status"] == "open" and "token" not in shown
    joined = client_for(stranger).post(f"/api/v1/invitations/{token}/accept/")
    assert joined.status_code == 201 and joined.json()["role"] == "scorekeeper"
    assert anonymous.post(f"/api/v1/invitations/{token}/accept/").status_code == 401


def test_an_expired_invitation_is_410(client_for, league, owner, stranger):
    link = invitation_create(league=league, role="member", by=owner)
    Invitation.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client_for(stranger).post(f"/api/v1/invitations/{link.token}/accept/")
    assert response.status_code == 410 and response.json()["code"] == "invitation_closed"
    assert not Membership.objects.filter(user=stranger).exists()


def test_an_unknown_invitation_is_404(anonymous, db):
    assert anonymous.get("/api/v1/invitations/nope/").status_code == 404


def test_withdrawn_invitations_are_listed_as_such(client_for, league, owner):
    link = invitation_create(league=league, role="member", by=owner)
    client = client_for(owner)
    assert client.delete(f"/api/v1/leagues/{league.pk}/invitations/{link.pk}/").json()["status"] == "revoked"
    listed = client.get(f"/api/v1/leagues/{league.pk}/invitations/").json()["results"]
    assert [(row["id"], row["status"]) for row in listed] == [(link.pk, "revoked")]


def test_league_players_and_a_similar_name(client_for, anonymous, league, owner, players):
    client = client_for(owner)
    similar = client.post(f"/api/v1/leagues/{league.pk}/players/", {"name": "ann"}, format="json")
    assert similar.status_code == 400 and similar.json()["code"] == "similar_name"
    assert similar.json()["name"] == [f"there is already a player called Ann in Thursday Club (player "
                                      f"{players[0].pk}); pick them, or confirm that this is someone else"]
    added = client.post(f"/api/v1/leagues/{league.pk}/players/", {"name": "ann", "allow_similar": True},
                        format="json")
    assert added.status_code == 201
    listed = anonymous.get(f"/api/v1/leagues/{league.pk}/players/").json()["results"]
    assert sorted(row["name"] for row in listed) == ["Ann", "Ben", "Cat", "Dan", "ann"]


def test_a_merge_across_leagues_is_a_400_and_a_merge_in_one_works(client_for, league, owner, players):
    other = league_create(name="Other", by=owner)
    eve = player_create(name="Eve", by=owner, league=other)
    client = client_for(owner)
    across = client.post(f"/api/v1/leagues/{league.pk}/players/merge/",
                         {"keep": players[0].pk, "merge": eve.pk}, format="json")
    assert across.status_code == 404  # not one of this league's players
    twin = player_create(name="Ann", by=owner, league=league, allow_similar=True)
    merged = client.post(f"/api/v1/leagues/{league.pk}/players/merge/",
                         {"keep": players[0].pk, "merge": twin.pk}, format="json")
    assert merged.status_code == 200 and merged.json()["id"] == players[0].pk
    assert not Player.objects.filter(pk=twin.pk).exists()


def test_a_claim_decided_over_the_api(client_for, league, owner, member, players):
    claim = client_for(member).post(f"/api/v1/leagues/{league.pk}/players/{players[1].pk}/claim/")
    assert claim.status_code == 202 and claim.json()["status"] == "pending"
    waiting = client_for(owner).get(f"/api/v1/leagues/{league.pk}/claims/").json()["results"]
    assert [row["user"]["username"] for row in waiting] == ["member"]
    decided = client_for(owner).post(f"/api/v1/leagues/{league.pk}/claims/{claim.json()['id']}/",
                                     {"approve": True}, format="json")
    assert decided.json()["status"] == "approved"
    again = client_for(owner).post(f"/api/v1/leagues/{league.pk}/claims/{claim.json()['id']}/",
                                   {"approve": True}, format="json")
    assert again.status_code == 400 and again.json()["claim"] == ["this claim was already approved"]


@pytest.mark.parametrize("actor", ["member", "scorekeeper", "stranger"])
def test_claims_are_for_owners_to_read(client_for, request, league, actor):
    response = client_for(request.getfixturevalue(actor)).get(f"/api/v1/leagues/{league.pk}/claims/")
    assert response.status_code == 403


def test_sharing_a_casual_game(client_for, anonymous, creator, casual):
    assert anonymous.get(f"/api/v1/games/{casual.pk}/").status_code == 404
    shared = client_for(creator).patch(f"/api/v1/games/{casual.pk}/", {"is_public": True}, format="json")
    assert shared.status_code == 200 and shared.json()["is_public"] is True
    assert anonymous.get(f"/api/v1/games/{casual.pk}/").status_code == 200
