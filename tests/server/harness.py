"""Driving the server the way mail does, in-process: store raw, process, read the outbox."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from email.policy import default

from sqlalchemy import event, select

from app.games.models import Event, Game
from app.inbound.clients import fresh, reply
from app.inbound.models import InboundMessage
from app.inbound.parse import best_text
from app.inbound.receive import receive
from app.outbound.models import OutboundMessage
from app.service import Service

ALICE = "alice@players.test"
BOB = "bob@players.test"


class Table:
    """Two players and the referee, talking through the real pipeline."""

    def __init__(self, server, variant: str = "looking-glass") -> None:
        self.server = server
        self.variant = variant

    def new_game(self, white: str = ALICE, black: str = BOB, **options: str) -> int:
        with self.server.db.engine.begin() as connection:
            service = Service(connection, self.server.settings, self.server.signer)
            game = service.create_game(self.variant, service.player(white, white.split("@")[0].title()),
                                       service.player(black, black.split("@")[0].title()), options, None)
            return game.id

    def mails(self, address: str, kind: str | None = None) -> list[OutboundMessage]:
        with self.server.db.sessions() as session:
            query = select(OutboundMessage).where(OutboundMessage.recipient == address)
            if kind:
                query = query.where(OutboundMessage.kind == kind)
            return list(session.scalars(query.order_by(OutboundMessage.id)))

    def last(self, address: str, kind: str | None = None) -> OutboundMessage:
        mails = self.mails(address, kind)
        assert mails, f"no mail{' of kind ' + kind if kind else ''} to {address}"
        return mails[-1]

    def text(self, address: str, kind: str | None = None) -> str:
        """The text part of the latest such mail, whitespace collapsed (wrapping aside)."""
        return " ".join(best_text(message_from_bytes(self.last(address, kind).raw, policy=default))[0].split())

    def attachment(self, address: str, kind: str, filename_end: str = ".txt") -> str:
        """The text of the file sent with the latest such mail."""
        message = message_from_bytes(self.last(address, kind).raw, policy=default)
        for part in message.iter_attachments():
            if part.get_filename().endswith(filename_end):
                return part.get_content() if isinstance(part.get_content(), str) else part.get_content().decode()
        raise AssertionError(f"no {filename_end} file with the {kind} mail to {address}")

    def deliver(self, raw: bytes, envelope_to: list[str] | None = None) -> str | None:
        receipt = receive(self.server.db, self.server.settings, self.server.signer, raw, "test", None, envelope_to)
        return "duplicate" if receipt.duplicate else receipt.outcome

    def reply_bytes(self, address: str, body: str, style: str = "gmail", kind: str | None = None,
                    charset: str = "utf-8") -> bytes:
        """The player's reply to their latest mail (of ``kind``), as ``style``'s client writes it."""
        return reply(self.last(address, kind).raw, body, style, address, charset)

    def reply(self, address: str, body: str, style: str = "gmail", kind: str | None = None,
              charset: str = "utf-8") -> str | None:
        return self.deliver(self.reply_bytes(address, body, style, kind, charset))

    def write(self, sender: str, body: str, **headers: str) -> str | None:
        return self.deliver(fresh(sender, self.server.settings.server_email, body, **headers))

    def confirm(self, address: str, style: str = "apple") -> str | None:
        """The sender's reply to their latest confirmation request: what carries held commands out."""
        return self.reply(address, "yes", style, kind="confirm")

    def write_confirmed(self, sender: str, body: str) -> str | None:
        """A mail to the bare address, and the sender's confirming reply if it held commands."""
        outcome = self.write(sender, body)
        return self.confirm(sender) if outcome and "held for confirmation" in outcome else outcome

    def game(self, game_id: int) -> Game:
        with self.server.db.sessions() as session:
            return session.get(Game, game_id)

    def events(self, game_id: int) -> list[Event]:
        with self.server.db.sessions() as session:
            return list(session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.seq)))

    def inbound(self) -> list[InboundMessage]:
        with self.server.db.sessions() as session:
            return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))

    def start(self, white_row: str = "518", black_row: str = "518", **options: str) -> int:
        """A game accepted by both and set up where the variant has a setup, White to move."""
        game_id = self.new_game(**options)
        assert "accepted" in self.reply(ALICE, "accept", kind="invitation")
        assert "accepted" in self.reply(BOB, "accept", kind="invitation")
        if self.game(game_id).status == "setup":
            self.reply(ALICE, f"setup {white_row}", kind="setup-request")
            self.reply(BOB, f"setup {black_row}", kind="setup-request")
        assert self.game(game_id).status == "active"
        return game_id


@contextmanager
def statements_seen(engine) -> Iterator[list[str]]:
    """Every statement sent on the engine's connections while the block runs, as the driver gets it."""
    seen: list[str] = []

    def listen(_connection, _cursor, statement, *_rest) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", listen)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", listen)


def statements_sent(engine, work) -> list[str]:
    """Every statement ``work(connection)`` sends to the database, as the driver gets it, in one transaction."""
    with statements_seen(engine) as seen, engine.begin() as connection:
        work(connection)
    return seen


def assert_same_message(ours: Message, theirs: Message) -> None:
    """Two parses of one message agree: bytes, headers as received, and every part's type, preamble,
    epilogue, defects and decoded payload."""
    assert ours.as_bytes() == theirs.as_bytes()
    assert list(ours.raw_items()) == list(theirs.raw_items())
    for mine, other in zip(ours.walk(), theirs.walk(), strict=True):
        assert mine.get_content_type() == other.get_content_type()
        assert (mine.preamble, mine.epilogue) == (other.preamble, other.epilogue)
        assert [type(defect) for defect in mine.defects] == [type(defect) for defect in other.defects]
        if not mine.is_multipart():
            assert mine.get_payload() == other.get_payload()
            assert mine.get_payload(decode=True) == other.get_payload(decode=True)
