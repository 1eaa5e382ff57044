"""Which webhook addresses Scorekeeper will send to: no server-side request forgery.

A webhook makes the server send a request to an address someone else chose. Unless
``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` is on (development), an address must resolve only to public
internet addresses: never loopback, private, link-local (cloud metadata), carrier-grade NAT,
multicast or reserved ranges. The check is made when the endpoint is registered and again at
every delivery, and the delivery then connects to the very address that was checked, so a name
that resolves to a public address at first and to a private one later (DNS rebinding) is refused.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from games.errors import InvalidInput

MAX_URL = 500


class AddressRefused(InvalidInput):
    """The address is not one Scorekeeper sends webhooks to (a person-readable reason)."""

    def __init__(self, message: str):
        super().__init__(message, field="url")


@dataclass(frozen=True)
class Target:
    """Where a delivery goes: the URL's parts, and the checked address to connect to (None: let the
    client resolve the name, only where private addresses are allowed)."""

    scheme: str
    host: str
    port: int
    path: str
    address: str | None = None

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


def parse(url: str) -> Target:
    """The URL's parts, or :class:`AddressRefused` saying what is wrong with it."""
    if not isinstance(url, str) or not url.strip():
        raise AddressRefused("give the address (URL) to send events to")
    url = url.strip()
    if len(url) > MAX_URL:
        raise AddressRefused(f"an address can be at most {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise AddressRefused(f"this is not a usable address: {error}") from None
    schemes = ("https", "http") if settings.WEBHOOK_ALLOW_HTTP else ("https",)
    if parts.scheme not in schemes:
        raise AddressRefused(
            "the address must start with https://" if schemes == ("https",)
            else "the address must start with https:// or http://"
        )
    if not parts.hostname:
        raise AddressRefused("the address has no host name, e.g. https://hooks.example.com/scorekeeper")
    if parts.username is not None or parts.password is not None:
        raise AddressRefused("put no user name or password in the address; check the signature instead")
    if any(char.isspace() for char in url):
        raise AddressRefused("the address cannot contain spaces")
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(scheme=parts.scheme, host=parts.hostname, port=port or (443 if parts.scheme == "https" else 80),
                  path=path)


def is_public(address: str) -> bool:
    """Whether an IP address is on the public internet (an IPv4 address inside IPv6 is judged as IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """Every address the name resolves to now (one lookup)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise AddressRefused(f"the host {host} could not be found ({error})") from None
    return list(dict.fromkeys(info[4][0] for info in infos))


def checked_target(url: str) -> Target:
    """The URL's target, resolved and checked now; refused if any address it resolves to is not public.

    Where private addresses are allowed (development), the name is not looked up here.
    """
    target = parse(url)
    if settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        return target
    addresses = resolve(target.host, target.port)
    refused = [address for address in addresses if not is_public(address)]
    if refused or not addresses:
        raise AddressRefused(
            f"{target.host} resolves to {', '.join(refused) or 'nothing'}, which is not a public internet "
            "address; webhooks are only sent to public addresses"
        )
    return Target(scheme=target.scheme, host=target.host, port=target.port, path=target.path,
                  address=addresses[0])
