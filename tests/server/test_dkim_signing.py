"""Outbound mail DKIM-signed with the configured key (RSA or Ed25519), verified by dkimpy against the loopback
DNS server where the records ``manage.py dkim-records`` prints are published; no key, no signature."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dkim
import dns.resolver
import pytest

from app.inbound.clients import fresh
from tests.dns_server import shared_server
from tests.server.smtp_game import ALICE, REFEREE

ROOT = Path(__file__).parent.parent.parent


def make_key(folder: Path, kind: str) -> Path:
    path = folder / f"dkim-{kind}.pem"
    command = ["openssl", "genrsa", "-out", str(path), "2048"] if kind == "rsa" else \
        ["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(path)]
    subprocess.run(command, check=True, capture_output=True)
    return path


def records(env: dict[str, str]) -> list[str]:
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "dkim-records"], cwd=ROOT, capture_output=True,
                          text=True, env=dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", **env), timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def publish(zone, lines: list[str]) -> None:
    """Each record line of the zone file the command printed, served by the loopback DNS server."""
    for line in lines:
        if line and not line.startswith(";"):
            name, _ttl, _class, _type, value = line.split(None, 4)
            zone.add(name, "TXT", value)


def key_from_dns(name: bytes, timeout: float = 5) -> bytes | None:
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = ["127.0.0.1"]
    resolver.port = shared_server().port
    answer = resolver.resolve(name.decode(), "TXT", lifetime=timeout)
    return b"".join(answer[0].strings)


@pytest.mark.parametrize("kind", ["rsa", "ed25519"])
def test_every_mail_sent_is_signed_for_the_servers_domain_and_verifies(tmp_path, database_url, dns_zone, kind):
    from tests.conftest import make_server
    from tests.server.harness import Table
    from tests.server.mailhost import Sink

    key = make_key(tmp_path, kind)
    settings = {"DKIM_SELECTOR": "mp2026", "DKIM_PRIVATE_KEY_FILE": str(key), "SERVER_EMAIL": REFEREE,
                "MIRRORPOST_INSTANCE": str(tmp_path / "instance")}
    lines = records(settings)
    assert lines[1].startswith(f"mp2026._domainkey.mirrorpost.test. 3600 IN TXT \"v=DKIM1; k={kind}; p=")
    assert any(line.startswith('_dmarc.mirrorpost.test. 3600 IN TXT "v=DMARC1; p=none') for line in lines)
    assert any(line.startswith('mirrorpost.test. 3600 IN TXT "v=spf1 ') for line in lines)
    publish(dns_zone, lines)
    with Sink() as sink:
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port),
                             DKIM_SELECTOR="mp2026", DKIM_PRIVATE_KEY_FILE=str(key))
        Table(server).deliver(fresh(ALICE, REFEREE, "help"))
        assert server.dispatcher().run_once() == 1
        raw = sink.last_raw(ALICE)
        server.db.engine.dispose()
    assert raw.startswith(b"DKIM-Signature: v=1; a=" + (b"rsa" if kind == "rsa" else b"ed25519") + b"-sha256;")
    assert b"d=mirrorpost.test" in raw.split(b"\r\n\r\n", 1)[0] and b"c=relaxed/relaxed" in raw
    assert dkim.verify(raw, dnsfunc=key_from_dns)
    assert not dkim.verify(raw.replace(b"Reply above this line", b"Reply below this line", 1), dnsfunc=key_from_dns)


def test_without_a_key_mail_goes_unsigned_and_a_bad_key_file_is_refused_at_start(tmp_path, database_url):
    from tests.conftest import make_server

    server = make_server(tmp_path, database_url)
    assert server.dispatcher().dkim is None
    (tmp_path / "junk.pem").write_text("not a key")
    with pytest.raises(ValueError, match="DKIM_PRIVATE_KEY_FILE"):
        make_server(tmp_path, database_url, DKIM_SELECTOR="s1", DKIM_PRIVATE_KEY_FILE=str(tmp_path / "junk.pem")) \
            .dispatcher()
    with pytest.raises(ValueError, match="go together"):
        make_server(tmp_path, database_url, DKIM_SELECTOR="s1")
    server.db.engine.dispose()
