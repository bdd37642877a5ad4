"""A small authoritative DNS server on loopback (UDP and TCP), answers made by dnspython: what the sender checks
ask, served from a zone a test fills, and names that misbehave as hostile or broken servers do.

One server runs for the whole test process (``shared_server``); every server the tests start asks it
(``DNS_NAMESERVERS``), so no test depends on the machine's resolver. Each test that needs records gets the
zone empty (the ``dns_zone`` fixture) and adds them.
"""

from __future__ import annotations

import socket
import socketserver
import threading
from dataclasses import dataclass, field
from functools import cache

import dns.flags
import dns.message
import dns.name
import dns.rcode
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.rrset

SILENT, TRUNCATED, LOOP = "silent", "truncated", "loop"  # behaviours of a name: never answer; answer truncated,
# over TCP too; a CNAME to a name that is a CNAME back to it, both in the answer
SOA = "ns.zone.test. hostmaster.zone.test. 1 3600 600 86400 60"


@dataclass
class Zone:
    """Records by name (lower case, no final dot): (type, text) pairs as a zone file writes them."""

    records: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    behaviours: dict[str, str] = field(default_factory=dict)
    asked: list[tuple[str, str]] = field(default_factory=list)  # (name, type) of every question, in order

    def add(self, name: str, rdtype: str, text: str) -> None:
        self.records.setdefault(name.lower().rstrip("."), []).append((rdtype, text))

    def txt(self, name: str, value: str | bytes) -> None:
        """A TXT record, cut into strings of 255 bytes as DNS holds them."""
        data = value.encode() if isinstance(value, str) else value
        chunks = [data[start:start + 255] for start in range(0, len(data), 255)] or [b""]
        self.add(name, "TXT", " ".join('"' + chunk.decode("latin-1").replace('"', '\\"') + '"' for chunk in chunks))

    def misbehave(self, name: str, behaviour: str) -> None:
        self.behaviours[name.lower().rstrip(".")] = behaviour

    def clear(self) -> None:
        self.records.clear()
        self.behaviours.clear()
        self.asked.clear()

    def answer(self, query: dns.message.Message, tcp: bool) -> bytes | None:
        """The response's bytes, or None to say nothing."""
        question = query.question[0]
        name = question.name.to_text(omit_final_dot=True).lower()
        self.asked.append((name, dns.rdatatype.to_text(question.rdtype)))
        behaviour = self.behaviours.get(name)
        response = dns.message.make_response(query)
        response.flags |= dns.flags.AA
        if behaviour == SILENT:
            return None
        if behaviour == TRUNCATED:
            response.flags |= dns.flags.TC
            return response.to_wire()
        if behaviour == LOOP:
            other = dns.name.from_text("loop." + name)
            response.answer.append(dns.rrset.from_text(question.name, 300, "IN", "CNAME", other.to_text()))
            response.answer.append(dns.rrset.from_text(other, 300, "IN", "CNAME", question.name.to_text()))
            return response.to_wire()
        found = self.records.get(name)
        if found is None:
            response.set_rcode(dns.rcode.NXDOMAIN)
            response.authority.append(dns.rrset.from_text("zone.test.", 60, "IN", "SOA", SOA))
            return response.to_wire()
        wanted = dns.rdatatype.to_text(question.rdtype)
        for rdtype, text in found:
            if rdtype == "CNAME" or rdtype == wanted:
                response.answer.append(dns.rrset.from_text(question.name, 300, "IN", rdtype, text))
        if not response.answer:
            response.authority.append(dns.rrset.from_text("zone.test.", 60, "IN", "SOA", SOA))
        wire = response.to_wire(max_size=65535)
        if not tcp and len(wire) > 1232:  # as an EDNS server does: the whole answer over TCP
            response.answer.clear()
            response.flags |= dns.flags.TC
            wire = response.to_wire()
        return wire


class _UDP(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        data, sock = self.request
        try:
            wire = self.server.zone.answer(dns.message.from_wire(data), tcp=False)
        except Exception:
            return
        if wire is not None:
            sock.sendto(wire, self.client_address)


class _TCP(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        connection = self.request
        connection.settimeout(5)
        try:
            size = int.from_bytes(_read(connection, 2), "big")
            wire = self.server.zone.answer(dns.message.from_wire(_read(connection, size)), tcp=True)
        except Exception:
            return
        if wire is not None:
            connection.sendall(len(wire).to_bytes(2, "big") + wire)


def _read(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


class DnsServer:
    """The server on 127.0.0.1: one port, UDP and TCP, serving ``zone``."""

    def __init__(self) -> None:
        self.zone = Zone()
        self.udp = socketserver.ThreadingUDPServer(("127.0.0.1", 0), _UDP)
        port = self.udp.server_address[1]
        try:
            self.tcp = socketserver.ThreadingTCPServer(("127.0.0.1", port), _TCP)
        except OSError:
            self.udp.server_close()
            raise
        for server in (self.udp, self.tcp):
            server.daemon_threads = True
            server.zone = self.zone
            threading.Thread(target=server.serve_forever, daemon=True).start()
        self.port = port

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@cache
def shared_server() -> DnsServer:
    """The one server of this test process, started when first asked for."""
    for _attempt in range(20):  # the TCP port may be taken although the UDP one was free
        try:
            return DnsServer()
        except OSError:
            continue
    raise RuntimeError("no free port for the test DNS server")
