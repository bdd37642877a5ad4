"""The client's address and scheme behind reverse proxies, believed only from the proxies themselves.

``X-Forwarded-For`` and ``X-Forwarded-Proto`` are headers anybody can send. They are read (by
Werkzeug's ``ProxyFix``, counting ``TRUSTED_PROXIES`` hops from the right) only when the connection
comes from an address of ``TRUSTED_PROXY_ADDRESSES`` (loopback unless set); from anyone else they are
removed, and the connection's own address stands. Without ``TRUSTED_PROXIES`` they are never read.
``manage.py serve`` lets them through its WSGI server (Waitress drops them by default) only then.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT",
             "HTTP_X_FORWARDED_PREFIX", "HTTP_FORWARDED")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(addresses: Iterable[str]) -> tuple[Network, ...]:
    """``127.0.0.1``, ``10.0.0.0/8``, ``::1``...; a bad one is refused at start, not ignored."""
    return tuple(ipaddress.ip_network(address.strip(), strict=False) for address in addresses if address.strip())


class TrustedForwarding:
    """WSGI middleware: ``ProxyFix`` for requests from trusted addresses, the forwarded headers dropped for
    everyone else."""

    def __init__(self, app: Any, hops: int, trusted: Iterable[str]) -> None:
        self.app = app
        self.fixed = ProxyFix(app, x_for=hops, x_proto=hops)
        self.trusted = networks(trusted)

    def from_trusted(self, environ: dict[str, Any]) -> bool:
        try:
            peer = ipaddress.ip_address(environ.get("REMOTE_ADDR", ""))
        except ValueError:
            return False
        return any(peer in network for network in self.trusted)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.from_trusted(environ):
            return self.fixed(environ, start_response)
        for name in FORWARDED:
            environ.pop(name, None)
        return self.app(environ, start_response)
