"""Registering webhooks through the API and the pages: owners manage them; members and strangers cannot."""

from __future__ import annotations

import pytest

from games.models import WebhookDelivery, WebhookEndpoint
from games.services import webhook_create

URL = "http://127.0.0.1:8025/hooks"


def api(league) -> str:
    return f"/api/v1/leagues/{league.pk}/webhooks/"


def test_an_owner_registers_an_endpoint_and_gets_its_secret(as_owner, league):
    response = as_owner.post(api(league), {"url": URL, "events": ["game.finished", "hand.recorded"],
                                           "description": "the club's scoreboard"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["events"] == ["hand.recorded", "game.finished"]  # in the documented order
    assert body["secret"].startswith("whsec_") and body["is_active"] is True and body["created_by"] == "Owner D."
    listed = as_owner.get(api(league)).json()
    assert listed["count"] == 1 and listed["results"][0]["url"] == URL


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"url": "gopher://127.0.0.1/", "events": ["hand.recorded"]}, "url",
     "the address must start with https:// or http://"),
    ({"url": URL, "events": ["hand.deleted"]}, "events", 'unknown event "hand.deleted"; choose from hand.recorded'),
    ({"url": URL, "events": []}, "events", "choose at least one event"),
    ({"url": URL, "events": ["hand.recorded"], "colour": "red"}, "colour", "unknown field"),
])
def test_bad_input_is_refused_naming_the_field(as_owner, league, body, field, message):
    response = as_owner.post(api(league), body, format="json")
    assert response.status_code == 400
    assert message in response.json()[field][0]
    assert not WebhookEndpoint.objects.exists()


def test_the_same_address_twice_and_more_than_ten_are_refused(as_owner, league, owner):
    webhook_create(league=league, url=URL, events=["hand.recorded"], by=owner)
    again = as_owner.post(api(league), {"url": URL, "events": ["game.finished"]}, format="json")
    assert again.json()["url"] == ["this address is already registered for the league; change its events instead"]
    for n in range(9):
        webhook_create(league=league, url=f"{URL}/{n}", events=["hand.recorded"], by=owner)
    full = as_owner.post(api(league), {"url": f"{URL}/x", "events": ["game.finished"]}, format="json")
    assert full.status_code == 400 and "at most 10 webhook endpoints" in full.json()["url"][0]


def test_owners_only(client_for, anonymous, league, member, scorekeeper, stranger, owner):
    endpoint = webhook_create(league=league, url=URL, events=["hand.recorded"], by=owner)
    for user in (member, scorekeeper, stranger):
        client = client_for(user)
        assert client.get(api(league)).status_code == 403
        assert client.post(api(league), {"url": URL + "/2", "events": ["hand.recorded"]},
                           format="json").status_code == 403
        assert client.get(f"{api(league)}{endpoint.pk}/").status_code == 403
        assert client.post(f"{api(league)}{endpoint.pk}/test/").status_code == 403
        assert client.delete(f"{api(league)}{endpoint.pk}/").status_code == 403
    assert anonymous.get(api(league)).status_code == 401
    assert WebhookEndpoint.objects.count() == 1 and not WebhookDelivery.objects.exists()


def test_a_private_leagues_webhooks_are_a_404_to_outsiders(client_for, private_league, stranger):
    assert client_for(stranger).get(api(private_league)).status_code == 404


def test_change_pause_test_and_read_the_log(as_owner, league, owner):
    endpoint = webhook_create(league=league, url=URL, events=["hand.recorded"], by=owner)
    url = f"{api(league)}{endpoint.pk}/"
    changed = as_owner.patch(url, {"events": ["standings.updated"], "is_active": False}, format="json").json()
    assert changed["events"] == ["standings.updated"] and changed["is_active"] is False
    paused = as_owner.post(f"{url}test/")
    assert paused.status_code == 400 and paused.json()["is_active"] == ["the endpoint is paused; resume it to send a test"]
    as_owner.patch(url, {"is_active": True}, format="json")
    sent = as_owner.post(f"{url}test/")
    assert sent.status_code == 202
    assert sent.json()["event"] == "webhook.test" and sent.json()["status"] == "pending"
    log = as_owner.get(f"{url}deliveries/").json()
    assert log["count"] == 1 and log["results"][0]["message_id"] == sent.json()["message_id"]
    assert log["results"][0]["payload"]["data"]["league"]["id"] == league.pk
    assert as_owner.delete(url).status_code == 204
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()


# --- the pages ---------------------------------------------------------------------------------------


@pytest.fixture
def owner_page(client, owner):
    client.force_login(owner)
    return client


def test_the_owner_adds_an_endpoint_from_the_league_page(owner_page, league):
    assert f"/leagues/{league.slug}/webhooks/" in owner_page.get(f"/leagues/{league.slug}/").content.decode()
    response = owner_page.post(f"/leagues/{league.slug}/webhooks/",
                               {"url": URL, "events": ["hand.recorded", "game.finished"], "description": "TV"})
    endpoint = WebhookEndpoint.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.slug}/webhooks/{endpoint.pk}/"
    page = owner_page.get(response["Location"]).content.decode()
    assert endpoint.secret in page and "Copy its signing secret" in page
    assert "Nothing sent yet." in page


def test_a_bad_address_shows_beside_its_field(owner_page, league):
    response = owner_page.post(f"/leagues/{league.slug}/webhooks/", {"url": "ftp://x", "events": ["hand.recorded"]})
    assert response.status_code == 400
    assert "the address must start with https:// or http://" in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_test_pause_and_remove_from_the_page(owner_page, league, owner):
    endpoint = webhook_create(league=league, url=URL, events=["hand.recorded"], by=owner)
    page_url = f"/leagues/{league.slug}/webhooks/{endpoint.pk}/"
    owner_page.post(page_url, {"action": "test"})
    page = owner_page.get(page_url).content.decode()
    assert "webhook.test" in page and "Waiting to be sent" in page
    owner_page.post(page_url, {"action": "pause"})
    assert WebhookEndpoint.objects.get().is_active is False
    assert "paused" in owner_page.get(page_url).content.decode()
    owner_page.post(page_url, {"action": "delete"})
    assert not WebhookEndpoint.objects.exists()


def test_members_cannot_open_the_webhook_pages(client, member, league, owner):
    endpoint = webhook_create(league=league, url=URL, events=["hand.recorded"], by=owner)
    client.force_login(member)
    assert client.get(f"/leagues/{league.slug}/webhooks/").status_code == 403
    assert client.post(f"/leagues/{league.slug}/webhooks/{endpoint.pk}/", {"action": "delete"}).status_code == 403
    assert "webhooks/" not in client.get(f"/leagues/{league.slug}/").content.decode()
    assert WebhookEndpoint.objects.exists()
