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


# IPv6 prefixes that carry an IPv4 address in their last 32 bits: the deprecated IPv4-compatible form
# (``::a.b.c.d``), SIIT's IPv4-translated form (``::ffff:0:a.b.c.d``) and NAT64's well-known prefix
# (``64:ff9b::a.b.c.d``, RFC 6052): a packet to one of them may reach that IPv4 address.
LAST_32_BITS = (
    ipaddress.IPv6Network("::/96"),
    ipaddress.IPv6Network("::ffff:0:0:0/96"),
    ipaddress.IPv6Network("64:ff9b::/96"),
)
# NAT64's local-use prefix (RFC 8215) places the IPv4 address where each network chooses: never public.
LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address an IPv6 address carries: IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64
    (well-known prefix), 6to4 (``2002:a.b.c.d::``) and Teredo (its server and, de-obfuscated, its client)."""
    found = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if any(ip in network for network in LAST_32_BITS):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    return found


def is_public(address: str) -> bool:
    """Whether an IP address is on the public internet.

    An IPv6 address that carries an IPv4 address (:func:`embedded_ipv4`) is public only if that IPv4
    address is too: ``[::ffff:0:7f00:1]``, ``[64:ff9b::a9fe:a9fe]`` or ``[2002:7f00:1::]`` reach loopback
    or the cloud metadata address through a translator or a relay.
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in LOCAL_NAT64:
            return False
        inside = embedded_ipv4(ip)
        if inside:
            return all(is_public_ipv4(v4) for v4 in inside)
    return ip.is_global and not ip.is_multicast


def is_public_ipv4(ip: ipaddress.IPv4Address) -> bool:
    return ip.is_global and not ip.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """Every address the name resolves to now (one lookup)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise AddressRefused(f"the host {host} could not be found ({error})") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


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
        # An address written as the host is not "resolved": say what it is.
        named = (f"{target.host} is" if refused == [target.host.strip("[]")]
                 else f"{target.host} resolves to {', '.join(refused) or 'nothing'}, which is")
        raise AddressRefused(f"{named} not a public internet address; webhooks are only sent to public addresses")
    return Target(scheme=target.scheme, host=target.host, port=target.port, path=target.path,
                  address=addresses[0])
