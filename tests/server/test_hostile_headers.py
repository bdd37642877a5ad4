"""Injection: a hostile name or subject never becomes a header, and every mail is still sent.

Names come in through a real door (the SMTP listener) as display names, and by the
confirmed ``name`` command; every kind of mail the server makes is then built with
them, sent over real SMTP, and read back: each header once, the set of headers ours,
and each value exactly the cleaned value that was meant.
"""

from email import message_from_bytes
from email.header import Header
from email.policy import default

import pytest
from sqlalchemy import insert, select

from app.db import utcnow
from app.games.lobby.names import called_after_address
from app.games.models import Game
from app.inbound.clients import fresh, reply
from app.outbound.headers import clean, clean_name, clean_subject
from app.outbound.models import OutboundMessage
from app.outbound.outbox import SMTPTransport
from app.service import Service
from tests.server.doors import Doors
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import Sink

HOSTILE_NAMES = [
    "Eve\x0bReply-To: attacker@evil.org\x0bX-Injected: yes",
    "Eve\r\nBcc: everyone@evil.org\r\nX-Injected: crlf",
    "Eve\x0cX-Injected: ff\x1cX-Injected: fs\x1dX-Injected: gs\x1eX-Injected: rs",
    "Eve\x85X-Injected: nel\u2028X-Injected: ls\u2029X-Injected: ps",
    "Eve \u202eoy-X\u202c \u200b\x00\x7f\x1b[31m",
    '"Mirrorpost referee" <referee@mirrorpost.test>, evil@evil.org',
    "=?utf-8?q?nested=0D=0AX-Injected:_yes?=",
    "Ève " + "é" * 400,
]
OURS = {"from", "to", "reply-to", "subject", "date", "message-id", "auto-submitted", "x-auto-response-suppress",
        "x-loop", "mime-version", "content-type"}
THREADED = {"in-reply-to", "references", "thread-topic", "thread-index"}


def encoded_word(name: str) -> str:
    """The name as a mail client puts it in a From header: RFC 2047 encoded words."""
    return Header(name, "utf-8").encode(linesep="\r\n")


def as_read(name: str) -> str:
    """The display name a mail client reads from ``encoded_word(name)``, cleaned: what Alice is called (her
    address's local part when the name would pass for an address)."""
    unfolded = encoded_word(name).replace("\r\n", "")
    shown = default.header_factory("From", f"{unfolded} <{ALICE}>").addresses[0].display_name
    shown = clean_name(shown)
    return "Alice" if "<" in shown or ">" in shown else shown[:1].upper() + shown[1:]


def with_from(raw: bytes, from_value: str) -> bytes:
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"from:")]
    return b"\r\n".join([b"From: " + from_value.encode(), *lines]) + b"\r\n\r\n" + body


def squeezed(name: str) -> str:
    return "".join(name.split())


def player_name(server, game_id: int) -> str:
    with server.db.sessions() as session:
        return session.get(Game, game_id).white.name


def check_headers(raw: bytes, row: OutboundMessage, names: set[str], server) -> None:
    """The mail's headers are ours, each once, and each value is exactly what was meant."""
    message = message_from_bytes(raw, policy=default)
    found = [name.lower() for name, _value in message.items()]
    assert len(found) == len(set(found)), found
    assert OURS <= set(found) <= OURS | THREADED, found
    to = message["To"]
    assert not to.defects and len(to.addresses) == 1
    assert to.addresses[0].addr_spec == row.recipient
    # Python's reader keeps the folding space between two encoded words of a long non-ASCII display name,
    # which RFC 2047 (and mail clients) drop: names are compared without their spaces.
    assert squeezed(to.addresses[0].display_name) in {squeezed(name) for name in names}, to.addresses[0]
    assert to.addresses[0].display_name.isprintable()
    assert str(message["Subject"]) == clean_subject(row.subject)
    assert str(message["Reply-To"]).startswith("referee") and str(message["Reply-To"]).endswith("@mirrorpost.test")
    assert message["From"].addresses[0].addr_spec == server.settings.server_email
    assert message["X-Loop"] == server.settings.server_email
    for name, value in message.items():
        assert "\n" not in str(value) and "\r" not in str(value), name
        assert name.lower() not in ("x-injected", "bcc")


