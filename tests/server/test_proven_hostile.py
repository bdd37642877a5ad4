"""Hostile and broken signatures and DNS, each through the real listener in a proven player's name: each is
"not proven" (so the mail is refused whole and nothing in it done), never a crash or a stall, and costs a
bounded number of look-ups."""

from __future__ import annotations

import base64
import re
import time
from datetime import timedelta

import dkim
import nacl.signing
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dkim.canonicalization import CanonicalizationPolicy
from sqlalchemy import func, select, update

from app.admin import retry_inbound
from app.club.models import Seek
from app.db import utcnow
from app.games.models import Game as GameRow
from app.games.models import Player
from app.inbound.clients import fresh, reply
from app.inbound.models import InboundMessage
from app.inbound.pipeline import DNS_WAIT
from app.inbound.proof.resolver import resolver_for
from app.inbound.proof.signatures import read_signature, signed_recipients
from app.inbound.receive import PENDING, process_pending, store
from tests.dns_server import LOOP, SILENT, TRUNCATED
from tests.server.mailhost import wait_until
from tests.server.signing import OTHER_HOST, Provider, ed25519_key, send
from tests.server.smtp_game import ALICE, MALLORY, REFEREE
from tests.server.test_proven_senders import deliver, latest, said

SEEK = "seek kriegspiel"


def mail(body: str = SEEK) -> bytes:
    return fresh(ALICE, REFEREE, body, subject="club")


def raw_mail(body: str) -> bytes:
    """A plain mail as it is written, its lines as long as they are (up to SMTP's 998)."""
    return (f"From: {ALICE}\r\nTo: {REFEREE}\r\nSubject: club\r\nMessage-ID: <{time.time_ns()}@players.test>\r\n"
            f"Content-Type: text/plain; charset=us-ascii\r\n\r\n{body}").encode()


def with_signature(raw: bytes, value: str) -> bytes:
    return b"DKIM-Signature: " + value.encode() + b"\r\n" + raw


def expired(raw: bytes) -> bytes:
    """Signed with Ed25519 by players.test's key, valid but for its expiry (x=) an hour ago."""
    now = int(time.time())
    return hand_signed(raw, [b"from", b"subject"], [(b"t", str(now - 7200).encode()), (b"x", str(now - 3600).encode())])


