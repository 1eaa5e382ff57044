"""Creating and editing a league from the web, and its players page: add, link, claim, merge."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import League, Membership, Player, PlayerClaim
from games.services import league_create, player_create

pytestmark = pytest.mark.django_db


def league_form(**fields):
    """The league form as the browser sends it: every house rule at its shown value, then ``fields``."""
    from games.forms import LeagueForm

    form = LeagueForm()
    shown = {name: form[name].value() for name in form.fields}
    shown = {name: "" if value is None else value for name, value in shown.items()}
    return {**shown, "name": "Fridays", "slug": "", "privacy": "public", "idempotency_key": "", **fields}


def test_a_signed_in_user_creates_a_league_and_owns_it(signed_in, stranger):
    client = signed_in(stranger)
    page = client.get(reverse("league-new")).content.decode()
    assert "Points a side needs to win" in page  # each house rule explained in plain words
    response = client.post(reverse("league-new"), league_form(privacy="private", spades__target="300",
                                                              spades__nil_value="50"))
    league = League.objects.get(name="Fridays")
    assert response["Location"] == reverse("league", args=["fridays"])
    assert not league.is_public
    # Only the house rules that differ from the game's own are kept (the others follow the rules).
    assert league.default_options == {"spades": {"target": 300}}
    assert Membership.objects.get(league=league).user == stranger


def test_a_taken_or_reserved_address_is_shown_beside_it(owner_client, league):
    for slug in (league.slug, "new"):
        response = owner_client.post(reverse("league-new"), league_form(slug=slug))
        assert response.status_code == 400
        assert "is taken by another league" in response.context["form"].errors["slug"][0]
    assert League.objects.count() == 1


def test_a_league_called_new_gets_another_address(owner_client):
    owner_client.post(reverse("league-new"), league_form(name="New"))
    assert League.objects.get(name="New").slug == "new-2"


def test_the_owner_edits_the_league(owner_client, league):
    page = owner_client.get(reverse("league-edit", args=[league.slug])).content.decode()
    assert 'value="Thursday Club"' in page
    response = owner_client.post(reverse("league-edit", args=[league.slug]),
                                 league_form(name="Thursday Night Club", privacy="private", trumps__target="7"))
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.name, league.is_public, league.default_options) == ("Thursday Night Club", False,
                                                                       {"trumps": {"target": 7}})


def test_others_cannot_edit_the_league(signed_in, league, scorekeeper):
    assert signed_in(scorekeeper).post(reverse("league-edit", args=[league.slug]),
                                       league_form()).status_code == 403


def test_anonymous_is_sent_to_sign_in_to_create_a_league(client):
    assert reverse("login") in client.get(reverse("league-new"))["Location"]


def test_scorekeepers_add_players_and_a_similar_name_asks_first(signed_in, league, owner, scorekeeper, players):
    client = signed_in(scorekeeper)
    url = reverse("league-player-add", args=[league.slug])
    refused = client.post(url, {"name": "ANN", "idempotency_key": "a"})
    assert refused.status_code == 400
    assert "already a player called Ann in Thursday Club" in refused.context["add_form"].errors["name"][0]
    assert "This is someone else, with a similar name" in refused.content.decode()
    assert client.post(url, {"name": "ANN", "allow_similar": "on", "idempotency_key": "b"}).status_code == 302
    assert league.players.filter(name="ANN").exists()
    assert signed_in(owner).get(reverse("league-players", args=[league.slug])).status_code == 200


def test_members_cannot_add_players(signed_in, league, member):
    response = signed_in(member).post(reverse("league-player-add", args=[league.slug]), {"name": "Zed"})
    assert response.status_code == 403 and not Player.objects.filter(name="Zed").exists()


def test_a_member_claims_a_player_and_the_owner_confirms(signed_in, league, owner, member, players):
    client = signed_in(member)
    page = client.get(reverse("league-players", args=[league.slug])).content.decode()
    assert "That's me<span class=\"visually-hidden\">: I am Ann</span>" in page
    client.post(reverse("league-player-claim", args=[league.slug, players[0].pk]))
    assert "waiting for an organiser" in client.get(reverse("league-players", args=[league.slug])).content.decode()
    claim = PlayerClaim.objects.get()
    owner_client = signed_in(owner)
    assert "says they are <b>Ann</b>" in owner_client.get(reverse("league-players", args=[league.slug])).content.decode()
    owner_client.post(reverse("league-claim-decide", args=[league.slug, claim.pk]), {"decision": "approve"})
    players[0].refresh_from_db()
    assert players[0].user == member
    profile = signed_in(member).get(reverse("profile")).content.decode()
    assert f'href="/players/{players[0].pk}/"' in profile


def test_the_owner_links_and_merges_players(owner_client, league, owner, member, players):
    duplicate = player_create(name="ann", by=owner, league=league, allow_similar=True)
    response = owner_client.post(reverse("league-player-link", args=[league.slug]),
                                 {"player": str(duplicate.pk), "user": str(member.pk)})
    assert response.status_code == 302
    merged = owner_client.post(reverse("league-player-merge", args=[league.slug]),
                               {"merge": str(duplicate.pk), "keep": str(players[0].pk)})
    assert merged.status_code == 302
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    players[0].refresh_from_db()
    assert players[0].user == member


def test_a_refused_merge_is_shown_on_the_form(owner_client, league, owner, players, seats, start_game):
    start_game("spades")
    response = owner_client.post(reverse("league-player-merge", args=[league.slug]),
                                 {"merge": str(players[1].pk), "keep": str(players[0].pk)})
    assert response.status_code == 400
    assert "sat at the same table" in response.context["merge_form"].errors["merge"][0]


def test_the_players_page_of_a_private_league_is_404_to_outsiders(signed_in, client, owner, stranger):
    private = league_create(name="Back Room", by=owner, is_public=False)
    for visitor in (client, signed_in(stranger)):
        assert visitor.get(reverse("league-players", args=[private.slug])).status_code == 404


def test_a_member_leaves_and_the_last_owner_cannot(signed_in, league, owner, member):
    client = signed_in(member)
    assert "Leave Thursday Club" in client.get(reverse("league", args=[league.slug])).content.decode()
    assert client.post(reverse("league-leave", args=[league.slug]))["Location"] == reverse("home")
    assert not Membership.objects.filter(league=league, user=member).exists()
    owner_client = signed_in(owner)
    response = owner_client.post(reverse("league-leave", args=[league.slug]), follow=True)
    assert "a league must keep at least one owner" in response.content.decode()
    assert Membership.objects.filter(league=league, user=owner).exists()