@pytest.mark.parametrize("hostile", HOSTILE_NAMES)
def test_every_kind_of_mail_with_hostile_names_has_exactly_the_headers_meant(tmp_path, hostile):
    doors = Doors(tmp_path, f"sqlite:///{tmp_path / 'db.sqlite3'}")
    server = doors.server
    table = Table(server)
    try:
        with server.db.engine.begin() as connection:
            service = Service(connection, server.settings, server.signer)
            game_id = service.create_game("looking-glass", service.player(ALICE), service.player(BOB), {}, None).id
        invitation = table.last(ALICE, "invitation")
        accept = with_from(reply(invitation.raw, "accept", "gmail", ALICE), f"{encoded_word(hostile)} <{ALICE}>")
        assert doors.deliver("smtp", accept, ALICE, str(message_from_bytes(invitation.raw)["Reply-To"])) \
            .startswith("done")  # through the SMTP listener: the display name becomes Alice's name, cleaned,
        # unless it holds an address (the club shows no part of one): then she keeps her own
        names = {as_read(hostile), "Alice", "Bob", "", clean_name(f"Bob {hostile}".splitlines()[0])}
        adopted = "Alice" if called_after_address(as_read(hostile), ALICE) else as_read(hostile)
        assert squeezed(player_name(server, game_id)) == squeezed(adopted)
        table.reply(BOB, "accept", kind="invitation")
        table.write_confirmed(BOB, f"name Bob {hostile}")  # a name by command: the line's characters that remain
        table.reply(ALICE, "setup 518", kind="setup-request")
        table.reply(BOB, "setup 518", kind="setup-request")
        table.reply(ALICE, "R e2-e5", kind="request")  # rejected
        table.reply(ALICE, "R e2-e9", kind="request")  # unreadable
        table.reply(ALICE, f"say hello {hostile}", kind="request")  # alone: a mail of its own to Bob
        table.reply(ALICE, "R e2-e4", kind="request")
        table.reply(BOB, "board\nhelp\nhistory\noffer draw", kind="request")
        table.reply(ALICE, "decline draw", kind="draw-offer")
        table.write(ALICE, "games")
        table.write(ALICE, "help")
        table.write_confirmed(ALICE, "vacation 2")
        table.deliver(reply(table.last(ALICE, "request").raw, "R d2-d4", "gmail", "mallory@evil.test"))
        table.reply(BOB, "resign", kind="request")
        assert table.game(game_id).status == "over"
        with server.db.sessions() as session:
            rows = list(session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)))
        kinds = {row.kind for row in rows}
        assert {"invitation", "setup-request", "request", "error", "said", "help", "history", "draw-offer",
                "games", "confirm", "vacation", "refused", "game-over", "notice"} <= kinds, kinds
        for row in rows:
            check_headers(row.raw, row, names, server)
        with Sink() as sink:
            settings = server.settings.__class__(**{**server.settings.__dict__, "smtp_host": "127.0.0.1",
                                                    "smtp_port": sink.port})
            dispatcher = server.dispatcher(SMTPTransport(settings))
            while dispatcher.run_once():
                pass
            received = [raw for _, _, raw in sink.received]
        assert len(received) == len(rows)  # every mail was sent
        by_id = {row.message_id: row for row in rows}
        for raw in received:
            check_headers(raw, by_id[str(message_from_bytes(raw, policy=default)["Message-ID"]).strip()], names, server)
    finally:
        doors.close()


def test_a_mail_queued_with_a_hostile_header_value_is_still_sent_cleaned(server):
    """A row queued before values were cleaned (or by anything else) is sent, not refused and lost."""
    hostile = "Eve\x0bReply-To: attacker@evil.org\r\nX-Injected: yes"
    with server.db.engine.begin() as connection:
        connection.execute(insert(OutboundMessage.__table__).values(
            message_id="<old.1@mirrorpost.test>", recipient=ALICE, kind="notice", subject=hostile,
            headers=[["From", "Mirrorpost referee <referee@mirrorpost.test>"], ["To", f"{hostile} <{ALICE}>"],
                     ["Subject", hostile], ["Message-ID", "<old.1@mirrorpost.test>"], ["X-Bad\r\nName", "x"]],
            body_text="hello", body_html="<p>hello</p>", status="pending", attempts=0, next_attempt_at=utcnow(),
            created_at=utcnow()))
    with Sink() as sink:
        settings = server.settings.__class__(**{**server.settings.__dict__, "smtp_host": "127.0.0.1",
                                                "smtp_port": sink.port})
        assert server.dispatcher(SMTPTransport(settings)).run_once() == 1
        message = sink.to(ALICE)[0]
    assert [name.lower() for name, _value in message.items()].count("reply-to") == 0
    assert message["X-Injected"] is None and message["X-Bad"] is None
    assert str(message["Subject"]) == clean(hostile)
    assert message["To"].addresses[0].addr_spec == ALICE


def test_a_name_by_mail_is_bounded_and_shown_cleaned_on_the_web_and_in_mail(server):
    table = Table(server)
    game_id = table.start()
    table.write_confirmed(ALICE, "name " + "Z" * 5000)
    name = player_name(server, game_id)
    assert len(name) <= 100 and name.startswith("ZZZ")
    raw = fresh(ALICE, "referee@mirrorpost.test", "games")
    table.deliver(raw)
    assert len(table.last(ALICE).headers[1][1]) < 400  # To: the bounded name and the address