def huge_exponent_key() -> bytes:
    """An RSA public key of 2048 bits whose exponent has nearly as many: seconds of arithmetic to verify with."""
    modulus = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key().public_numbers().n
    exponent = (modulus >> 2) | 1
    public = rsa.RSAPublicNumbers(exponent, modulus).public_key()
    return public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def test_hostile_signatures_and_dns_prove_nothing_and_cost_bounded_look_ups(game, dns_zone):
    players = Provider(dns_zone, "players.test")
    ed = Provider(dns_zone, "players.test", kind="ed25519", selector="ed", policy=None, spf=None)
    lookalike = Provider(dns_zone, "p1ayers.test")
    evil = Provider(dns_zone, "evil.test")
    dns_zone.txt("huge._domainkey.players.test", "v=DKIM1; k=rsa; p=" + "A" * 10_000)
    dns_zone.txt("junk._domainkey.players.test", "v=DKIM1; k=rsa; p=notbase64!!!;;;==")
    dns_zone.txt("power._domainkey.players.test", b"v=DKIM1; k=rsa; p=" + base64.b64encode(huge_exponent_key()))
    for selector, behaviour in (("slow", SILENT), ("cut", TRUNCATED), ("loop", LOOP)):
        dns_zone.misbehave(f"{selector}._domainkey.players.test", behaviour)
    assert deliver(game, players.sign(mail("seek looking-glass")), ALICE) == "done: seek 1"  # Alice is proven

    base = mail()
    real = players.sign(base)[: -len(base)]  # one good signature field, copied below with other selectors
    cases = {
        "malformed": with_signature(mail(), "v=1; a=rsa-sha256; d=players.test; s=s1; b=!!!; bh=???; h=from"),
        "spaces": with_signature(mail(), "v=1; a=rsa-sha256; d=players.test; s=s1;" + "\r\n ".join([" " * 500] * 6)
                                 + "b=x; bh=x"),
        "fifty": b"".join(real.replace(b"s=s1", f"s=x{n}".encode()) for n in range(50)) + base,
        "huge key": players.sign(mail()).replace(b"s=s1", b"s=huge"),
        "garbage key": players.sign(mail()).replace(b"s=s1", b"s=junk"),
        "huge exponent": players.sign(mail()).replace(b"s=s1", b"s=power"),
        "short l=": players.sign(mail(), length=True) + b"cancel seek 1\r\nseek side-view\r\n",  # unsigned
        "truncated": players.sign(mail()).replace(b"s=s1", b"s=cut"),
        "expired": expired(mail()),
        "look-alike": lookalike.sign(mail()),
        "unrelated": evil.sign(mail()),
        "costly body": ed.sign(raw_mail(SEEK + "\r\n" + ("x" + " " * 990 + "y\r\n") * 60)),  # SMTP's longest lines
        "leading folded line": b" x\r\n" + players.sign(mail()),  # dkimpy's reading raises more than its errors
    }
    for name, raw in cases.items():
        asked = len(dns_zone.asked)
        outcome = deliver(game, raw, ALICE, host=OTHER_HOST)
        assert outcome.startswith(f"rejected: not proven, and mail from {ALICE} was proven before"), (name, outcome)
        results = latest(game.server).authentication
        assert "dkim=pass" not in results, (name, results)
        assert "dmarc=fail" in results or "dmarc=temperror" in results, (name, results)
        assert len(dns_zone.asked) - asked <= 12, (name, dns_zone.asked[asked:])  # a few look-ups, not 50
    troubled = {  # no answer in time: not refused yet, nothing done, checked again later
        "silent": players.sign(mail()).replace(b"s=s1", b"s=slow"),
        "cname loop": players.sign(mail()).replace(b"s=s1", b"s=loop"),
    }
    told = len(game.sink.to(ALICE))
    for name, raw in troubled.items():
        asked = len(dns_zone.asked)
        outcome = deliver_waiting(game, raw, ALICE)
        assert outcome.startswith("waiting: the sender check could not be finished"), (name, outcome)
        assert "dkim=temperror" in latest(game.server).authentication, name
        assert len(dns_zone.asked) - asked <= 12, (name, dns_zone.asked[asked:])
    game.worker.run_once()
    assert len(game.sink.to(ALICE)) == told  # nobody is told anything yet
    with game.server.db.sessions() as session:
        assert [row.status for row in session.scalars(select(Seek))] == ["open"]  # nothing of them was done


def deliver_waiting(game, raw: bytes, envelope_from: str, host: str = OTHER_HOST) -> str:
    """Hand the mail to the listener; returns the outcome once its check has left it waiting for DNS."""
    before = newest_id(game)
    send(game.port, raw, envelope_from, REFEREE, host)
    wait_until(lambda: newest_id(game) > before and (latest(game.server).outcome or "").startswith("waiting"),
               timeout=30, what="the message to wait for DNS")
    row = latest(game.server)
    assert row.status == "new" and row.retry_at is not None
    return row.outcome


def newest_id(game) -> int:
    with game.server.db.sessions() as session:
        return session.scalar(select(func.max(InboundMessage.id))) or 0


