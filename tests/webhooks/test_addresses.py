"""No server-side request forgery: which addresses webhooks may be registered for and sent to.

DNS is the boundary mocked here (``socket.getaddrinfo``): a name answering a public address when the
endpoint is registered and a private one at delivery (DNS rebinding) must be refused at delivery.
"""

from __future__ import annotations

import re
import socket

import pytest

from games.errors import InvalidInput
from games.models import WebhookDelivery
from games.services import webhook_create
from games.webhooks.addresses import checked_target, is_public
from games.webhooks.deliveries import claim
from games.webhooks.delivery import attempt_delivery, pool_for


@pytest.fixture
def production(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    settings.WEBHOOK_ALLOW_HTTP = False
    return settings


@pytest.fixture
def dns(monkeypatch):
    """``dns["hooks.example.com"] = ["93.184.216.34"]``: what each name resolves to from now on."""
    answers: dict[str, list[str]] = {}

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in answers[host]]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
                                     "100.64.0.1", "0.0.0.0", "::1", "fc00::1", "fe80::1", "::ffff:127.0.0.1",
                                     "224.0.0.1", "240.0.0.1"])
def test_addresses_that_are_not_on_the_public_internet(address):
    assert not is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:4700::1111", "8.8.8.8"])
def test_public_addresses(address):
    assert is_public(address)


# IPv6 forms that carry an IPv4 address: each is judged by the IPv4 address it reaches.
IPV6_CARRYING_IPV4 = [
    ("::127.0.0.1", "IPv4-compatible loopback"),
    ("::ffff:0:7f00:1", "IPv4-translated (SIIT) loopback"),
    ("::ffff:127.0.0.1", "IPv4-mapped loopback"),
    ("64:ff9b::7f00:1", "NAT64 well-known prefix, loopback"),
    ("64:ff9b::a9fe:a9fe", "NAT64 well-known prefix, the cloud metadata address"),
    ("64:ff9b::a00:1", "NAT64 well-known prefix, 10.0.0.1"),
    ("64:ff9b:1::7f00:1", "NAT64 local-use prefix"),
    ("2002:7f00:1::", "6to4 from loopback"),
    ("2002:a9fe:a9fe::1", "6to4 from the cloud metadata address"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo with a loopback client"),
    ("2001:0:7f00:1:8000:63bf:3fff:fdd2", "Teredo with a loopback server"),
]


@pytest.mark.parametrize(("address", "form"), IPV6_CARRYING_IPV4)
def test_ipv6_forms_of_private_ipv4_addresses_are_not_public(address, form):
    assert not is_public(address), form


@pytest.mark.parametrize("address", ["64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"])
def test_ipv6_forms_of_public_ipv4_addresses_are_public(address):
    assert is_public(address)


@pytest.mark.parametrize(("address", "form"), IPV6_CARRYING_IPV4)
def test_production_refuses_ipv6_forms_of_private_addresses(production, dns, league, owner, address, form):
    dns[address] = [address]  # a literal address "resolves" to itself, and is named once
    with pytest.raises(InvalidInput, match=rf"^{re.escape(address)} is not a public internet address"):
        webhook_create(league=league, url=f"https://[{address}]/hooks", events=["hand.recorded"], by=owner)


@pytest.mark.parametrize(("url", "message"), [
    ("ftp://hooks.example.com/x", "the address must start with https://"),
    ("file:///etc/passwd", "the address must start with https://"),
    ("http://hooks.example.com/x", "the address must start with https://"),
    ("https:///no-host", "the address has no host name"),
    ("https://user:pass@hooks.example.com/", "put no user name or password in the address"),
    ("https://hooks.example.com:99999/", "this is not a usable address"),
    ("https://localhost/hooks", "localhost resolves to 127.0.0.1, which is not a public internet address"),
    ("https://10.0.0.5/hooks", "10.0.0.5 is not a public internet address"),
    ("https://nowhere.example.com/hooks", "the host nowhere.example.com could not be found"),
])
def test_production_refuses_at_registration(production, dns, league, owner, url, message):
    dns.update({"localhost": ["127.0.0.1"], "10.0.0.5": ["10.0.0.5"]})
    with pytest.raises(InvalidInput) as refused:
        webhook_create(league=league, url=url, events=["hand.recorded"], by=owner)
    assert refused.value.field == "url"
    assert message in refused.value.message


def test_a_name_with_any_private_address_is_refused(production, dns, league, owner):
    dns["split.example.com"] = ["93.184.216.34", "192.168.0.7"]
    with pytest.raises(InvalidInput, match="resolves to 192.168.0.7"):
        webhook_create(league=league, url="https://split.example.com/", events=["hand.recorded"], by=owner)


def test_dns_rebinding_is_refused_at_delivery(production, dns, league, owner):
    dns["hooks.example.com"] = ["93.184.216.34"]
    endpoint = webhook_create(league=league, url="https://hooks.example.com/in", events=["hand.recorded"], by=owner)
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, message_id="msg_1", event="hand.recorded",
                                              payload={"type": "hand.recorded"})
    dns["hooks.example.com"] = ["127.0.0.1"]  # the name now points inside

    retry_in = attempt_delivery(delivery.pk, 1)

    delivery.refresh_from_db()
    assert delivery.attempts[0]["status_code"] is None
    assert delivery.attempts[0]["error"] == ("not sent: hooks.example.com resolves to 127.0.0.1, which is not a "
                                            "public internet address; webhooks are only sent to public addresses")
    assert retry_in is not None and delivery.status == WebhookDelivery.Status.RETRYING


def test_a_delivery_connects_to_the_address_that_was_checked(production, dns):
    dns["hooks.example.com"] = ["93.184.216.34"]
    target = checked_target("https://hooks.example.com:8443/in?league=1")
    pool = pool_for(target, 5)
    assert (pool.host, pool.port) == ("93.184.216.34", 8443)
    assert pool.conn_kw["server_hostname"] == "hooks.example.com" and pool.assert_hostname == "hooks.example.com"
    assert target.host_header == "hooks.example.com:8443" and target.path == "/in?league=1"


def test_development_allows_loopback_and_http(league, owner):
    endpoint = webhook_create(league=league, url="http://127.0.0.1:8025/hooks", events=["game.finished"], by=owner)
    assert endpoint.secret.startswith("whsec_")


def test_an_attempt_is_made_once_even_if_its_task_comes_twice(league, owner):
    endpoint = webhook_create(league=league, url="http://127.0.0.1:9/x", events=["hand.recorded"], by=owner)
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, message_id="msg_2", event="hand.recorded",
                                              payload={})
    assert claim(delivery_id=delivery.pk, attempt=1) is not None
    assert claim(delivery_id=delivery.pk, attempt=1) is None
