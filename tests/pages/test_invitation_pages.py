"""Invitation pages: the owner makes a link and its QR code; the person opens it, signs in or up, accepts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Invitation, Membership
from games.services import invitation_create, league_create

pytestmark = pytest.mark.django_db


def test_the_owner_makes_a_link_with_its_qr_code(owner_client, league):
    response = owner_client.post(reverse("league-invitations", args=[league.slug]),
                                 {"role": "scorekeeper", "days": "7", "max_uses": "3", "player": "",
                                  "idempotency_key": "k1"})
    invitation = Invitation.objects.get()
    assert response["Location"] == reverse("league-invitation", args=[league.slug, invitation.pk])
    assert (invitation.role, invitation.max_uses) == ("scorekeeper", 3)
    page = owner_client.get(response["Location"]).content.decode()
    assert f"/invitations/{invitation.token}/" in page and 'alt="QR code of the invitation link"' in page
    assert "style=" not in page and "<script>" not in page
    qr = owner_client.get(reverse("league-invitation-qr", args=[league.slug, invitation.pk]))
    assert qr["Content-Type"] == "image/svg+xml" and qr.content.startswith(b"<?xml")
    assert b"<svg" in qr.content and b"http://testserver/invitations/" not in qr.content  # encoded, not text
    # The same form sent twice makes one invitation.
    owner_client.post(reverse("league-invitations", args=[league.slug]),
                      {"role": "scorekeeper", "days": "7", "max_uses": "3", "player": "", "idempotency_key": "k1"})
    assert Invitation.objects.count() == 1


def test_bad_invitation_form_is_shown_beside_the_field(owner_client, league):
    response = owner_client.post(reverse("league-invitations", args=[league.slug]),
                                 {"role": "owner", "days": "7", "max_uses": "0"})
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["role"] and form.errors["max_uses"]
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("actor", ["scorekeeper", "member", "stranger"])
def test_only_owners_see_invitations_and_their_qr_codes(signed_in, request, league, owner, actor):
    invitation = invitation_create(league=league, role="member", by=owner)
    client = signed_in(request.getfixturevalue(actor))
    assert client.get(reverse("league-invitations", args=[league.slug])).status_code == 403
    assert client.get(reverse("league-invitation-qr", args=[league.slug, invitation.pk])).status_code == 403


def test_a_private_leagues_invitations_are_404_to_outsiders(signed_in, owner, stranger):
    private = league_create(name="Back Room", by=owner, is_public=False)
    assert signed_in(stranger).get(reverse("league-invitations", args=[private.slug])).status_code == 404


def test_opening_a_link_signed_out_offers_sign_up_and_sign_in(client, league, owner):
    link = invitation_create(league=league, role="scorekeeper", by=owner)
    page = client.get(reverse("invitation", args=[link.token])).content.decode()
    assert "Owner D. invites you to join <b>Thursday Club</b> as a scorekeeper" in page
    assert f"/accounts/signup/?invitation={link.token}" in page
    assert f"/accounts/login/?next=/invitations/{link.token}/" in page


def test_accepting_joins_and_a_second_time_is_refused(signed_in, league, owner, stranger):
    link = invitation_create(league=league, role="member", max_uses=5, by=owner)
    client = signed_in(stranger)
    assert client.post(reverse("invitation", args=[link.token]), {"action": "accept"}).status_code == 302
    again = client.post(reverse("invitation", args=[link.token]), {"action": "accept"})
    assert again.status_code == 400
    assert "you have already accepted this invitation" in again.content.decode()
    assert Membership.objects.filter(league=league, user=stranger).count() == 1


def test_an_expired_link_says_so_and_changes_nothing(signed_in, client, league, owner, stranger):
    link = invitation_create(league=league, role="member", by=owner)
    Invitation.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(hours=1))
    shown = client.get(reverse("invitation", args=[link.token]))
    assert shown.status_code == 410 and "has expired" in shown.content.decode()
    refused = signed_in(stranger).post(reverse("invitation", args=[link.token]), {"action": "accept"})
    assert refused.status_code == 410 and "ask the organiser for a new one" in refused.content.decode()
    assert not Membership.objects.filter(league=league, user=stranger).exists()


def test_an_unknown_link_is_404(client):
    assert client.get(reverse("invitation", args=["no-such-token"])).status_code == 404


def test_the_owner_withdraws_a_link(owner_client, league, owner, client):
    link = invitation_create(league=league, role="member", by=owner)
    owner_client.post(reverse("league-invitation", args=[league.slug, link.pk]))
    assert client.get(reverse("invitation", args=[link.token])).status_code == 410


def test_an_invitation_to_a_user_shows_on_their_home_page_and_can_be_declined(signed_in, league, owner, stranger):
    invitation = invitation_create(league=league, role="scorekeeper", by=owner, invitee=stranger)
    client = signed_in(stranger)
    assert "Invitations for you" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("invitation", args=[invitation.token]), {"action": "decline"})
    assert response["Location"] == reverse("home")
    assert "Invitations for you" not in client.get(reverse("home")).content.decode()
    assert not Membership.objects.filter(league=league, user=stranger).exists()