def utf8_mail(sender: str, body: str = SEEK) -> bytes:
    """A mail whose From is written in UTF-8, as a mail sent with SMTPUTF8 carries it."""
    return (f"From: Max <{sender}>\r\nTo: {REFEREE}\r\nSubject: club\r\nMessage-ID: <{time.time_ns()}@faß.de>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()


def test_an_internationalised_from_domain_is_checked_as_its_uts46_name_never_a_look_alike(server, dns_zone):
    """IDNA 2003 (Python's codec) reads faß.de as fass.de, another domain: its signature would have proven mail
    from faß.de. UTS-46 (non-transitional) reads it as xn--fa-hia.de; an invalid label proves nothing."""
    from app.inbound.proof import Arrival, authenticate

    lookalike = Provider(dns_zone, "fass.de", policy="none")
    own = Provider(dns_zone, "xn--fa-hia.de", policy="reject")
    invalid = Provider(dns_zone, "xn--zz.de")

    found = authenticate(Arrival(lookalike.sign(utf8_mail("max@faß.de"))), server.settings)
    assert (found.domain, found.proven, found.policy) == ("xn--fa-hia.de", False, "reject")
    found = authenticate(Arrival(own.sign(utf8_mail("max@faß.de"))), server.settings)
    assert (found.domain, found.proven_by) == ("xn--fa-hia.de", "dkim")
    found = authenticate(Arrival(own.sign(utf8_mail("max@xn--fa-hia.de"))), server.settings)
    assert (found.domain, found.proven_by) == ("xn--fa-hia.de", "dkim")  # the same domain, however written
    found = authenticate(Arrival(invalid.sign(utf8_mail("max@xn--zz.de"))), server.settings)
    assert not found.proven


def hand_signed(raw: bytes, signed: list[bytes], times: list[tuple[bytes, bytes]] | None = None) -> bytes:
    """Signed with Ed25519 by players.test's key (selector ``ed``) over the fields ``signed``, as dkimpy writes a
    signature (its ``sign`` refuses to leave From out, or to sign with an expiry past, so the field is made here
    as ``sign`` makes it)."""
    signer = dkim.DKIM(raw, signature_algorithm=b"ed25519-sha256")
    signer.hasher = dkim.HASH_ALGORITHMS[b"ed25519-sha256"]  # what ``sign`` sets before it writes the field
    policy = CanonicalizationPolicy.from_c_value(b"relaxed/relaxed")
    body_hash = base64.b64encode(signer.hasher(policy.canonicalize_body(signer.body)).digest())
    fields = [(b"v", b"1"), (b"a", b"ed25519-sha256"), (b"c", b"relaxed/relaxed"), (b"d", b"players.test"),
              (b"s", b"ed"), *(times or [(b"t", str(int(time.time())).encode())]), (b"h", b" : ".join(signed)),
              (b"bh", body_hash), (b"b", b"")]
    header = signer.gen_header(fields, signed, policy, b"DKIM-Signature", nacl.signing.SigningKey(bytes(ed25519_key())))
    return b"DKIM-Signature: " + header + raw


def test_a_signature_that_leaves_the_from_field_unsigned_proves_nothing(server, dns_zone):
    """RFC 6376 5.4: the From field MUST be signed; a signature over the rest of a mail says nothing of its From,
    which anyone may then have written."""
    from app.inbound.proof import Arrival, authenticate

    Provider(dns_zone, "players.test", kind="ed25519", selector="ed", policy="reject")
    found = authenticate(Arrival(hand_signed(mail(), [b"from", b"subject", b"to"])), server.settings)
    assert found.proven_by == "dkim"  # the same signature over From proves it
    found = authenticate(Arrival(hand_signed(mail(), [b"subject", b"to", b"message-id"])), server.settings)
    assert not found.proven and found.policy == "reject"
    assert "dkim=permerror" in found.results and "dkim=pass" not in found.results


def test_once_a_signature_proves_the_mail_the_others_are_not_verified(server, dns_zone):
    """A second aligned signature (Microsoft 365 and Google Workspace often add one) can change nothing once one
    proved the mail: its key is not even looked up."""
    from app.inbound.proof import Arrival, authenticate

    players = Provider(dns_zone, "players.test")
    dns_zone.misbehave("slow._domainkey.players.test", SILENT)
    signed = players.sign(mail())
    second = signed[: -len(mail())].replace(b"s=s1", b"s=slow")
    raw = signed[: -len(mail())] + second + signed[-len(mail()):]  # the good one first, as the topmost
    found = authenticate(Arrival(raw), server.settings)
    assert found.proven_by == "dkim" and "1 more signatures not checked" in found.results
    assert not any(name.startswith("slow.") for name, _type in dns_zone.asked)


def test_a_mail_the_player_signed_for_someone_else_proves_nothing_when_sent_on_to_the_referee(game, dns_zone):
    """Replays: Alice's provider signs all her mail, the To and Cc fields too. A mail she wrote to Mallory, handed
    by Mallory to the referee (to a game's reply address or the bare address), is signed for other recipients:
    it proves nothing, and as Alice's mail has been proven before it is refused whole."""
    players = Provider(dns_zone, "players.test")
    signing = Provider(dns_zone, "signing.test", kind="ed25519", selector="ed")
    carol = "carol@signing.test"
    assert deliver(game, players.sign(mail("seek side-view")), ALICE) == "done: seek 1"
    assert deliver(game, signing.sign(fresh(carol, REFEREE, "join 1", subject="club")), carol).startswith("done")
    reply_address = str(game.sink.to(ALICE)[-1]["Reply-To"])
    to_mallory = players.sign(fresh(ALICE, MALLORY, "I would resign that one.\n\nresign\n", subject="our game"))
    outcome = deliver(game, to_mallory, MALLORY, reply_address, host=OTHER_HOST)
    assert outcome.startswith(f"rejected: not proven, and mail from {ALICE} was proven before"), outcome
    assert "dkim=policy" in latest(game.server).authentication
    assert "signed for other recipients" in latest(game.server).authentication
    with game.server.db.sessions() as session:
        assert session.scalars(select(GameRow.status)).one() != "over"
    bare = players.sign(fresh(ALICE, MALLORY, "cancel seek 1\nseek looking-glass\n", subject="club"))
    assert deliver(game, bare, MALLORY, REFEREE, host=OTHER_HOST).startswith("rejected: not proven")
    with game.server.db.sessions() as session:
        assert session.scalars(select(func.count()).select_from(Seek)).one() == 1
    copied = players.sign(fresh(ALICE, f"Mallory <{MALLORY}>, {REFEREE}", "resign\n", subject="our game"))
    assert deliver(game, copied, ALICE, reply_address).startswith("done")  # written to the referee too: hers
    assert "dkim=pass" in latest(game.server).authentication


def test_a_proven_players_move_that_dns_leaves_unchecked_waits_and_is_played_once_the_key_answers(game, dns_zone):
    """A genuine move whose key look-up got no answer in time is neither played nor refused: it waits, nothing in
    it done and nobody told, and is checked again later; played once the key answers. Another that waits longer
    than DNS_WAIT is refused as before, its sender told to send it again."""
    players = Provider(dns_zone, "players.test")
    signing = Provider(dns_zone, "signing.test", kind="ed25519", selector="ed")
    carol = "carol@signing.test"
    assert deliver(game, players.sign(mail("seek side-view")), ALICE) == "done: seek 1"
    assert deliver(game, signing.sign(fresh(carol, REFEREE, "join 1", subject="club")), carol).startswith("done")
    with game.server.db.sessions() as session:
        white = session.scalars(select(Player.email).join(GameRow, GameRow.white_id == Player.id)).one()
    provider = players if white == ALICE else signing
    key = f"{provider.selector}._domainkey.{provider.domain}"
    request, reply_address = game.sink.last_raw(white), str(game.sink.to(white)[-1]["Reply-To"])
    dns_zone.misbehave(key, SILENT)
    resolver_for.cache_clear()  # the key was cached when the player's mail was proven
    told = len(game.sink.to(white))
    move = provider.sign(reply(request, "e2-e4", "gmail", white))
    send(game.port, move, white, reply_address, OTHER_HOST)
    wait_until(lambda: (latest(game.server).outcome or "").startswith("waiting"), timeout=30,
               what="the move to wait for DNS")
    waiting = latest(game.server)
    assert waiting.status == "new" and waiting.retry_at > waiting.received_at
    game.worker.run_once()  # the sweep leaves it alone before its time
    assert latest(game.server).status == "new" and len(game.sink.to(white)) == told
    with game.server.db.sessions() as session:
        assert session.scalars(select(GameRow.ply)).one() == 0

    assert retry_inbound(game.server.db, game.server.settings, game.server.signer, waiting.id).startswith(
        "waiting")  # an operator may have it checked now: DNS is still silent, so it waits again
    dns_zone.behaviours.pop(key)  # the key answers again; the time to check it again has come
    at(game, waiting.id, retry_at=utcnow() - timedelta(seconds=1), received_at=utcnow() - timedelta(minutes=11))
    assert process_pending(game.server.db, game.server.settings, game.server.signer, settle=timedelta(0)) == 1
    assert latest(game.server).status == "done" and "dkim=pass" in latest(game.server).authentication
    assert retry_inbound(game.server.db, game.server.settings, game.server.signer, waiting.id) is None  # done
    with game.server.db.sessions() as session:
        assert session.scalars(select(GameRow.ply)).one() == 1

    dns_zone.misbehave(key, SILENT)
    resolver_for.cache_clear()
    again = provider.sign(reply(request, "d2-d4", "gmail", white))  # an old request's reply: answered, not played
    send(game.port, again, white, reply_address, OTHER_HOST)
    wait_until(lambda: latest(game.server).id > waiting.id and (latest(game.server).outcome or "").startswith(
        "waiting"), timeout=30, what="the second mail to wait for DNS")
    late = latest(game.server)
    at(game, late.id, retry_at=utcnow() - timedelta(seconds=1), received_at=utcnow() - DNS_WAIT)
    process_pending(game.server.db, game.server.settings, game.server.signer, settle=timedelta(0))
    assert latest(game.server).outcome.startswith(f"not proven, and mail from {white} was proven before (DNS")
    game.worker.run_once()
    assert "DNS of your domain did not answer" in said(game.sink.to(white)[-1])


def at(game, inbound_id: int, **times) -> None:
    """Move a stored message's times, as if it had come and waited earlier."""
    with game.server.db.engine.begin() as connection:
        connection.execute(update(InboundMessage).where(InboundMessage.id == inbound_id).values(**times))


def test_a_signatures_expiry_is_judged_when_the_mail_came_not_when_it_is_checked_again():
    """A mail checked again later (it waited for DNS) is judged as it came: a signature valid then stays valid."""
    expires = int(time.time()) - 3600
    value = (f"v=1; a=rsa-sha256; d=players.test; s=s1; h=from:to; bh=AAAA; b=AAAA; x={expires}").encode()
    assert read_signature(value, "players.test", False, at=expires - 60).result == "pending"  # to be verified
    assert read_signature(value, "players.test", False).result == "policy"  # judged now: expired


def test_a_copy_of_a_proven_mail_folded_anew_is_not_carried_out_again(game, dns_zone):
    """Someone given a copy of a player's signed mail to the referee (a Cc) changes its whitespace and folding, which
    relaxed canonicalization forgives but the dedupe key does not, and sends it again: the signature proved that mail
    once, so the copy is ignored, nothing done again and nobody answered."""
    players = Provider(dns_zone, "players.test")
    signed = players.sign(fresh(ALICE, f"{REFEREE}, {MALLORY}", "seek side-view\n", subject="club"))
    assert deliver(game, signed, ALICE) == "done: seek 1"
    original = latest(game.server).id
    head, _, body = signed.partition(b"\r\n\r\n")
    refolded = head.replace(b"; ", b";\r\n\t", 3) + b"\r\n\r\n" + body.replace(b"\r\n", b"   \r\n")
    assert refolded != signed
    answered = len(game.sink.to(ALICE))
    assert deliver(game, refolded, MALLORY, host=OTHER_HOST) == (
        f"ignored: a copy of message {original} (the same DKIM signature): not carried out again")
    assert "dkim=pass" in latest(game.server).authentication  # it verifies: it is the very mail, again
    with game.server.db.sessions() as session:
        assert session.scalars(select(func.count()).select_from(Seek)).one() == 1
    assert len(game.sink.to(ALICE)) == answered and game.sink.to(MALLORY) == []


BASE64_DIGITS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def test_a_copy_is_known_however_its_signature_is_written_and_whichever_signature_proves_it(game, dns_zone):
    """What identifies a proven mail is what its signature pins (its body as signed, its From, Message-ID and Date),
    not the signature's value, which can be written otherwise and still verify, nor which of the domain's
    signatures proves the copy."""
    rsa = Provider(dns_zone, "players.test")
    ed = Provider(dns_zone, "players.test", kind="ed25519", selector="ed", policy=None, spf=None)
    raw = fresh(ALICE, f"{REFEREE}, {MALLORY}", "seek side-view\n", subject="club")
    first, second = rsa.sign(raw)[: -len(raw)], ed.sign(raw)[: -len(raw)]
    assert deliver(game, first + second + raw, ALICE) == "done: seek 1"
    original = latest(game.server).id
    head, _, body = raw.partition(b"\r\n\r\n")

    def spaced(spaces: int) -> bytes:  # relaxed canonicalization forgives it; the dedupe key does not
        return head + b"\r\n\r\n" + body.replace(b"\r\n", b" " * spaces + b"\r\n")

    last = re.search(rb"([A-Za-z0-9+/])==\r\n", first)  # RSA 2048's b= ends in '==': 4 bits unread before them
    padded = first[:last.start(1)] + bytes([BASE64_DIGITS[BASE64_DIGITS.index(last.group(1)) ^ 1]]) + \
        first[last.end(1):]
    copies = {
        "padding bits": padded + spaced(1),
        "leading zeros": first.replace(b" b=", b" b=AAAA", 1) + spaced(2),
        "the other signature alone": second + spaced(3),
    }
    for name, copy in copies.items():
        outcome = deliver(game, copy, MALLORY, host=OTHER_HOST)
        assert outcome == f"ignored: a copy of message {original} (the same DKIM signature): not carried out again", \
            (name, outcome)
        assert "dkim=pass" in latest(game.server).authentication, name  # it does verify: the very mail, again
    with game.server.db.sessions() as session:
        assert session.scalars(select(func.count()).select_from(Seek)).one() == 1


def test_a_players_signed_mail_with_the_referee_in_bcc_is_refused_with_a_word_on_what_to_do(game, dns_zone):
    """Signed, but for other recipients: refused (it could be a copy sent on), and the player told to put the
    referee in To or Cc, never to have their unsigned mail accepted (which would weaken their protection)."""
    players = Provider(dns_zone, "players.test")
    assert deliver(game, players.sign(mail("seek side-view")), ALICE) == "done: seek 1"
    bcc = players.sign(fresh(ALICE, "Bob <bob@players.test>", "seek kriegspiel\n", subject="club"))
    outcome = deliver(game, bcc, ALICE, host=OTHER_HOST)  # no SPF for it: DKIM alone could prove it
    assert outcome == (f"rejected: not proven, and mail from {ALICE} was proven before (signed for other "
                       "recipients)"), outcome
    notice = said(game.sink.to(ALICE)[-1])
    assert "the referee's address was neither in its To nor in its Cc" in notice
    assert "in To or Cc, not in Bcc" in notice and "unsigned mail accepted" not in notice


def test_the_referees_domain_is_recognised_in_a_signed_to_however_it_is_written():
    """A signed To naming the referee's internationalised domain in Unicode letters or upper case is the referee's."""
    recipients = signed_recipients([(b"to", "Referee <Referee@\u00c9checs.test>, bob@example.test".encode())])
    assert recipients == ("referee@xn--checs-9ra.test", "bob@example.test")
    assert signed_recipients([(b"subject", b"x")]) is None  # neither To nor Cc covered


def test_a_strangers_mail_dns_leaves_unchecked_is_refused_at_once_and_never_waits(game, dns_zone):
    """Waiting is for players' mail: a stranger's from a domain with a strict policy whose DNS is silent (a forger's
    own domain, say) is refused unread at once, and costs the sweep nothing later."""
    strict = Provider(dns_zone, "strict.test", policy="reject")
    dns_zone.misbehave("s1._domainkey.strict.test", SILENT)
    stranger = "gina@strict.test"
    outcome = deliver(game, strict.sign(fresh(stranger, REFEREE, "seek side-view\n", subject="club")), stranger,
                      host=OTHER_HOST)
    assert outcome == ("rejected: not proven, and strict.test asks for p=reject (DNS did not answer); no player's "
                       "address: not told"), outcome
    assert latest(game.server).retry_at is None


def test_the_sweep_takes_messages_never_tried_before_those_waiting_for_dns(server):
    """A message a crash left behind is never held up by ones waiting for DNS, each of which may take seconds."""
    waiting, _ = store(server.db, fresh(ALICE, REFEREE, "help\n"), "ingest")
    left, _ = store(server.db, fresh(MALLORY, REFEREE, "help\n"), "ingest")
    past = utcnow() - timedelta(hours=1)
    with server.db.engine.begin() as connection:
        connection.execute(update(InboundMessage).values(received_at=past))
        connection.execute(update(InboundMessage).where(InboundMessage.id == waiting).values(retry_at=past))
        found = connection.execute(PENDING, {"before": utcnow(), "now": utcnow(), "limit": 5}).scalars().all()
    assert found == [left, waiting]
