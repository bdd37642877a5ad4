"""Proven senders over real SMTP: mail signed by its provider (RSA and Ed25519 DKIM) or sent from a host its
domain's SPF names is carried out at once; once a player's mail was proven, mail in their name that is not
(a forged From, a forwarded move request answered by someone else) is refused whole and the player told; a
From domain publishing DMARC p=reject is refused unproven; no DNS at all leaves mail flowing as before."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app.club.models import Seek
from app.games.models import Game as GameRow
from app.games.models import Player
from app.inbound.clients import fresh, reply
from app.inbound.models import InboundMessage
from app.inbound.pipeline import Received
from app.service import Service
from tests.server.mailhost import wait_until
from tests.server.signing import OTHER_HOST, SENDING_HOST, Provider, send
from tests.server.smtp_game import ALICE, MALLORY, REFEREE

CAROL = "carol@signing.test"  # a provider that signs with Ed25519


@pytest.fixture
def club(game, dns_zone):
    """The server with its listener, Alice's provider (players.test, RSA) and Carol's (signing.test, Ed25519)."""
    game.players = Provider(dns_zone, "players.test")
    game.signing = Provider(dns_zone, "signing.test", kind="ed25519", selector="ed")
    return game


def latest(server) -> InboundMessage:
    with server.db.sessions() as session:
        return session.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first()


def deliver(game, raw: bytes, envelope_from: str, recipient: str = REFEREE, host: str = SENDING_HOST) -> str:
    """Hand the mail to the listener from ``host``; once processed, the mails it caused are dispatched. Returns
    what became of it."""
    before = game.processed()
    send(game.port, raw, envelope_from, recipient, host)
    wait_until(lambda: game.processed() > before, timeout=30, what="the message to be processed")
    game.worker.run_once()
    row = latest(game.server)
    return f"{row.status}: {row.outcome}"


def said(message) -> str:
    parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    return " ".join(" ".join(parts).split())


def seeks(server) -> list[tuple[int, str]]:
    with server.db.sessions() as session:
        return [(row.id, row.status) for row in session.scalars(select(Seek).order_by(Seek.id))]


def player(server, address: str) -> Player:
    with server.db.sessions() as session:
        return session.scalar(select(Player).where(Player.email == address))


def test_a_signed_seek_is_posted_at_once_and_a_forged_mail_in_that_name_later_is_refused_whole(club):
    signed = club.players.sign(fresh(ALICE, REFEREE, "seek looking-glass\nname Alice L.", subject="club"))
    assert deliver(club, signed, ALICE) == "done: seek 1; name"
    assert "dkim=pass header.d=players.test" in latest(club.server).authentication
    assert "dmarc=pass header.from=players.test" in latest(club.server).authentication
    answers = [said(mail) for mail in club.sink.to(ALICE)]
    assert not any("please confirm" in text for text in answers)  # no round trip
    assert any("Your seek 1 is open" in text and "cancel seek 1" in text for text in answers)
    assert seeks(club.server) == [(1, "open")] and player(club.server, ALICE).name == "Alice L."
    assert player(club.server, ALICE).proven_at is not None
    told = len(club.sink.to(ALICE))
    forged = fresh(ALICE, REFEREE, "cancel seek 1\nname Mallory's puppet", subject="club")
    assert deliver(club, forged, MALLORY, host=OTHER_HOST) == \
        f"rejected: not proven, and mail from {ALICE} was proven before"
    assert seeks(club.server) == [(1, "open")] and player(club.server, ALICE).name == "Alice L."
    notice = club.sink.to(ALICE)[told:]
    assert [str(mail["Subject"]) for mail in notice] == ["Mirrorpost: a mail in your name was refused"]
    text = said(notice[0])
    assert f"a mail to the referee's address, {REFEREE}" in text and "nothing in it was done" in text
    assert "/preferences" in text and "Mallory" not in text and "cancel seek" not in text  # none of its words
    assert club.sink.to(MALLORY) == []  # the forger is never answered


def test_an_ed25519_signed_join_starts_the_game_at_once(club):
    deliver(club, club.players.sign(fresh(ALICE, REFEREE, "seek side-view", subject="club")), ALICE)
    signed = club.signing.sign(fresh(CAROL, REFEREE, "join 1", subject="club"))
    outcome = deliver(club, signed, CAROL)
    assert outcome.startswith("done: joined seek 1: game ")
    assert "dkim=pass header.d=signing.test header.a=ed25519-sha256" in latest(club.server).authentication
    with club.server.db.sessions() as session:
        assert session.scalar(select(func.count(GameRow.id))) == 1


def test_a_forwarded_move_request_cannot_be_answered_by_anyone_but_its_player(club):
    deliver(club, club.players.sign(fresh(ALICE, REFEREE, "seek side-view", subject="club")), ALICE)
    deliver(club, club.signing.sign(fresh(CAROL, REFEREE, "join 1", subject="club")), CAROL)
    with club.server.db.sessions() as session:
        game = session.scalars(select(GameRow)).one()
        white = session.get(Player, game.white_id).email
    provider = club.players if white == ALICE else club.signing
    request = club.sink.last_raw(white)  # White's move request, which White forwards to Mallory
    reply_to = str(club.sink.to(white)[-1]["Reply-To"])
    told = len(club.sink.to(white))
    forged = reply(request, "e2-e4", "gmail", white)  # Mallory answers it in White's name, unsigned
    assert deliver(club, forged, MALLORY, reply_to, host=OTHER_HOST) == \
        f"rejected: not proven, and mail from {white} was proven before"
    with club.server.db.sessions() as session:
        assert session.get(GameRow, game.id).ply == 0
    text = said(club.sink.to(white)[told])
    assert f"a reply to the referee's mail about game {game.id}" in text and "e2-e4" not in text
    assert club.sink.to(MALLORY) == []
    tampered = provider.sign(reply(request, "e2-e4", "apple", white)) + b"\r\nresign\r\n"  # added after signing
    assert deliver(club, tampered, white, reply_to, host=OTHER_HOST).startswith("rejected: not proven")  # changed
    assert "dkim=fail" in latest(club.server).authentication
    assert deliver(club, provider.sign(reply(request, "e2-e4", "gmail", white)), white, reply_to) \
        == "done: e2-e4: moved"


def test_a_domain_publishing_dmarc_reject_is_refused_unproven_and_p_none_keeps_the_round_trip(club, dns_zone):
    Provider(dns_zone, "strict.test", policy="reject")
    Provider(dns_zone, "lax.test", policy="none")
    dave, erin = "dave@strict.test", "erin@lax.test"
    with club.server.db.engine.begin() as connection:
        Service(connection, club.server.settings, club.server.signer).player(dave, "Dave")  # Dave plays here
    assert deliver(club, fresh(dave, REFEREE, "seek looking-glass"), MALLORY, host=OTHER_HOST) \
        == "rejected: not proven, and strict.test asks for p=reject"
    assert "DMARC policy (p=reject)" in said(club.sink.to(dave)[-1]) and seeks(club.server) == []
    assert "/preferences" not in said(club.sink.to(dave)[-1])  # no choice of the player's lifts it
    outcome = deliver(club, fresh(erin, REFEREE, "seek looking-glass"), erin, host=OTHER_HOST)
    assert outcome.startswith("done: held for confirmation")


def test_a_refused_mail_in_the_name_of_an_address_that_is_no_players_is_only_recorded(club, dns_zone):
    """Its From is most likely forged: a notice to it would be backscatter to someone who never wrote."""
    Provider(dns_zone, "strict.test", policy="quarantine")
    gina = "gina@strict.test"
    assert deliver(club, fresh(gina, REFEREE, "seek looking-glass"), gina, host=OTHER_HOST) \
        == "rejected: not proven, and strict.test asks for p=quarantine; no player's address: not told"
    assert club.sink.to(gina) == [] and club.sink.to(MALLORY) == [] and seeks(club.server) == []
    assert player(club.server, gina) is None  # nor made a player by it


def test_spf_proves_mail_from_the_host_the_domain_names_for_an_aligned_envelope_sender(club, dns_zone):
    Provider(dns_zone, "spf.test", policy="quarantine", spf=f"v=spf1 ip4:{SENDING_HOST} -all")
    frank = "frank@spf.test"
    assert deliver(club, fresh(frank, REFEREE, "seek looking-glass"), frank) == "done: seek 1"
    assert "spf=pass smtp.mailfrom=frank@spf.test" in latest(club.server).authentication
    assert deliver(club, fresh(frank, REFEREE, "seek kriegspiel"), frank, host=OTHER_HOST) \
        .startswith("rejected: not proven")  # another host
    assert "spf=fail" in latest(club.server).authentication
    assert deliver(club, fresh(frank, REFEREE, "seek kriegspiel"), "bounces@elsewhere.test") \
        .startswith("rejected: not proven")  # an envelope sender not aligned proves nothing, wherever from
    assert "spf=" not in latest(club.server).authentication
    assert seeks(club.server) == [(1, "open")]


def test_the_answers_limit_never_counts_a_proven_senders_mail(club):
    hourly = club.server.settings.answers_per_hour
    for number in range(hourly + 3):
        raw = club.players.sign(fresh(ALICE, REFEREE, "seeks", subject=f"seeks {number}"))
        assert deliver(club, raw, ALICE).startswith("done")
    subjects = [str(mail["Subject"]) for mail in club.sink.to(ALICE)]
    assert subjects == ["Mirrorpost: open seeks"] * (hourly + 3)


def test_with_no_dns_at_all_mail_flows_unproven_as_before(tmp_path, database_url):
    from tests.conftest import make_server
    from tests.server.mailhost import free_port

    dead = free_port()  # nothing listens there: every look-up fails at once
    server = make_server(tmp_path, database_url, DNS_NAMESERVERS=f"127.0.0.1:{dead}")
    from app.inbound.receive import process_stored, store

    raw = fresh(ALICE, REFEREE, "seek looking-glass")
    inbound_id, _ = store(server.db, raw, "test", ALICE, [REFEREE])
    outcome = process_stored(server.db, server.settings, server.signer, inbound_id,
                             Received(raw, ALICE, [REFEREE], peer=SENDING_HOST, helo="mx.players.test"), False)
    assert outcome.startswith("done: held for confirmation")
    server.db.engine.dispose()
